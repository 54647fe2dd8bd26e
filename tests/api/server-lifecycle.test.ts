/**
 * The production server as `npm run serve` runs it: compiled by scripts/build-server.mjs and started with
 * plain node (no TypeScript loader). It logs one JSON line per request with an id it also sends back,
 * honours LOG_LEVEL, and on SIGTERM stops accepting, answers the request still in flight, then exits 0.
 * In-process, close() waits for a background worker's pass and closes the database.
 */
import { execFile, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../api/config.ts';
import { startServer } from '../../api/server.ts';
import { createLogger } from '../../api/log.ts';
import { freePort } from '../helpers/ports.ts';

const run = promisify(execFile);
let work: string;
let bundle: string;

interface Running {
  child: ChildProcessWithoutNullStreams;
  port: number;
  lines: () => Array<Record<string, unknown>>;
  exited: Promise<number | null>;
}

async function startCompiled(env: Record<string, string>): Promise<Running> {
  const port = await freePort();
  const { NODE_OPTIONS: _options, ...parentEnv } = process.env;
  const child = spawn(process.execPath, [bundle], {
    env: {
      ...parentEnv, NODE_ENV: 'production', PORT: String(port), BIND_HOST: '127.0.0.1', PUBLIC_HOST: `127.0.0.1:${port}`,
      DATABASE_URL: join(work, `db-${port}.sqlite`), DIST_DIR: join(work, 'no-site'), OUTBOX_DIR: join(work, 'outbox'), ...env,
    },
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
  const lines = () => out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { child, port, lines, exited };
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start:\n${out}`);
}

beforeAll(async () => {
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  // Inside the project: the bundle imports npm packages, resolved from node_modules above it.
  work = mkdtempSync(join(process.cwd(), '.tmp', 'lifecycle-'));
  await run(process.execPath, ['scripts/build-server.mjs', '--outdir', join(work, 'dist-server')]);
  bundle = join(work, 'dist-server', 'server.mjs');
}, 120_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the compiled server', () => {
  it('logs each request as one JSON line with the id it sends back', async () => {
    const server = await startCompiled({ LOG_LEVEL: 'info' });
    try {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/health?token=secret`);
      expect(res.status).toBe(200);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      const given = await fetch(`http://127.0.0.1:${server.port}/api/no-such-route`, { headers: { 'x-request-id': 'proxy-id-12345' } });
      expect(given.status).toBe(404);
      expect(given.headers.get('x-request-id')).toBe('proxy-id-12345');
      // The log line is written after the answer: wait until both are there.
      const requests = await vi.waitFor(() => {
        const logged = server.lines().filter((l) => l.msg === 'request');
        expect(logged).toContainEqual(expect.objectContaining({ level: 'info', requestId: id, method: 'GET', path: '/api/health', status: 200, durationMs: expect.any(Number) }));
        expect(logged).toContainEqual(expect.objectContaining({ requestId: 'proxy-id-12345', path: '/api/no-such-route', status: 404 }));
        return logged;
      });
      // The query string (which can carry tokens) is not logged.
      expect(JSON.stringify(requests)).not.toContain('secret');
      expect(server.lines()).toContainEqual(expect.objectContaining({ level: 'info', msg: `Marketplace ready on http://127.0.0.1:${server.port}`, port: server.port }));
    } finally {
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }
  });

  it('writes no request lines at LOG_LEVEL=error, and nothing at all when silent', async () => {
    for (const level of ['error', 'silent']) {
      const server = await startCompiled({ LOG_LEVEL: level });
      await (await fetch(`http://127.0.0.1:${server.port}/api/health`)).text();
      server.child.kill('SIGTERM');
      expect(await server.exited).toBe(0);
      expect(server.lines(), level).toEqual([]);
    }
  });

  it('on SIGTERM stops accepting, answers the request in flight, then exits 0', async () => {
    const server = await startCompiled({ LOG_LEVEL: 'info' });
    const body = JSON.stringify({ name: 'page_view', educator_ref: 'edu_none', properties: {}, context: 'marketplace' });
    // A request whose body is still arriving when the signal comes.
    const socket = connect(server.port, '127.0.0.1');
    await new Promise((ok) => socket.once('connect', ok));
    let answer = '';
    socket.on('data', (d) => (answer += d));
    const answered = new Promise((ok) => socket.once('end', ok));
    // "Expect: 100-continue" makes the server say when it has read the headers: from then on the request is in flight.
    socket.write(`POST /api/analytics/events HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: http://127.0.0.1:${server.port}\r\n`
      + `Expect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`);
    await vi.waitFor(() => expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n/));
    server.child.kill('SIGTERM');
    // Still running for the request in flight, but no longer accepting connections.
    await vi.waitFor(() => expect(server.lines().map((l) => l.msg)).toContain('stopping'));
    await vi.waitFor(() => expect(fetch(`http://127.0.0.1:${server.port}/api/health`)).rejects.toThrow());
    expect(server.child.exitCode).toBeNull();
    socket.write(body.slice(10));
    await answered;
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 \d{3} /);
    expect(answer.toLowerCase()).toContain('x-request-id:');
    expect(await server.exited).toBe(0);
    const msgs = server.lines().map((l) => l.msg);
    expect(msgs.indexOf('stopping')).toBeLessThan(msgs.lastIndexOf('request'));
    expect(server.lines().at(-1)).toMatchObject({ msg: 'stopped', drained: true });
  });
});

describe('startServer().close()', () => {
  it('waits for a background pass in progress, then closes the database', async () => {
    const port = await freePort();
    const config = loadConfig({
      PORT: String(port), BIND_HOST: '127.0.0.1', PUBLIC_HOST: `127.0.0.1:${port}`, DATABASE_URL: join(work, 'inproc.sqlite'),
      DIST_DIR: join(work, 'no-site'), LOG_LEVEL: 'silent',
    });
    const server = await startServer(config, { log: createLogger('silent') });
    let finished = 0;
    let started!: () => void;
    const passStarted = new Promise<void>((ok) => (started = ok));
    server.workers.start({
      name: 'slow', idleMs: 10_000,
      async run() {
        started();
        await new Promise((r) => setTimeout(r, 300));
        finished++;
        return 0;
      },
    });
    await passStarted;
    expect(await server.close()).toBe(true);
    expect(finished).toBe(1);
    // The database handle is closed: no more queries.
    await expect(server.sampleEducatorSlug()).rejects.toThrow();
  });
});
