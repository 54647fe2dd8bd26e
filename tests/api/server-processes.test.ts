/**
 * SERVER_PROCESSES=2 (api/server.ts): one port served by two processes of node:cluster. Connections are
 * shared out between both (which process holds each connection is read from /proc), the background jobs
 * start in one process only, and SIGTERM to the primary drains both and exits 0 with no process left.
 * Linux only (/proc); on SQLite and, with TEST_DATABASE_URL, PostgreSQL, where the primary makes the machine's one
 * search replica and both processes answer searches from it.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, databaseUrlOf, type TestDb } from '../helpers/db.ts';
import { freePort } from '../helpers/ports.ts';
import { serverProcesses } from '../../api/server.ts';
import { defaultSearchThreads } from '../../api/search/threads.ts';
import { queueMail } from '../../api/mail/index.ts';
import { insertPublicFixtures } from './public-fixtures.ts';

let testDb: TestDb;
let child: ChildProcessWithoutNullStreams;
let port: number;
let metricsPort: number;
let output = '';
/** The search replica's folder (PostgreSQL). */
const replicaDir = mkdtempSync(join(tmpdir(), 'server-processes-'));
const postgres = Boolean(process.env.TEST_DATABASE_URL);

beforeAll(async () => {
  testDb = await createTestDb();
  await insertPublicFixtures(testDb.db);
  port = await freePort();
  metricsPort = await freePort();
  const { NODE_OPTIONS: _ignored, ...parentEnv } = process.env;
  // The server runs the migrator as it starts, which must not meet another test file's schema change.
  await testDb.changeSchema(() => startChild(parentEnv));
}, 120_000);

async function startChild(parentEnv: NodeJS.ProcessEnv): Promise<void> {
  child = spawn(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
    env: {
      ...parentEnv, SERVER_PROCESSES: '2', DATABASE_URL: databaseUrlOf(testDb), PORT: String(port), BIND_HOST: '127.0.0.1',
      PUBLIC_HOST: `127.0.0.1:${port}`, LOG_LEVEL: 'info', DIST_DIR: 'no-built-site-for-this-test', METRICS_PORT: String(metricsPort),
      SEARCH_REPLICA_DIR: replicaDir, SEARCH_REPLICA_POLL_MS: '50',
    },
  });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  // Ready once both processes listen (the primary says so once).
  for (let i = 0; i < 900 && !output.includes('Marketplace ready'); i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  if (!output.includes('Marketplace ready')) throw new Error(`server did not start: ${output}`);
}

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await testDb?.close();
  rmSync(replicaDir, { recursive: true, force: true });
});

/** One figure of the primary's metrics (every process's together). */
async function metric(name: string): Promise<number> {
  const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
  return Number(new RegExp(`^${name} ([0-9.e+-]+)$`, 'm').exec(text)?.[1]);
}

/** The search replica's files in its folder. */
const replicaFiles = () => readdirSync(replicaDir).filter((name) => name.endsWith('.sqlite')).sort();

function childrenOf(pid: number): number[] {
  // A server that has exited says why in its output.
  if (!existsSync(`/proc/${pid}`)) throw new Error(`the server has exited (${child.exitCode ?? child.signalCode}): ${output.slice(-4000)}`);
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
}

/** Remote ports of the TCP connections a process holds on `localPort` (from its socket fds and /proc/net/tcp). */
function connectionsHeldBy(pid: number, localPort: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      /* closed meanwhile */
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!existsSync(table)) continue;
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || !inodes.has(cols[9])) continue;
      const local = Number.parseInt(cols[1].split(':')[1], 16);
      if (local === localPort) ports.add(Number.parseInt(cols[2].split(':')[1], 16));
    }
  }
  return ports;
}

/** `count` requests at once on an agent of `count` keep-alive sockets: the client ports used. */
async function requestsAtOnce(agent: Agent, count: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: count }, () =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: '/api/courses/search?query=pottery', agent }, (res) => {
          expect(res.statusCode).toBe(200);
          res.resume();
          res.on('end', () => resolve(req.socket?.localPort ?? 0));
        });
        req.on('error', reject);
        req.end();
      })),
  );
}

/** A GET on `agent`'s connections: the body. */
function fetchOn(agent: Agent, path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('SERVER_PROCESSES', () => {
  it('is 1 unless set, and refuses what is not a count from 1 to 64', () => {
    expect(serverProcesses({})).toBe(1);
    expect(serverProcesses({ SERVER_PROCESSES: '' })).toBe(1);
    expect(serverProcesses({ SERVER_PROCESSES: '1' })).toBe(1);
    expect(serverProcesses({ SERVER_PROCESSES: '64' })).toBe(64);
    for (const bad of ['0', '65', '1.5', 'two', '-1']) expect(() => serverProcesses({ SERVER_PROCESSES: bad }), bad).toThrow(/SERVER_PROCESSES/);
  });
});

describe('SERVER_PROCESSES=2', () => {
  it('serves one port from two processes, connections shared out between them', async () => {
    const workers = childrenOf(child.pid!);
    expect(workers).toHaveLength(2);
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    try {
      const clientPorts = new Set(await requestsAtOnce(agent, 6));
      expect(clientPorts.size).toBe(6);
      const held = workers.map((pid) => [...connectionsHeldBy(pid, port)].filter((p) => clientPorts.has(p)));
      // Every connection is held by one of the two, and each holds some.
      expect(held.flat().sort()).toEqual([...clientPorts].sort());
      for (const ports of held) expect(ports.length).toBeGreaterThan(0);
    } finally {
      agent.destroy();
    }
  });

  it('METRICS_PORT on the primary shows every process’s requests together, and the database’s figures once', async () => {
    const searches = async () => {
      const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      const lines = text.split('\n').filter((l) => l.startsWith('marketplace_http_request_duration_seconds_count{') && l.includes('route="/api/courses/search"'));
      return { text, count: lines.reduce((n, l) => n + Number(l.split(' ').at(-1)), 0) };
    };
    const now = Math.floor(Date.now() / 1000);
    await queueMail(testDb.db, { to: 'tomorrow@example.com', subject: 'Tomorrow', text: 'Later' }, { now, sendAfter: now + 86_400 });
    const before = await searches();
    const agent = new Agent({ keepAlive: true, maxSockets: 6 });
    try {
      await requestsAtOnce(agent, 6);
    } finally {
      agent.destroy();
    }
    const after = await searches();
    expect(after.count - before.count).toBe(6);
    // Both processes read the same database: its figures are not added up.
    expect(after.text).toMatch(/^marketplace_outbox_messages\{status="pending"\} 1$/m);
  });

  it('starts one search thread per core each process has to itself (on PostgreSQL, on its search replica, once made)', async () => {
    // Both processes' gauges added up by the primary; threads are counted from their start.
    const running = async () => Number(/^marketplace_search_threads (\d+)$/m.exec(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text())?.[1]);
    await expect.poll(running, { timeout: 20_000 }).toBe(2 * defaultSearchThreads(availableParallelism(), 2));
  });

  it('runs the background jobs in one process only', () => {
    expect(output.match(/background jobs started/g)).toHaveLength(1);
    expect(output.match(/Marketplace ready/g)).toHaveLength(1);
  });

  it('says in its ready line which Node serves it: the project’s own Node 24', () => {
    const node = /"node":"v(\d+)\.\d+\.\d+"/.exec(output);
    expect(node?.[1]).toBe('24');
  });

  it('replaces a process that dies, and keeps serving meanwhile', async () => {
    const [first, second] = childrenOf(child.pid!);
    process.kill(second, 'SIGKILL');
    let now: number[] = [];
    for (let i = 0; i < 300; i++) {
      now = childrenOf(child.pid!);
      if (now.length === 2 && !now.includes(second) && output.includes('server process exited')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(now).toHaveLength(2);
    expect(now).toContain(first);
    expect(now).not.toContain(second);
    expect(output).toContain('server process exited');
    const res = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(res.status).toBe(200);
    // The replacement listens too: both take connections again. Its start-up line comes before it listens, so
    // a round of connections may still all reach the first process: try a few rounds.
    for (let i = 0; i < 300 && output.match(/"msg":"payments"/g)!.length < 3; i++) await new Promise((r) => setTimeout(r, 100));
    let held: number[] = [];
    for (let round = 0; round < 20; round++) {
      const agent = new Agent({ keepAlive: true, maxSockets: 6 });
      try {
        const clientPorts = new Set(await requestsAtOnce(agent, 6));
        held = now.map((pid) => [...connectionsHeldBy(pid, port)].filter((p) => clientPorts.has(p)).length);
      } finally {
        agent.destroy();
      }
      if (held.every((n) => n > 0)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    for (const [i, pid] of now.entries()) expect(held[i], String(pid)).toBeGreaterThan(0);
  }, 60_000);

  // PostgreSQL only, on purpose: on SQLite each process searches the database's own file; there is no replica.
  it.skipIf(!postgres)('on PostgreSQL, makes one search replica for the machine, in the primary, and every process answers from it', async () => {
    // Both processes, the replacement of the one killed above included, have joined it: the gauges are added up.
    await expect.poll(() => metric('marketplace_search_replica_ready'), { timeout: 30_000 }).toBe(2);
    const files = replicaFiles();
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(new RegExp(`^search-replica-${child.pid}-[0-9a-f]{8}-1\\.sqlite$`));
    // Each look at the feed (every 50 ms) reaches both processes: 3 s on, the worse lag of the two is well under
    // that (were the looks not passed on, it would be 3 s at least).
    await new Promise((r) => setTimeout(r, 3000));
    expect(await metric('marketplace_search_replica_lag_seconds')).toBeLessThan(2);
    // A write is searchable through either process: six connections at once, shared out between the two.
    const course = await testDb.db.selectFrom('courses').select('id').where('published', '=', true).orderBy('id').executeTakeFirstOrThrow();
    await testDb.db.updateTable('courses').set({ name: 'Okapi origami' }).where('id', '=', course.id).execute();
    const found = async () => {
      const agent = new Agent({ keepAlive: true, maxSockets: 6 });
      try {
        const bodies = await Promise.all(Array.from({ length: 6 }, () => fetchOn(agent, '/api/courses/search?query=okapi')));
        return bodies.filter((body) => body.includes('Okapi origami')).length;
      } finally {
        agent.destroy();
      }
    };
    await expect.poll(found, { timeout: 10_000 }).toBe(6);
  }, 60_000);

  it('SIGTERM drains both processes and exits 0 with none left', async () => {
    const workers = childrenOf(child.pid!);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output.match(/"msg":"stopped","drained":true/g)).toHaveLength(2);
    for (const pid of workers) {
      // Gone, or at most a zombie waiting to be reaped.
      const state = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] : 'gone';
      expect(['gone', 'Z']).toContain(state);
    }
    // The primary removed the search replica's files as it stopped.
    expect(replicaFiles()).toEqual([]);
  }, 30_000);
});
