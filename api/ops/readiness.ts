/**
 * Readiness for a load balancer (GET /api/ready, docs/operations.md "Metrics and readiness"): this process can
 * serve only if its database answers, every migration this code knows has run on it (a process started against a
 * database another version has not yet migrated would fail on a missing column), and the background work the site
 * depends on is moving: no due e-mail and no page change has waited longer than its threshold for a worker to take
 * it. With pages in a bucket (PUBLISH_TARGET=s3://…), the bucket must answer too: this process serves every
 * pre-rendered page from it (api/http/bucket-static.ts) and its publisher writes there, so a machine that cannot
 * reach it would answer errors. Each failed check is named, so the answer says what to fix.
 */
import { sql } from 'kysely';
import type { Deps } from '../deps.ts';
import { migrations } from '../../db/migrations/index.ts';
import { outboxOldestDue, publishOldestWaiting } from './metrics.ts';
import { pageBucketOf, type PageBucket } from '../publish/page-bucket.ts';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { isReplicaSearch } from '../search/replica.ts';

export interface ReadinessCheck {
  name: 'database' | 'migrations' | 'outbox' | 'publisher' | 'bucket' | 'search';
  ok: boolean;
  detail: string;
}

/** kysely's migration table (db/migrate.ts keeps kysely's default name). */
const MIGRATION_TABLE = 'kysely_migration';

export async function checkReadiness(deps: Pick<Deps, 'db' | 'config' | 'now' | 'searchThreads'>): Promise<ReadinessCheck[]> {
  const { config } = deps;
  try {
    await sql`select 1`.execute(deps.db);
  } catch (error) {
    // Nothing else can be checked without the database.
    return [{ name: 'database', ok: false, detail: `the database does not answer: ${(error as Error).message}` }];
  }
  const checks: ReadinessCheck[] = [{ name: 'database', ok: true, detail: 'answers' }];
  const now = deps.now();
  const bucket = config.READY_BUCKET_TIMEOUT_MS > 0 ? pageBucketOf(config) : null;
  const [applied, outboxWait, publishWait, bucketCheck] = await Promise.all([
    sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(deps.db).then((r) => r.rows.map((row) => row.name), () => [] as string[]),
    config.READY_OUTBOX_MAX_WAIT_SECONDS > 0 ? outboxOldestDue(deps, now) : Promise.resolve(0),
    config.READY_PUBLISH_MAX_WAIT_SECONDS > 0 ? publishOldestWaiting(deps, now) : Promise.resolve(0),
    bucket ? checkBucket(bucket, config.READY_BUCKET_TIMEOUT_MS) : Promise.resolve(null),
  ]);
  const have = new Set(applied);
  const missing = Object.keys(migrations).filter((name) => !have.has(name)).sort();
  checks.push(missing.length === 0
    ? { name: 'migrations', ok: true, detail: `${Object.keys(migrations).length} applied` }
    : { name: 'migrations', ok: false, detail: `not applied: ${missing.join(', ')} (start one server of this version, or run npm run db:prepare, to migrate)` });
  if (config.READY_OUTBOX_MAX_WAIT_SECONDS > 0) {
    checks.push(outboxWait > config.READY_OUTBOX_MAX_WAIT_SECONDS
      ? { name: 'outbox', ok: false, detail: `a due e-mail has waited ${outboxWait} s for the outbox worker (over ${config.READY_OUTBOX_MAX_WAIT_SECONDS} s)` }
      : { name: 'outbox', ok: true, detail: `oldest due e-mail waited ${outboxWait} s` });
  }
  if (config.READY_PUBLISH_MAX_WAIT_SECONDS > 0) {
    checks.push(publishWait > config.READY_PUBLISH_MAX_WAIT_SECONDS
      ? { name: 'publisher', ok: false, detail: `a page change has waited ${publishWait} s for the publisher (over ${config.READY_PUBLISH_MAX_WAIT_SECONDS} s)` }
      : { name: 'publisher', ok: true, detail: `oldest waiting page change waited ${publishWait} s` });
  }
  if (bucketCheck) checks.push(bucketCheck);
  const replica = deps.searchThreads;
  if (isReplicaSearch(replica)) {
    // Never a failure: until its replica is made, or while it cannot read the feed, this process searches PostgreSQL.
    checks.push({
      name: 'search', ok: true,
      detail: replica.ready ? `answered by the search replica (read the feed ${replica.lagSeconds?.toFixed(1)} s ago)` : 'answered by PostgreSQL: the search replica is being made or is behind',
    });
  }
  return checks;
}

/**
 * Whether the pages' bucket answers: one listing of at most one key under the site's prefix (what the
 * application's policy allows, docs/static-hosting.md; an empty prefix answers too). Given up after `timeoutMs`
 * whatever the SDK's retries, so the probe answers in time even when the bucket's address swallows the request.
 */
export async function checkBucket(bucket: PageBucket, timeoutMs: number): Promise<ReadinessCheck> {
  const started = performance.now();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((ok) => {
    timer = setTimeout(() => ok('timeout'), timeoutMs);
  });
  try {
    const listed = bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.bucket, Prefix: bucket.prefix, MaxKeys: 1 }), { abortSignal: abort.signal });
    const outcome = await Promise.race([listed.then(() => 'ok' as const), timedOut]);
    if (outcome === 'timeout') {
      listed.catch(() => undefined);
      return { name: 'bucket', ok: false, detail: `the pages' bucket did not answer within ${timeoutMs} ms` };
    }
    return { name: 'bucket', ok: true, detail: `answers (${Math.round(performance.now() - started)} ms)` };
  } catch (error) {
    const e = error as { name?: string; message?: string };
    return { name: 'bucket', ok: false, detail: `the pages' bucket does not answer: ${e.message || e.name || String(error)}` };
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}
