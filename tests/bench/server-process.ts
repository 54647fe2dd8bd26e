/**
 * Shared by the benchmarks: the real server as its own process (so the load generator and the server do not
 * share an event loop), a free loopback port, percentiles, CPU time from /proc, and the bare node:http server
 * printed beside the figures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../helpers/ports.ts';
import { onPgServer, pgDatabaseUrl } from '../helpers/pg-admin.ts';

export { freePort };

export interface ServerProcessOptions {
  databaseUrl: string;
  port: number;
  /** Extra environment (e.g. rate limits lifted for the load). */
  env?: Record<string, string>;
  /** Directory for `--cpu-prof` profiles of the server, if any. */
  profileDir?: string;
}

/**
 * The compiled server (`npm run build:server` → dist-server/server.mjs) when it exists, as production runs
 * it with plain node; otherwise (or with BENCH_SERVER_SOURCE=1) the TypeScript source through tsx.
 */
export function serverCommand(): { args: string[]; label: string } {
  const compiled = 'dist-server/server.mjs';
  if (existsSync(compiled) && !process.env.BENCH_SERVER_SOURCE) return { args: [compiled], label: `node ${compiled}` };
  return { args: ['--import', 'tsx', 'api/server.ts'], label: 'tsx api/server.ts' };
}

/** Starts the API (no built site) on the port and waits for /api/ready (and, on PostgreSQL, for its search replica). */
export async function startServerProcess(options: ServerProcessOptions): Promise<ChildProcess> {
  const { args } = serverCommand();
  const profile = options.profileDir ? ['--cpu-prof', '--cpu-prof-dir', options.profileDir] : [];
  // BENCH_NODE_FLAGS: V8 and Node flags for the server alone (e.g. --trace-deopt, which NODE_OPTIONS refuses).
  const flags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
  // BENCH_STATEMENT_PROFILE=<file>: each SQL text's calls (and time, SQLite) written there when the server exits.
  if (process.env.BENCH_STATEMENT_PROFILE) flags.push('--import', pathToFileURL(join(import.meta.dirname, 'statement-profile.mjs')).href);
  const child = spawn(process.execPath, [...flags, ...profile, ...args], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: options.databaseUrl,
      PORT: String(options.port),
      BIND_HOST: '127.0.0.1',
      PUBLIC_HOST: `127.0.0.1:${options.port}`,
      DIST_DIR: join(tmpdir(), 'no-dist-for-bench'),
      LOG_LEVEL: process.env.BENCH_SERVER_LOG ? 'info' : 'error',
      ...options.env,
    },
    // BENCH_SERVER_LOG=<file>: the server's request log (a JSON line per answer, with its duration) goes there.
    stdio: ['ignore', process.env.BENCH_SERVER_LOG ? openSync(process.env.BENCH_SERVER_LOG, 'w') : 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${options.port}/api/ready`);
      // On PostgreSQL, the load waits for the search replica to be made. Whether the rest is ready is not the bench's
      // business (a bench's outbox or publisher may lag): the answer only has to come from a started server.
      const body = (await res.json().catch(() => null)) as { checks?: Array<{ name: string; detail: string }> } | null;
      if (body?.checks && !body.checks.some((check) => check.name === 'search' && !check.detail.startsWith('answered by the search replica'))) return child;
    } catch {
      /* not up yet */
    }
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill();
  throw new Error('server did not start');
}

/** SIGTERM, then wait for the exit (the server drains and closes its database). */
export async function stopServerProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/**
 * CPU seconds a process has used (user + system, from /proc on Linux; null elsewhere). Under a shared,
 * busy machine the CPU a request costs is steadier than its wall-clock latency.
 */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name: state is field 3; utime and stime are fields 14 and 15.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
/** CPU seconds of a process and its children (the processes of SERVER_PROCESSES). */
export function treeCpuSeconds(pid: number | undefined): number | null {
  if (!pid) return null;
  const own = processCpuSeconds(pid);
  if (own === null) return null;
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    /* no /proc */
  }
  return children.reduce((sum, child) => sum + (treeCpuSeconds(child) ?? 0), own);
}

/** CPU seconds of the PostgreSQL backends serving a database (their process title names it), when /proc shows them. */
export function databaseCpuSeconds(database: string): number | null {
  let total = 0;
  let found = false;
  try {
    for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
      try {
        if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)) continue;
        total += processCpuSeconds(Number(pid)) ?? 0;
        found = true;
      } catch {
        /* gone meanwhile */
      }
    }
  } catch {
    return null;
  }
  return found ? total : null;
}

/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

/** The p-th percentile (nearest rank) of ascending values. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/**
 * Runs `use` against a bare node:http server in a process of its own, the reference the benches print beside their
 * figures: `prelude` is code run once at its start, `handler` the body of its request listener (`req`, `res`).
 */
export async function withBareServer<T>(prelude: string, handler: string, use: (port: number) => Promise<T>): Promise<T> {
  const port = await freePort();
  const source = `${prelude}\nrequire('node:http').createServer((req, res) => { ${handler} }).listen(${port}, '127.0.0.1', () => process.stdout.write('up'));`;
  const bare = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    await new Promise<void>((ok) => bare.stdout!.once('data', () => ok()));
    return await use(port);
  } finally {
    const exited = new Promise((r) => bare.once('exit', r));
    bare.kill();
    await exited;
  }
}

/**
 * A database of a bench's own on PostgreSQL (`adminUrl`: a connection that may create databases), created empty and
 * dropped by `drop` (with its connections): its URL and name.
 */
export async function scratchPostgresDatabase(adminUrl: string, prefix: string): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now()}`;
  await onPgServer(adminUrl, `create database ${name}`);
  return { url: pgDatabaseUrl(adminUrl, name), name, drop: () => onPgServer(adminUrl, `drop database if exists ${name} with (force)`) };
}
