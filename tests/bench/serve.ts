/**
 * npm run bench:serve — the product server answering a pre-rendered course page, beside a bare node:http
 * server answering the same page from memory, under the same autocannon load.
 *
 * Builds the demo catalogue's site once and keeps it (.tmp/bench-serve/: SQLite catalogue, the full build's
 * output with its precompressed siblings; BENCH_REBUILD=1 builds again), compiles the current server sources
 * (scripts/build-server.mjs into .tmp/bench-serve/server) and starts it with plain node as production runs
 * it, plus a bare node:http server that holds the page's bytes (and its brotli sibling) in memory and answers
 * every request with them. Both are their own processes; the load (autocannon, this process) goes to one at
 * a time, alternating bare → product, product → bare over the rounds, so both see the same machine.
 *
 * Scenarios: `identity` (no Accept-Encoding: both send the 38 KB page) and `browser` (Chromium's
 * Accept-Encoding: both send the brotli bytes). Printed per scenario: req/s, p50 and p99 latency of each
 * server (the median over the rounds), the ratio product/bare, and the load average before and after.
 * Figures only, no assertions on time.
 *
 * Env: BENCH_CONNECTIONS=50  BENCH_SECONDS=10  BENCH_ROUNDS=2  BENCH_WARMUP_SECONDS=2  BENCH_SCENARIOS=identity,browser
 *      BENCH_LOG_LEVEL=error (the server's LOG_LEVEL; `info` writes a line per request)
 *      BENCH_PROFILE=<dir> (a --cpu-prof profile of the product server)  BENCH_REBUILD=1
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { openDb } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { todayAnchor } from '../../db/seed/generate.ts';
import { freePort, processCpuSeconds, stopServerProcess } from './server-process.ts';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'error';
const ROOT = process.cwd();
const WORK = join(ROOT, '.tmp', 'bench-serve');
const DB = join(WORK, 'catalogue.sqlite');
const DIST = join(WORK, 'dist');
const READY = join(WORK, 'site-ready');
const CHROMIUM_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

const load = () => loadavg().map((l) => l.toFixed(2)).join(', ');

async function prepareSite(): Promise<void> {
  if (existsSync(READY) && !process.env.BENCH_REBUILD) {
    console.log(`site: kept build in ${WORK} (BENCH_REBUILD=1 to build again)`);
    return;
  }
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  const db = openDb({ url: DB });
  await migrateToLatest(db);
  await loadCatalogue(db, { seed: 1, educators: 30, now: todayAnchor() });
  await db.destroy();
  // The full build (as `npm run build:site`): educator and course pages come from the publisher's renderer.
  console.log('site: building the demo catalogue (the full build, with precompressed siblings)…');
  const started = performance.now();
  execFileSync(process.execPath, ['scripts/build-site.mjs'], {
    env: { ...process.env, DATABASE_URL: DB, ASTRO_OUT_DIR: DIST, PUBLIC_HOST: 'localhost:4321', ASTRO_TELEMETRY_DISABLED: '1', NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit'],
    maxBuffer: 64 * 1024 * 1024,
  });
  console.log(`site: built in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  writeFileSync(READY, new Date().toISOString());
}

/** A marketplace course page of the build: /{educator}/{course}/ (the first educator's first course). */
function coursePage(): string {
  const client = join(DIST, 'client');
  const skip = new Set(['_astro', 'images', 'courses', 'search', 'minisite', 'embed', 'account', 'checkout']);
  for (const educator of readdirSync(client, { withFileTypes: true })) {
    if (!educator.isDirectory() || skip.has(educator.name)) continue;
    for (const entry of readdirSync(join(client, educator.name), { withFileTypes: true })) {
      if (!entry.isDirectory() || ['courses', 'reviews', 'enquiry', 'waitlist'].includes(entry.name)) continue;
      if (existsSync(join(client, educator.name, entry.name, 'index.html'))) return `/${educator.name}/${entry.name}/`;
    }
  }
  throw new Error('no course page in the build');
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer`);
}

/** The bare baseline: node:http answering every request with the page from memory (brotli when asked). */
const BARE_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const [file, port] = process.argv.slice(1);
const identity = fs.readFileSync(file);
const br = fs.readFileSync(file + '.br');
http.createServer((req, res) => {
  const ae = req.headers['accept-encoding'] || '';
  const body = ae.includes('br') ? br : identity;
  const headers = { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length };
  if (body === br) headers['content-encoding'] = 'br';
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1');
`;

interface Figures {
  reqPerSec: number;
  /** CPU time the server used per answer (user + system, from /proc): steadier than latency on a busy machine. */
  cpuUsPerReq: number | null;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function drive(url: string, headers: Record<string, string>, seconds: number, pid: number | undefined): Promise<Figures> {
  const cpuBefore = processCpuSeconds(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: seconds, headers });
  const cpuAfter = processCpuSeconds(pid);
  const answered = result.requests.total;
  return {
    reqPerSec: result.requests.average,
    cpuUsPerReq: cpuBefore === null || cpuAfter === null || !answered ? null : ((cpuAfter - cpuBefore) * 1e6) / answered,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

console.log(`bench:serve on ${process.platform} ${process.arch}, Node ${process.version}, ${new Date().toISOString()}`);
console.log(`load average before: ${load()}`);
await prepareSite();
const page = coursePage();
const pageFile = join(DIST, 'client', page, 'index.html');
console.log(`page: ${page} (${readFileSync(pageFile).length} bytes, brotli ${readFileSync(`${pageFile}.br`).length})`);

console.log('server: compiling the current sources (scripts/build-server.mjs)…');
const serverDir = join(WORK, 'server');
execFileSync(process.execPath, ['scripts/build-server.mjs', '--outdir', serverDir], { stdio: 'inherit' });

const productPort = await freePort();
const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.BENCH_PROFILE)] : [];
const product = spawn(process.execPath, [...profile, join(serverDir, 'server.mjs')], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    DATABASE_URL: DB,
    DIST_DIR: DIST,
    PORT: String(productPort),
    BIND_HOST: '127.0.0.1',
    PUBLIC_HOST: `localhost:${productPort}`,
    LOG_LEVEL,
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const barePort = await freePort();
const bare = spawn(process.execPath, ['-e', BARE_SERVER, pageFile, String(barePort)], { stdio: ['ignore', 'ignore', 'inherit'] });

try {
  const servers = { bare: `http://127.0.0.1:${barePort}${page}`, product: `http://127.0.0.1:${productPort}${page}` };
  await waitFor(servers.product, product);
  await waitFor(servers.bare, bare);
  // Both answer the same bytes.
  for (const [name, url] of Object.entries(servers)) {
    const res = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
    const body = Buffer.from(await res.arrayBuffer());
    if (!body.equals(readFileSync(pageFile))) throw new Error(`${name} server does not answer the page's bytes`);
  }
  console.log(`load: ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} rounds (after ${WARMUP_SECONDS} s warm-up each); server LOG_LEVEL=${LOG_LEVEL}`);

  const wanted = (process.env.BENCH_SCENARIOS ?? 'identity,browser').split(',').map((s) => s.trim());
  const scenarios = [
    { name: 'identity', headers: {} as Record<string, string> },
    { name: 'browser (br)', headers: { 'accept-encoding': CHROMIUM_ACCEPT_ENCODING } },
  ].filter((s) => wanted.includes(s.name.split(' ')[0]!));
  const summary: string[] = [];
  for (const scenario of scenarios) {
    const runs: Record<'bare' | 'product', Figures[]> = { bare: [], product: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Array<'bare' | 'product'> = round % 2 ? ['product', 'bare'] : ['bare', 'product'];
      for (const name of order) {
        const pid = (name === 'bare' ? bare : product).pid;
        if (WARMUP_SECONDS > 0) await drive(servers[name], scenario.headers, WARMUP_SECONDS, pid);
        const f = await drive(servers[name], scenario.headers, SECONDS, pid);
        runs[name].push(f);
        console.log(`  ${scenario.name} round ${round + 1} ${name.padEnd(7)}: ${f.reqPerSec.toFixed(0)} req/s, p50 ${f.p50} ms, p99 ${f.p99} ms, CPU ${f.cpuUsPerReq?.toFixed(0) ?? '?'} µs/req${f.errors || f.non2xx ? `, errors ${f.errors}, non-2xx ${f.non2xx}` : ''} (load ${load()})`);
      }
    }
    const m = (name: 'bare' | 'product', key: 'reqPerSec' | 'p50' | 'p99' | 'cpuUsPerReq') => median(runs[name].map((r) => r[key] ?? NaN));
    const ratio = m('product', 'reqPerSec') / m('bare', 'reqPerSec');
    const cpu = (name: 'bare' | 'product') => (Number.isNaN(m(name, 'cpuUsPerReq')) ? '?' : m(name, 'cpuUsPerReq').toFixed(0));
    summary.push(`| ${scenario.name} | ${m('bare', 'reqPerSec').toFixed(0)} | ${m('bare', 'p50')} | ${m('bare', 'p99')} | ${cpu('bare')} | ${m('product', 'reqPerSec').toFixed(0)} | ${m('product', 'p50')} | ${m('product', 'p99')} | ${cpu('product')} | ${(ratio * 100).toFixed(0)} % |`);
  }
  console.log('\nMedian over the rounds:');
  console.log('| Scenario | bare req/s | bare p50 (ms) | bare p99 (ms) | bare CPU (µs/req) | product req/s | product p50 (ms) | product p99 (ms) | product CPU (µs/req) | product / bare (req/s) |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const line of summary) console.log(line);
  console.log(`\nload average after: ${load()}`);
} finally {
  bare.kill();
  await stopServerProcess(product);
}
