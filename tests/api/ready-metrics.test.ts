/**
 * Readiness (GET /api/ready) and the Prometheus metrics (GET /api/metrics with METRICS_TOKEN, and METRICS_PORT),
 * docs/operations.md "Metrics and readiness" — on SQLite, or PostgreSQL when TEST_DATABASE_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { databaseUrlOf } from '../helpers/db.ts';
import { freePort } from '../helpers/ports.ts';
import { queueMail } from '../../api/mail/index.ts';
import { migrations } from '../../db/migrations/index.ts';
import { loadConfig } from '../../api/config.ts';
import { startServer } from '../../api/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { IDS, client, seedCheckoutCatalogue } from './checkout-fixtures.ts';
import { PLANS, join, seedPlans } from './membership-fixtures.ts';

const TOKEN = 'metrics-token-for-tests-0123456789';
let server: TestServer;

interface ProblemBody { type: string; title: string; status: number; detail: string; failed: string[]; checks: Array<{ name: string; ok: boolean }> }

async function ready(): Promise<{ status: number; type: string; body: ProblemBody & { status: unknown } }> {
  const res = await fetch(`${server.url}/api/ready`);
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: (await res.json()) as never };
}

async function scrape(token: string | null = TOKEN): Promise<Response> {
  return fetch(`${server.url}/api/metrics`, token === null ? {} : { headers: { authorization: `Bearer ${token}` } });
}

/** The value of one sample line of the Prometheus text (name with its labels exactly as written), or null. */
function sample(text: string, series: string): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : null;
}

beforeAll(async () => {
  server = await startTestServer({ LOG_LEVEL: 'silent', METRICS_TOKEN: TOKEN });
}, 60_000);
afterAll(async () => server?.close());

describe('GET /api/ready', () => {
  it('is 200 on a fresh server: database, migrations, outbox and publisher all fine', async () => {
    const r = await ready();
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ready');
    expect(r.body.checks.map((c) => [c.name, c.ok])).toEqual([['database', true], ['migrations', true], ['outbox', true], ['publisher', true]]);
  });

  it('is 503 naming the migrations while the code\u2019s latest migration has not run on the database', async () => {
    const latest = Object.keys(migrations).sort().at(-1)!;
    const row = await sql<{ name: string; timestamp: string }>`select name, timestamp from kysely_migration where name = ${latest}`.execute(server.db);
    expect(row.rows).toHaveLength(1);
    await sql`delete from kysely_migration where name = ${latest}`.execute(server.db);
    try {
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.type).toContain('application/problem+json');
      expect(r.body.failed).toEqual(['migrations']);
      expect(r.body.detail).toContain(latest);
    } finally {
      await sql`insert into kysely_migration (name, timestamp) values (${latest}, ${row.rows[0]!.timestamp})`.execute(server.db);
    }
    expect((await ready()).status).toBe(200);
  });

  it('is 503 naming the outbox while a due e-mail waits longer than READY_OUTBOX_MAX_WAIT_SECONDS, and the metrics show it', async () => {
    const now = Math.floor(Date.now() / 1000);
    const waited = server.config.READY_OUTBOX_MAX_WAIT_SECONDS + 120;
    const id = await queueMail(server.db, { to: 'stuck@example.com', subject: 'Stuck', text: 'Never sent' }, { now: now - waited });
    try {
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.body.failed).toEqual(['outbox']);
      expect(r.body.detail).toMatch(/^outbox: a due e-mail has waited \d+ s/);
      const text = await (await scrape()).text();
      expect(sample(text, 'marketplace_outbox_due_messages')).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'marketplace_outbox_oldest_due_age_seconds')).toBeGreaterThanOrEqual(waited);
    } finally {
      await server.db.deleteFrom('outbox_messages').where('id', '=', id).execute();
    }
    expect((await ready()).status).toBe(200);
  });

  it('is 503 naming the publisher while a page change waits longer than READY_PUBLISH_MAX_WAIT_SECONDS', async () => {
    const now = Math.floor(Date.now() / 1000);
    const waited = server.config.READY_PUBLISH_MAX_WAIT_SECONDS + 120;
    const inserted = await server.db.insertInto('page_changes').values({
      educator_id: null, educator_slug: null, course_id: null, category_id: null, created_at: now - waited, claimed_by: null, claimed_until: null,
    }).returning('id').executeTakeFirstOrThrow();
    try {
      const r = await ready();
      expect(r.status).toBe(503);
      expect(r.body.failed).toEqual(['publisher']);
      const text = await (await scrape()).text();
      expect(sample(text, 'marketplace_publish_lag_seconds')).toBeGreaterThanOrEqual(waited);
      expect(sample(text, 'marketplace_publish_pending_changes')).toBeGreaterThanOrEqual(1);
    } finally {
      await server.db.deleteFrom('page_changes').where('id', '=', inserted.id).execute();
    }
    expect((await ready()).status).toBe(200);
  });
});

describe('GET /api/metrics', () => {
  it('needs the bearer token: none or a wrong one is 401 problem-details', async () => {
    for (const token of [null, 'wrong-token-wrong-token-wrong-1234', `${TOKEN}x`]) {
      const res = await scrape(token);
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const body = await res.text();
      expect(body).not.toContain('marketplace_');
    }
  });

  it('shows a request under its route pattern (not its path), the outbox depth, the holds and the pool', async () => {
    const slug = `no-such-educator-${Date.now()}`;
    await fetch(`${server.url}/api/reviews/list/${slug}`);
    await fetch(`${server.url}/api/reviews/list/${slug}-2`);
    const now = Math.floor(Date.now() / 1000);
    const before = sample(await (await scrape()).text(), 'marketplace_outbox_messages{status="pending"}') ?? 0;
    const id = await queueMail(server.db, { to: 'later@example.com', subject: 'Later', text: 'Tomorrow' }, { now, sendAfter: now + 86_400 });
    try {
      const res = await scrape();
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      const counts = text.split('\n').filter((l) => l.startsWith('marketplace_http_request_duration_seconds_count{') && l.includes('route="/api/reviews/list/:educatorSlug"'));
      expect(counts.reduce((n, l) => n + Number(l.split(' ').at(-1)), 0)).toBe(2);
      expect(text).not.toContain(slug);
      expect(text).toMatch(/marketplace_http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/api\/reviews\/list\/:educatorSlug",status="\d{3}"\}/);
      expect(sample(text, 'marketplace_outbox_messages{status="pending"}')).toBe(before + 1);
      // Scheduled for tomorrow: in the outbox, not due.
      expect(sample(text, 'marketplace_outbox_due_messages')).toBe(0);
      expect(sample(text, 'marketplace_holds_active{kind="spaces"}')).toBe(0);
      expect(sample(text, 'marketplace_checkout_payments_refunded')).toBe(0);
      for (const status of ['open', 'completed', 'abandoned']) expect(sample(text, `marketplace_checkouts_last_hour{status="${status}"}`)).toBe(0);
      expect(sample(text, 'marketplace_membership_renewals_failed')).toBe(0);
      expect(sample(text, 'marketplace_metrics_database_up')).toBe(1);
      if (server.testDb.dialect === 'postgres') {
        expect(sample(text, 'marketplace_db_pool_connections{state="total"}')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'marketplace_db_pool_connections{state="waiting"}')).toBe(0);
      } else {
        expect(sample(text, 'marketplace_db_write_queue_waiting')).toBe(0);
      }
    } finally {
      await server.db.deleteFrom('outbox_messages').where('id', '=', id).execute();
    }
  });

  it('counts checkout outcomes: one completed (a membership joined), one abandoned, one still open', async () => {
    await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
    await seedPlans(server);
    await join(server, PLANS.monthly);
    const { cookie } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const init = await api.initialise('membership', { educatorId: IDS.educator });
      expect(init.status).toBe(201);
      ids.push((init.body as { _id: string })._id);
    }
    expect((await api.post(`/checkout/${ids[0]}/abandon`)).status).toBe(200);
    const text = await (await scrape()).text();
    expect(sample(text, 'marketplace_checkouts_last_hour{status="completed"}')).toBe(1);
    expect(sample(text, 'marketplace_checkouts_last_hour{status="abandoned"}')).toBe(1);
    expect(sample(text, 'marketplace_checkouts_last_hour{status="open"}')).toBe(1);
  });

  it('SQLite: shows the writes waiting for the single writer', async () => {
    if (server.testDb.dialect !== 'sqlite') return;
    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    let begun!: () => void;
    const started = new Promise<void>((ok) => (begun = ok));
    const tx = server.db.transaction().execute(async (t) => {
      await t.deleteFrom('page_changes').where('id', '=', -1).execute();
      begun();
      await held;
    });
    await started;
    const write = server.db.deleteFrom('page_changes').where('id', '=', -2).execute();
    try {
      expect(sample(await (await scrape()).text(), 'marketplace_db_write_queue_waiting')).toBe(1);
    } finally {
      release();
      await Promise.all([tx, write]);
    }
    expect(sample(await (await scrape()).text(), 'marketplace_db_write_queue_waiting')).toBe(0);
  });

  it('is not there without METRICS_TOKEN', async () => {
    const plain = await startTestServer({ LOG_LEVEL: 'silent' }, server.testDb);
    try {
      expect((await fetch(`${plain.url}/api/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});

describe('METRICS_PORT', () => {
  it('serves the same metrics on a port of their own, with no token, and nothing else there', async () => {
    const metricsPort = await freePort();
    const config = loadConfig({
      DATABASE_URL: databaseUrlOf(server.testDb), PORT: '0', BIND_HOST: '127.0.0.1', PUBLIC_HOST: 'localhost', LOG_LEVEL: 'silent',
      DIST_DIR: '/nonexistent-dist', METRICS_PORT: String(metricsPort),
    });
    // Starting migrates (nothing to do here), which lists the schemas: under the tests' schema lock.
    const started = await server.testDb.changeSchema(() => startServer(config, { backgroundJobs: false }));
    try {
      await fetch(`http://127.0.0.1:${started.port}/api/ready`);
      const res = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(text).toMatch(/marketplace_http_request_duration_seconds_count\{method="GET",route="\/api\/ready",status="200"\} 1/);
      // The same database's figures as the token-protected route of another process shows.
      const viaToken = await (await scrape()).text();
      for (const series of ['marketplace_outbox_due_messages', 'marketplace_checkouts_last_hour{status="completed"}']) {
        expect(sample(text, series), series).toBe(sample(viaToken, series));
      }
      expect((await fetch(`http://127.0.0.1:${metricsPort}/api/health`)).status).toBe(404);
      // The main port has no /api/metrics without a token set.
      expect((await fetch(`http://127.0.0.1:${started.port}/api/metrics`)).status).toBe(404);
    } finally {
      await started.close();
    }
  });
});
