/**
 * npm run bench:build — how long the full build of the site (`npm run build:site`, scripts/build-site.mjs) takes
 * to pre-render the public pages, how much memory it holds, and how heavy the pages are.
 *
 *   npm run bench:build                             demo catalogue (30 educators), then a large one (1,300 educators)
 *   npm run bench:build -- --educators 1300,5000    large runs with 1,300 and 5,000 educators
 *   npm run bench:build -- --skip-large             the demo catalogue only
 *   npm run bench:build -- --skip-demo              the large runs only
 *   npm run bench:build -- --workers 1              the build with one worker process (default: one per core)
 *   --keep                                          keep the databases and build output (in .tmp/bench-build-…)
 *
 * For each catalogue: the deterministic demo catalogue (db/seed, seed 1) is generated into a fresh SQLite
 * file under .tmp/ (inside the project: the built server must resolve node_modules from its folder, so
 * the output never goes to the system temp folder), then the build runs with DATABASE_URL and ASTRO_OUT_DIR
 * pointing there. Printed: pages (HTML files), seconds (the whole build, and its two steps: `astro build` for
 * the bundle and catalogue-wide pages, then the educators' pages in worker processes), pages per second, peak
 * memory (the largest process's maximum RSS from `/usr/bin/time -v` when present, else the build process's
 * VmHWM; plus the sampled RSS of the whole process tree, workers included), and the gzipped HTML and JavaScript
 * weight of each page type (over at most 500 pages of each type, evenly spread). JavaScript
 * is what a page loads as modules: every /_astro/*.js it names (module scripts, island components and
 * renderers, inline imports) and their static imports, resolved in dist/client/_astro; each file
 * gzipped on its own, as served (zlib level 6). Figures only, no assertions.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { GZIP_LEVEL, jsClosure, scriptInfo, type ScriptInfo } from '../helpers/page-weight.ts';
import { openDb } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { todayAnchor } from '../../db/seed/generate.ts';

const { values } = parseArgs({
  options: {
    educators: { type: 'string', default: '1300' },
    workers: { type: 'string' },
    'skip-large': { type: 'boolean', default: false },
    'skip-demo': { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('Usage: npm run bench:build -- [--educators N[,N…]] [--skip-large] [--skip-demo] [--workers N] [--keep]');
  process.exit(0);
}
const LARGE = values.educators.split(',').map(Number);
if (LARGE.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(`--educators must be whole numbers of at least 1, got "${values.educators}"`);
  process.exit(2);
}
/** Pages of one type weighed at most (evenly spread): weighing every page of a 200,000-page site takes minutes. */
const WEIGH_PER_TYPE = 500;
const DEMO = 30;
const PAGE_GOAL = 50_000;
const ROOT = process.cwd();

// ---------------------------------------------------------------------------------------------
// Page types, from a file's path under dist/client (docs/routes.md).

const REPORTED = [
  'not found', 'site page', 'marketplace home', 'marketplace search', 'marketplace about', 'marketplace courses', 'marketplace reviews', 'marketplace enquiry', 'marketplace course',
  'marketplace category', 'minisite home', 'minisite course', 'embed courses', 'embed course',
] as const;
const EDUCATOR_PAGES = new Set(['courses', 'reviews', 'enquiry', 'waitlist', 'memberships']);
const MINISITE_PAGES = new Set(['about', 'reviews', 'enquiry', 'waitlist', 'memberships']);
/** The marketplace's own pages beside the educators' (src/pages/*.astro). */
const SITE_PAGES = new Set(['terms', 'privacy', 'pricing']);

function pageType(path: string): string {
  const parts = path.split(sep);
  parts.pop(); // index.html
  if (parts.length === 0) return path === 'index.html' ? 'marketplace home' : path === '404.html' ? 'not found' : 'other';
  const [a, b, c, d] = parts;
  if (a === 'courses' && b && !c) return 'marketplace category';
  if (a === 'search' && !b) return 'marketplace search';
  if (a === 'minisite' && b) {
    if (!c) return 'minisite home';
    if (!d) return MINISITE_PAGES.has(c) ? `minisite ${c}` : 'minisite course';
    return 'other';
  }
  if (a === 'embed' && b) {
    if (b === 'enquiry' && !c) return 'embed enquiry';
    if (!c) return 'embed courses';
    if (!d) return EDUCATOR_PAGES.has(c) ? `embed ${c}` : 'embed course';
    return 'other';
  }
  if (!b) return SITE_PAGES.has(a!) ? 'site page' : 'marketplace about';
  if (!c) return EDUCATOR_PAGES.has(b) ? `marketplace ${b}` : 'marketplace course';
  return 'other';
}

function htmlFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '_astro') walk(full);
      } else if (entry.name.endsWith('.html')) out.push(full);
    }
  };
  walk(dir);
  return out;
}

// ---------------------------------------------------------------------------------------------
// JavaScript a page loads.

/** One measure for the bench and the page-weight browser test (tests/helpers/page-weight.ts). */
function loader(clientDir: string, cache: Map<string, ScriptInfo>): (ref: string) => ScriptInfo {
  return (ref) => {
    let info = cache.get(ref);
    if (!info) {
      const file = join(clientDir, ref);
      info = scriptInfo(ref, existsSync(file) ? readFileSync(file) : null);
      cache.set(ref, info);
    }
    return info;
  };
}

interface TypeFigures {
  type: string;
  pages: number;
  htmlMedian: number;
  htmlMax: number;
  jsFiles: number;
  jsMedian: number;
  jsMax: number;
  /** Pages of the type that load React. */
  reactPages: number;
  sample: string;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

async function weigh(clientDir: string, files: string[]): Promise<{ byType: Map<string, TypeFigures>; counts: Map<string, number> }> {
  const groups = new Map<string, { html: number[]; js: number[]; jsFiles: number[]; react: number; sample: string }>();
  const counts = new Map<string, number>();
  const load = loader(clientDir, new Map());
  const typed = files.sort().map((file) => ({ file, rel: relative(clientDir, file), type: pageType(relative(clientDir, file)) }));
  for (const { type } of typed) counts.set(type, (counts.get(type) ?? 0) + 1);
  const seen = new Map<string, number>();
  for (const { file, rel, type } of typed) {
    if (!(REPORTED as readonly string[]).includes(type)) continue;
    // Every k-th page of the type, so at most WEIGH_PER_TYPE of them.
    const index = seen.get(type) ?? 0;
    seen.set(type, index + 1);
    if (index % Math.max(1, Math.ceil(counts.get(type)! / WEIGH_PER_TYPE)) !== 0) continue;
    const html = readFileSync(file);
    const closure = await jsClosure(html.toString('utf8'), load);
    const js = { files: closure.files.length, gzip: closure.gzip, react: closure.react };
    let g = groups.get(type);
    if (!g) groups.set(type, (g = { html: [], js: [], jsFiles: [], react: 0, sample: `/${rel.split(sep).join('/').replace(/index\.html$/, '')}` }));
    g.html.push(gzipSync(html, { level: GZIP_LEVEL }).length);
    g.js.push(js.gzip);
    g.jsFiles.push(js.files);
    if (js.react) g.react += 1;
  }
  const byType = new Map<string, TypeFigures>();
  for (const type of REPORTED) {
    const g = groups.get(type);
    if (!g) continue;
    byType.set(type, {
      type, pages: counts.get(type) ?? 0, htmlMedian: median(g.html), htmlMax: Math.max(...g.html),
      jsFiles: median(g.jsFiles), jsMedian: median(g.js), jsMax: Math.max(...g.js), reactPages: g.react, sample: g.sample,
    });
  }
  return { byType, counts };
}

// ---------------------------------------------------------------------------------------------
// The build, with its peak memory.

interface BuildResult {
  seconds: number;
  /** The two steps, as scripts/build-site.mjs reports them. */
  astroSeconds: number | null;
  catalogueSeconds: number | null;
  catalogueWorkers: number | null;
  cataloguePages: number | null;
  maxRssKb: number | null;
  treePeakKb: number;
  exitCode: number;
  tail: string;
}

function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

function treeRssKb(pid: number): number {
  let total = statusKb(pid, 'VmRSS');
  for (const child of childrenOf(pid)) total += treeRssKb(child);
  return total;
}

async function siteBuild(env: NodeJS.ProcessEnv, log: string): Promise<BuildResult> {
  const useTime = existsSync('/usr/bin/time');
  const args = [process.execPath, join(ROOT, 'scripts/build-site.mjs'), ...(values.workers ? ['--workers', values.workers] : [])];
  const started = performance.now();
  const child = useTime
    ? spawn('/usr/bin/time', ['-v', ...args], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(args[0]!, args.slice(1), { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let lastLine = performance.now();
  const keep = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    for (const line of text.split('\n')) if (line.startsWith('[build-site]')) console.log(`  ${log}: ${line}`);
    output += text;
    if (output.length > 4_000_000) output = output.slice(-2_000_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let treePeakKb = 0;
  let buildHwmKb = 0;
  const sampler = setInterval(() => {
    if (!child.pid) return;
    treePeakKb = Math.max(treePeakKb, treeRssKb(child.pid));
    const node = useTime ? childrenOf(child.pid)[0] : child.pid;
    if (node) buildHwmKb = Math.max(buildHwmKb, statusKb(node, 'VmHWM'));
    if (performance.now() - lastLine > 60_000) {
      lastLine = performance.now();
      console.log(`  ${log}: ${((performance.now() - started) / 1000).toFixed(0)} s, tree RSS ${(treeRssKb(child.pid) / 1024).toFixed(0)} MB`);
    }
  }, 250);
  const exitCode: number = await new Promise((ok) => child.on('close', (code) => ok(code ?? 1)));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  const timed = /Maximum resident set size \(kbytes\): (\d+)/.exec(output);
  const summary = /^build-site (\{.*\})$/m.exec(output);
  const steps = summary ? (JSON.parse(summary[1]!) as { astroSeconds: number; catalogueSeconds: number; workers: number; pages: number }) : null;
  return {
    seconds,
    astroSeconds: steps?.astroSeconds ?? null,
    catalogueSeconds: steps?.catalogueSeconds ?? null,
    catalogueWorkers: steps?.workers ?? null,
    cataloguePages: steps?.pages ?? null,
    maxRssKb: timed ? Number(timed[1]) : buildHwmKb || null,
    treePeakKb,
    exitCode,
    tail: output.split('\n').slice(-40).join('\n'),
  };
}

// ---------------------------------------------------------------------------------------------

interface RunFigures {
  label: string;
  educators: number;
  loadSeconds: number;
  rows: number;
  pages: number;
  build: BuildResult;
  byType: Map<string, TypeFigures>;
  counts: Map<string, number>;
}

const kb = (bytes: number) => (bytes / 1024).toFixed(1);
const mb = (kbytes: number) => (kbytes / 1024).toFixed(0);

async function run(label: string, educators: number): Promise<RunFigures> {
  mkdirSync(join(ROOT, '.tmp'), { recursive: true });
  const work = mkdtempSync(join(ROOT, '.tmp', `bench-build-${label}-`));
  const databaseUrl = join(work, 'catalogue.sqlite');
  const outDir = join(work, 'dist');
  console.log(`\n[${label}] ${educators} educators → ${relative(ROOT, work)}`);
  try {
    const db = openDb({ url: databaseUrl });
    const t = performance.now();
    await migrateToLatest(db);
    const loaded = await loadCatalogue(db, {
      seed: 1,
      educators,
      now: todayAnchor(),
      onProgress: (p) => {
        if (p.educators === p.total || p.educators % 500 === 0) console.log(`  catalogue: ${p.educators}/${p.total} educators, ${p.rows} rows`);
      },
    });
    await db.destroy();
    const loadSeconds = (performance.now() - t) / 1000;
    console.log(`  catalogue loaded in ${loadSeconds.toFixed(1)} s (${loaded.rows} rows); building…`);

    const build = await siteBuild({
      ...process.env,
      DATABASE_URL: databaseUrl,
      ASTRO_OUT_DIR: outDir,
      PUBLIC_HOST: process.env.PUBLIC_HOST || 'localhost:4321',
      ASTRO_TELEMETRY_DISABLED: '1',
      // A production bundle whatever the caller's environment (NODE_ENV=test would bundle React's development build).
      NODE_ENV: 'production',
    }, label);
    if (build.exitCode !== 0) {
      console.error(build.tail);
      throw new Error(`the build failed with exit code ${build.exitCode} after ${build.seconds.toFixed(0)} s`);
    }
    const clientDir = join(outDir, 'client');
    const files = htmlFiles(clientDir);
    const { byType, counts } = await weigh(clientDir, files);
    return { label, educators, loadSeconds, rows: loaded.rows, pages: files.length, build, byType, counts };
  } finally {
    if (!values.keep) rmSync(work, { recursive: true, force: true });
  }
}

function print(r: RunFigures): void {
  const pps = r.pages / r.build.seconds;
  console.log(`\n## ${r.label}: ${r.educators} educators`);
  console.log(`catalogue: ${r.rows} rows loaded in ${r.loadSeconds.toFixed(1)} s`);
  console.log(`pages (HTML files): ${r.pages}${r.label === 'large' && r.pages < PAGE_GOAL ? `  (below ${PAGE_GOAL}: raise --educators)` : ''}`);
  console.log(`build: ${r.build.seconds.toFixed(1)} s, ${pps.toFixed(1)} pages/s`);
  const b = r.build;
  if (b.astroSeconds !== null && b.catalogueSeconds !== null && b.cataloguePages !== null) {
    console.log(`  astro build (bundle, ${r.pages - b.cataloguePages} catalogue-wide and other pages): ${b.astroSeconds.toFixed(1)} s`);
    console.log(`  educators' pages: ${b.cataloguePages} in ${b.catalogueSeconds.toFixed(1)} s with ${b.catalogueWorkers} workers (${(b.cataloguePages / b.catalogueSeconds).toFixed(1)} pages/s)`);
  }
  console.log(`peak memory: build process max RSS ${r.build.maxRssKb === null ? 'n/a' : `${mb(r.build.maxRssKb)} MB`}, process tree (sampled) ${mb(r.build.treePeakKb)} MB`);
  const types = [...r.counts.entries()].sort((a, b) => b[1] - a[1]).map(([t, n]) => `${t} ${n}`).join(', ');
  console.log(`pages by type: ${types}`);
  console.log('');
  console.log('| Page type | Pages | HTML gzip median (KB) | HTML gzip max (KB) | JS files | JS gzip median (KB) | JS gzip max (KB) | Pages loading React (of those weighed) | Sample |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const type of REPORTED) {
    const f = r.byType.get(type);
    if (!f) {
      console.log(`| ${type} | 0 | | | | | | | |`);
      continue;
    }
    console.log(`| ${type} | ${f.pages} | ${kb(f.htmlMedian)} | ${kb(f.htmlMax)} | ${f.jsFiles} | ${kb(f.jsMedian)} | ${kb(f.jsMax)} | ${f.reactPages} | \`${f.sample}\` |`);
  }
}

const results: RunFigures[] = [];
console.log(`bench:build on ${process.platform} ${process.arch}, Node ${process.version}, ${new Date().toISOString()}`);
if (!values['skip-demo']) {
  results.push(await run('demo', DEMO));
  print(results[0]!);
}
if (!values['skip-large']) {
  for (const educators of LARGE) {
    const r = await run('large', educators);
    results.push(r);
    print(r);
  }
}
console.log('\nSummary');
console.log('| Catalogue | Educators | Pages | Build (s) | Pages/s | astro build (s) | Educators\' pages (s) | Their pages/s | Peak RSS largest process (MB) | Peak RSS tree (MB) |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const r of results) {
  const b = r.build;
  const steps = b.astroSeconds !== null && b.catalogueSeconds !== null && b.cataloguePages !== null
    ? `${b.astroSeconds.toFixed(1)} | ${b.catalogueSeconds.toFixed(1)} | ${(b.cataloguePages / b.catalogueSeconds).toFixed(1)}` : ' | | ';
  console.log(`| ${r.label} | ${r.educators} | ${r.pages} | ${b.seconds.toFixed(1)} | ${(r.pages / b.seconds).toFixed(1)} | ${steps} | ${b.maxRssKb === null ? 'n/a' : mb(b.maxRssKb)} | ${mb(b.treePeakKb)} |`);
}
