/**
 * Build step: fewer, larger JavaScript chunks for the browser. Left to itself the bundler (Rolldown) gives every set of
 * modules shared by the same entries its own chunk, and a course page ended up loading ~35 files of a few hundred
 * bytes each; gzip compresses each file on its own, so the same code cost ~40 % more than in one file (28 KB
 * against 20 KB). This groups the modules by the pages that use them (client build only; the server build is
 * untouched):
 *
 * - `react`: react, react-dom, the scheduler and `@astrojs/react`'s client (every page with an island loads all);
 * - `site`: the site-wide plain scripts' modules (account menu, save hearts, admin notice, review delete,
 *   carousels, page analytics; see src/lib/client) and everything they import: on every page with a header. They
 *   have no effects at import (each script exports an init function its component calls), so loading the chunk
 *   runs nothing by itself;
 * - `listing`: what the course page's islands share with the search and reviews islands (prices, dates, cards,
 *   reviews, the API calls);
 * - `course`: what only the course page's islands use;
 * - `stores`: nanostores beyond atoms (the checkout's key listening), kept out of the page chunks.
 *
 * What a site-wide script with effects at import (the collection filter) imports joins `site` too: Rollup puts a
 * module no group claims into the group of whichever module imports it, and such a script must never pull the
 * course chunk into other pages. `tests/e2e/page-weight.test.ts` and `npm run bench:build` measure the outcome.
 */
import type { AstroIntegration } from 'astro';
import type { Rolldown } from 'vite';

const REACT = /[\\/]node_modules[\\/](react|react-dom|scheduler|@astrojs[\\/]react[\\/]dist)[\\/]/;
/** The site-wide scripts without top-level effects (their components call their init function). */
const SITE_ROOTS = [
  'src/lib/client/account-menu.ts', 'src/lib/client/save-hearts.ts', 'src/lib/client/admin-notice.ts', 'src/lib/client/review-delete.ts',
  'src/lib/client/carousel.ts', 'src/lib/client/page-analytics.ts',
];
/**
 * Site-wide scripts that act when loaded (the collection filter): they stay their own entries, and what they
 * import joins `site` (else Rollup would pull it into whichever group imports it too).
 */
const SCRIPTS_WITH_EFFECTS = ['src/lib/client/collection-filter.ts'];
const NANOSTORES_EXTRAS = /\/node_modules\/nanostores\/(?!index\.js$|atom\/)/;
const COURSE_ROOTS = ['src/islands/DatesList.tsx', 'src/islands/BookingAside.tsx', 'src/islands/AllReviewsModal.tsx'];
const LISTING_ROOTS = ['src/islands/SearchApp.tsx', 'src/islands/ReviewsList.tsx'];

interface Meta {
  getModuleIds(): Iterable<string>;
  getModuleInfo(id: string): Rolldown.ModuleInfo | null;
}

const posix = (id: string) => id.replace(/\\/g, '/');

/** Every module reachable by static imports from the given roots (the roots included). */
function reach(meta: Meta, roots: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = roots.slice();
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of meta.getModuleInfo(id)?.importedIds ?? []) queue.push(next);
  }
  return seen;
}

interface Groups {
  site: Set<string>;
  listing: Set<string>;
  course: Set<string>;
}

function groupsOf(meta: Meta): Groups {
  const ids = [...meta.getModuleIds()];
  const find = (suffixes: string[]) => ids.filter((id) => suffixes.some((s) => posix(id).endsWith(`/${s}`)));
  const scripts = find(SCRIPTS_WITH_EFFECTS);
  const site = new Set([...reach(meta, find(SITE_ROOTS)), ...[...reach(meta, scripts)].filter((id) => !scripts.includes(id))]);
  const course = reach(meta, find(COURSE_ROOTS));
  const listing = reach(meta, find(LISTING_ROOTS));
  return { site, listing: new Set([...course].filter((id) => listing.has(id))), course };
}

export function chunkFor(id: string, groups: Groups): string | null {
  // React is CommonJS: its modules also come as the commonjs plugin's wrappers ('\0…?commonjs-exports') and helpers.
  if (REACT.test(id) || id === '\0commonjsHelpers.js') return 'react';
  // CSS, virtual modules and Astro's own scripts keep Astro's chunking.
  if (id.includes('?') || id.startsWith('\0') || !/\.(m?[jt]sx?)$/.test(id)) return null;
  // nanostores' entry re-exports every store kind; the pages use atoms only, so the rest (key listening for
  // @nanostores/react, computed, maps) goes apart, loaded by the islands that use it (the checkout).
  if (NANOSTORES_EXTRAS.test(posix(id))) return 'stores';
  if (groups.site.has(id)) return 'site';
  if (groups.listing.has(id)) return 'listing';
  if (groups.course.has(id)) return 'course';
  return null;
}

export default function clientChunks(): AstroIntegration {
  return {
    name: 'client-chunks',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        let groups: Groups | null = null;
        // One plugin serves every build environment (Vite 8): only the browser's ('client') is regrouped.
        const isClient = (context: { environment?: { name: string } }) => context.environment?.name === 'client';
        /**
         * One Rolldown group per chunk, in chunkFor's order of precedence. Rolldown takes a group's modules with their
         * dependencies, highest priority first, and a module taken is removed from the groups after it: so `site`
         * keeps what it shares with the course islands, as chunkFor says (with one group whose name is a function,
         * the first chunk named took the shared modules, and every page loaded the course chunk).
         */
        const order = ['react', 'stores', 'site', 'listing', 'course'] as const;
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'client-chunks',
                apply: 'build',
                // The groups need the whole module graph, which the plugin context has once the build is over.
                buildEnd() {
                  if (!isClient(this)) return;
                  const ids = [...this.getModuleIds()];
                  groups = groupsOf({ getModuleIds: () => ids, getModuleInfo: (id) => this.getModuleInfo(id) });
                },
                outputOptions(options: Rolldown.OutputOptions) {
                  if (!isClient(this)) return null;
                  options.codeSplitting = {
                    groups: order.map((name, i) => ({
                      name,
                      priority: order.length - i,
                      test: (id: string) => !!groups && chunkFor(id, groups) === name,
                    })),
                  };
                  return options;
                },
              },
            ],
          },
        });
      },
    },
  };
}
