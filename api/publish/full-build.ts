/**
 * The site's full build (`npm run build:site`, part of `npm run build`, launched by scripts/build-site.mjs),
 * in two steps:
 *
 * 1. `astro build`: the bundle (server, islands, styles), the pages that do not come from one educator (home,
 *    categories, search, legal pages, 404, robots.txt, the marketplace sitemaps) and their compressed siblings.
 *    Educator pages have no pre-rendered route: they have one renderer, the publisher's (src/lib/paths.ts).
 * 2. Every educator's pages in the three contexts, with the minisites' sitemaps and robots.txt, rendered by the
 *    publisher's own code (api/publish/educator.ts) through the bundle just built, in one worker process per core
 *    (api/publish/build-worker.ts). The educators are handed out a chunk at a time, so memory follows the chunk,
 *    not the catalogue, and a publish of the same data later writes the same bytes.
 *
 * With PUBLISH_TARGET=s3://bucket/prefix the pages go to that bucket instead of dist/client (api/publish/bucket-build.ts:
 * what `astro build` wrote is uploaded around step 2 — the assets before, its HTML pages after — and what the
 * build did not write is removed from the bucket at the end). dist/ keeps the bundle every server runs.
 *
 *   node scripts/build-site.mjs [--workers N] [--chunk N]
 *
 * Reads DATABASE_URL, ASTRO_OUT_DIR (default dist) and the site's settings (PUBLIC_HOST…) from the environment;
 * PAGES_NOW pins the moment the pages are rendered for (otherwise the start of the build, the same for all).
 * Its last line is `build-site {json}` with the figures (tests/bench/build.ts reads it).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { openDb } from '../../db/client.ts';
import { loadPageTargetSettings } from '../config.ts';
import { pageBucketOf } from './page-bucket.ts';
import { bucketClock, pruneBucket, uploadBuiltFiles } from './bucket-build.ts';
import { createS3Target } from './s3-target.ts';
import type { FromBuildWorker, ToBuildWorker } from './build-worker.ts';
import { recordCategoryCarousels } from './carousels.ts';

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: String(Math.max(1, availableParallelism())) },
    chunk: { type: 'string', default: '16' },
  },
});
const workerCount = Number(values.workers);
const chunkSize = Number(values.chunk);
if (!Number.isInteger(workerCount) || workerCount < 1 || !Number.isInteger(chunkSize) || chunkSize < 1) {
  console.error('Usage: node scripts/build-site.mjs [--workers N] [--chunk N] (whole numbers of at least 1)');
  process.exit(2);
}

const root = process.cwd();
const distDir = resolve(root, process.env.ASTRO_OUT_DIR || 'dist');
const pinned = Number(process.env.PAGES_NOW);
const now = Number.isInteger(pinned) && pinned > 0 ? pinned : Math.floor(Date.now() / 1000);
const env = { ...process.env, PAGES_NOW: String(now), BUILD_DIST_DIR: distDir };
const seconds = (since: number) => (performance.now() - since) / 1000;
/**
 * Node 24's V8 sizes the young generation larger than Node 20's did, and each build process kept ~90 MB more for
 * the same live heap (a worker rendering the demo catalogue: 420 against 330 MB RSS; the whole 1,300-educator build's
 * tree 1,140 against 795 MB). The build's processes run one per core and memory is what bounds them, so they keep
 * Node 20's 16 MB semi-spaces; their CPU per page did not move measurably. The server keeps V8's default.
 */
const YOUNG_GENERATION = ['--max-semi-space-size=16'];

// 1. The bundle and the catalogue-wide pages.
const started = performance.now();
const astroExit: number = await new Promise((ok) => {
  const child = spawn(process.execPath, [...YOUNG_GENERATION, resolve(root, 'node_modules/astro/bin/astro.mjs'), 'build'], { env, cwd: root, stdio: 'inherit' });
  child.on('close', (code) => ok(code ?? 1));
});
if (astroExit !== 0) {
  console.error(`astro build failed (exit code ${astroExit})`);
  process.exit(astroExit);
}
const astroSeconds = seconds(started);

// The pages' bucket, when they go to one: the assets first, so that no page written from here on misses them.
let bucket: ReturnType<typeof pageBucketOf> = null;
try {
  bucket = pageBucketOf(loadPageTargetSettings(process.env));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
}
const bucketTarget = bucket ? createS3Target(bucket) : null;
const clientDir = resolve(distDir, 'client');
const written = new Set<string>();
let bucketStartedAt = new Date(0);
if (bucket && bucketTarget) {
  bucketStartedAt = await bucketClock(bucket);
  for (const name of await uploadBuiltFiles(clientDir, bucketTarget, (file) => !file.endsWith('.html'))) written.add(name);
  console.log(`[build-site] ${written.size} files of astro build (all but its pages) in ${bucket.description}`);
}

// 2. The educators' pages, a chunk at a time, in worker processes. First the category carousels as built, so the
// publisher can tell when a category's course pages need theirs again (the category pages themselves write nothing).
const db = openDb({ url: process.env.DATABASE_URL || undefined, poolSize: 1 });
await recordCategoryCarousels(db, now);
const ids = (await db.selectFrom('educators').select('id').orderBy('slug').orderBy('id').execute()).map((r) => r.id);
await db.destroy();
const chunks: string[][] = [];
for (let i = 0; i < ids.length; i += chunkSize) chunks.push(ids.slice(i, i + chunkSize));

const catalogueStarted = performance.now();
const totals = { educators: 0, files: 0, pages: 0, workerCpuSeconds: 0 };
// The launcher compiles the worker beside this file (BUILD_WORKER_FILE); from the sources, tsx runs it.
const workerFile = process.env.BUILD_WORKER_FILE || fileURLToPath(new URL('./build-worker.ts', import.meta.url));
// BUILD_WORKER_NODE_ARGS adds node flags to the workers, e.g. '--cpu-prof --cpu-prof-dir=.tmp/prof' to see where their time goes.
const workerExecArgv = [...(workerFile.endsWith('.ts') ? ['--import', 'tsx'] : []), ...YOUNG_GENERATION, ...(process.env.BUILD_WORKER_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? [])];
const workers: ChildProcess[] = [];
let nextChunk = 0;
let lastProgress = performance.now();

function stopAll(): void {
  for (const w of workers) if (w.exitCode === null && w.pid) process.kill(w.pid, 'SIGTERM');
}

await new Promise<void>((ok, fail) => {
  let running = Math.min(workerCount, chunks.length);
  if (running === 0) return ok();
  const failBuild = (why: string) => {
    stopAll();
    fail(new Error(why));
  };
  for (let n = 0; n < running; n++) {
    const worker = fork(workerFile, [], { env, execArgv: workerExecArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    workers.push(worker);
    let finished = false;
    const next = () => {
      const chunk = chunks[nextChunk++];
      const message: ToBuildWorker = chunk ? { type: 'chunk', ids: chunk } : { type: 'stop' };
      if (!chunk) finished = true;
      worker.send(message);
    };
    worker.on('message', (message: FromBuildWorker) => {
      if (message.type === 'failed') return failBuild(`a build worker failed: ${message.error}`);
      if (message.type === 'done') {
        totals.educators += message.report.educators;
        totals.files += message.report.files;
        totals.pages += message.report.pages;
        totals.workerCpuSeconds += message.cpuMs / 1000;
        for (const name of message.report.names ?? []) written.add(name);
        if (performance.now() - lastProgress > 10_000) {
          lastProgress = performance.now();
          const s = seconds(catalogueStarted);
          console.log(`[build-site] ${totals.educators}/${ids.length} educators, ${totals.pages} pages, ${(totals.pages / s).toFixed(0)} pages/s`);
        }
      }
      next();
    });
    worker.on('error', (error) => failBuild(`a build worker could not be reached: ${error.message}`));
    worker.on('exit', (code) => {
      if (!finished || code !== 0) return failBuild(`a build worker stopped (exit code ${code}) before its work was done`);
      if (--running === 0) ok();
    });
  }
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

const catalogueSeconds = seconds(catalogueStarted);

// The bucket: astro build's pages last, then what this build did not write, unless written since it started.
const bucketFigures = { uploaded: 0, removed: 0 };
if (bucket && bucketTarget) {
  for (const name of await uploadBuiltFiles(clientDir, bucketTarget, (file) => file.endsWith('.html'))) written.add(name);
  const removed = await pruneBucket(bucket, bucketTarget, written, bucketStartedAt);
  bucketFigures.uploaded = written.size;
  bucketFigures.removed = removed.length;
  console.log(`[build-site] ${bucket.description}: ${written.size} files published, ${removed.length} left over from before removed`);
}
console.log(`[build-site] astro build ${astroSeconds.toFixed(1)} s; ${totals.educators} educators: ${totals.pages} pages (${totals.files} files) in ${catalogueSeconds.toFixed(1)} s (${(totals.pages / Math.max(catalogueSeconds, 0.001)).toFixed(0)} pages/s, ${Math.min(workerCount, chunks.length)} workers, ${((totals.workerCpuSeconds * 1000) / Math.max(totals.files, 1)).toFixed(1)} ms of CPU per file)`);
console.log(`build-site ${JSON.stringify({ astroSeconds, catalogueSeconds, workers: Math.min(workerCount, chunks.length), ...totals, ...(bucket ? { bucket: bucketFigures } : {}) })}`);
