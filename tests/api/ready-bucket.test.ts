/**
 * GET /api/ready with the pages in a bucket (PUBLISH_TARGET=s3://…, api/ops/readiness.ts): the bucket is one of the
 * checks, so a machine that cannot reach it is taken out of the load balancer with the bucket named; and the probe
 * answers within READY_BUCKET_TIMEOUT_MS even when the bucket's address accepts connections and never answers.
 * A local S3 server in this process stands in for the bucket. SQLite, or PostgreSQL when TEST_DATABASE_URL is set.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { startFakeS3, type FakeS3 } from '../helpers/fake-s3.ts';

interface ReadyBody { status: unknown; detail?: string; failed?: string[]; checks: Array<{ name: string; ok: boolean; detail: string }> }

let s3: FakeS3;
let server: TestServer;
let silent: Server | undefined;
let other: TestServer | undefined;
const sockets: Socket[] = [];

async function ready(s: TestServer): Promise<{ status: number; type: string; ms: number; body: ReadyBody }> {
  const started = performance.now();
  const res = await fetch(`${s.url}/api/ready`);
  const body = (await res.json()) as ReadyBody;
  return { status: res.status, type: res.headers.get('content-type') ?? '', ms: performance.now() - started, body };
}

beforeAll(async () => {
  s3 = await startFakeS3();
  server = await startTestServer({ LOG_LEVEL: 'silent', ...s3.env('live/') });
}, 60_000);

afterAll(async () => {
  await other?.close();
  await server?.close();
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((ok) => (silent ? silent.close(() => ok()) : ok()));
  await s3?.close().catch(() => undefined);
});

describe('GET /api/ready with the pages in a bucket', () => {
  it('checks the bucket: 200 while it answers, 503 naming it once the bucket server is stopped', async () => {
    const up = await ready(server);
    expect(up.status).toBe(200);
    expect(up.body.checks.map((c) => [c.name, c.ok])).toEqual([['database', true], ['migrations', true], ['outbox', true], ['publisher', true], ['bucket', true]]);

    await s3.close();
    const down = await ready(server);
    expect(down.status).toBe(503);
    expect(down.type).toContain('application/problem+json');
    expect(down.body.failed).toEqual(['bucket']);
    expect(down.body.detail).toMatch(/^bucket: the pages' bucket (does not answer|did not answer within)/);
    expect(down.body.checks.find((c) => c.name === 'database')?.ok).toBe(true);
  }, 30_000);

  it('gives up on a bucket that never answers after READY_BUCKET_TIMEOUT_MS, so the probe does not hang', async () => {
    // Accepts every connection and never writes a byte: without a timeout of its own the SDK would wait forever.
    silent = createServer((socket) => {
      sockets.push(socket);
      socket.on('error', () => undefined);
    });
    await new Promise<void>((ok) => silent!.listen(0, '127.0.0.1', ok));
    const port = (silent.address() as { port: number }).port;
    other = await startTestServer({ LOG_LEVEL: 'silent', ...s3.env('live/'), S3_ENDPOINT: `http://127.0.0.1:${port}`, READY_BUCKET_TIMEOUT_MS: '500' }, server.testDb);
    const r = await ready(other);
    expect(r.status).toBe(503);
    expect(r.body.failed).toEqual(['bucket']);
    expect(r.body.detail).toBe('bucket: the pages\' bucket did not answer within 500 ms');
    expect(sockets.length).toBeGreaterThan(0);
    // 0.5 s and the database checks; the margin is for a loaded two-core machine, far below a hung probe.
    expect(r.ms).toBeLessThan(5000);
  }, 30_000);

  it('READY_BUCKET_TIMEOUT_MS=0 leaves the bucket out (for a load balancer that does not fail open)', async () => {
    const unchecked = await startTestServer({ LOG_LEVEL: 'silent', ...s3.env('live/'), READY_BUCKET_TIMEOUT_MS: '0' }, server.testDb);
    try {
      // The bucket server was stopped above.
      const r = await ready(unchecked);
      expect(r.status).toBe(200);
      expect(r.body.checks.map((c) => c.name)).toEqual(['database', 'migrations', 'outbox', 'publisher']);
    } finally {
      await unchecked.close();
    }
  }, 30_000);
});
