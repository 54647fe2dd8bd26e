/**
 * Build step: the inline scripts the build makes, hashed for the pages' Content-Security-Policy and written to
 * `{outDir}/script-hashes.json`, which the server (api/http/security-headers.ts) reads for every HTML page it
 * sends — pre-rendered by `astro build`, rendered by the build workers or the publisher through this build, or
 * on demand. The hashes come from what the build itself produces, never from a page's bytes, so a script that
 * found its way into a page (an educator's text, a bug in a view) has no hash and does not run:
 *
 * - the browser bundle's chunks as Astro may inline them (`<script type="module">{code}</script>` for a small
 *   component script; every chunk is hashed, so whichever Astro inlines is covered);
 * - Astro's island runtime and its hydration directives (client:load, idle, visible, media, only);
 * - our own inline scripts (src/lib/inline-scripts.ts, rendered with `is:inline set:html`).
 *
 * No inline event handlers are allowed at all ('unsafe-hashes' is not used): the product writes none.
 */
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Plugin } from 'vite';
import astroIsland from 'astro/runtime/server/astro-island.prebuilt.js';
import idle from 'astro/runtime/client/idle.prebuilt.js';
import load from 'astro/runtime/client/load.prebuilt.js';
import media from 'astro/runtime/client/media.prebuilt.js';
import only from 'astro/runtime/client/only.prebuilt.js';
import visible from 'astro/runtime/client/visible.prebuilt.js';
import { INLINE_SCRIPTS } from '../lib/inline-scripts.ts';
import { SCRIPT_HASHES_FILE, type ScriptHashesFile } from '../lib/script-policy.ts';

export function scriptHashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/**
 * Astro's own inline runtime: the island element and the hydration directives, as Astro renders them (its
 * prebuilt texts). Another Astro version may move these modules: the build then fails here, by name.
 */
function astroRuntimeScripts(): string[] {
  const texts = { astroIsland, idle, load, media, only, visible };
  for (const [name, text] of Object.entries(texts)) {
    if (typeof text !== 'string' || text.length === 0) throw new Error(`script-hashes: Astro's ${name} runtime script is not a text; update src/integrations/script-hashes.ts for this Astro version`);
  }
  return Object.values(texts);
}

export default function scriptHashes(): AstroIntegration {
  const chunks = new Set<string>();
  let outDir: URL | undefined;
  // Runs before Astro's own plugin, which takes the chunks it inlines out of the bundle; the browser's build only
  // (one plugin serves every build environment in Vite 8: the browser's is 'client').
  const collect: Plugin = {
    name: 'marketplace:script-hashes',
    apply: 'build',
    enforce: 'pre',
    generateBundle(_options, bundle) {
      if (this.environment?.name !== 'client') return;
      for (const output of Object.values(bundle)) {
        if (output.type === 'chunk') chunks.add(scriptHashSource(output.code.trim()));
      }
    },
  };
  return {
    name: 'marketplace:script-hashes',
    hooks: {
      'astro:config:setup': ({ updateConfig }) => {
        updateConfig({ vite: { plugins: [collect] } });
      },
      'astro:config:done': ({ config }) => {
        outDir = config.outDir;
      },
      'astro:build:done': () => {
        if (!outDir) throw new Error('script-hashes: the build has no output folder');
        const scripts = new Set<string>(chunks);
        for (const text of astroRuntimeScripts()) scripts.add(scriptHashSource(text));
        for (const text of INLINE_SCRIPTS) scripts.add(scriptHashSource(text));
        const file: ScriptHashesFile = { scripts: [...scripts].sort() };
        writeFileSync(fileURLToPath(new URL(SCRIPT_HASHES_FILE, outDir)), `${JSON.stringify(file, null, 1)}\n`);
      },
    },
  };
}
