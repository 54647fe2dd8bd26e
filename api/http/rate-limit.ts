/**
 * Rate limits kept in the database (fixed windows), so every process behind a load balancer counts the
 * same attempts. A rule is a bucket key, a limit and a window in seconds.
 *
 *   await takeHits(db, rules, now)     // counts one attempt in each bucket; 429 (Retry-After) when one is over
 *   await refundHits(db, rules, now)   // gives the attempt back (e.g. a login that turned out right)
 *
 * Counting and checking are ONE step: each bucket is an UPSERT that increments its counter and returns the
 * new value, so parallel requests are serialised by the database row and exactly `limit` of them get
 * through, on SQLite and PostgreSQL alike. (Reading the count, then writing it, let 40 parallel login
 * attempts all pass a limit of 10.)
 *
 * Login reserves an attempt before checking the password and refunds it when the password was right, so
 * only failures count and a user who types the right password is never slowed down. Its buckets are per
 * address AND client IP (plus a per-IP and a looser per-address ceiling), so failures by someone
 * elsewhere do not lock the owner out. E-mail sending counts every request.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { sha256 } from '../auth/crypto.ts';

export interface RateRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
}

function windowStart(now: number, windowSeconds: number): number {
  return now - (now % windowSeconds);
}

export async function hitsIn(db: Db, rule: RateRule, now: number): Promise<number> {
  const row = await db
    .selectFrom('rate_limits')
    .select('hits')
    .where('bucket', '=', rule.bucket)
    .where('window_start', '=', windowStart(now, rule.windowSeconds))
    .executeTakeFirst();
  return row?.hits ?? 0;
}

/** Counts one hit in the rule's bucket and returns the bucket's new count (one atomic statement). */
export async function takeHit(db: Db, rule: RateRule, now: number): Promise<number> {
  const row = await db
    .insertInto('rate_limits')
    .values({ bucket: rule.bucket, window_start: windowStart(now, rule.windowSeconds), hits: 1 })
    .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet((eb) => ({ hits: eb('rate_limits.hits', '+', 1) })))
    .returning('hits')
    .executeTakeFirstOrThrow();
  return Number(row.hits);
}

/**
 * Counts one attempt in every rule's bucket; when any bucket is now over its limit, the attempt is refused
 * with 429 (and stays counted: hammering a full bucket does not earn new attempts).
 */
export async function takeHits(db: Db, rules: RateRule[], now: number): Promise<void> {
  let retryAfter = 0;
  for (const rule of rules) {
    const hits = await takeHit(db, rule, now);
    if (hits > rule.limit) retryAfter = Math.max(retryAfter, windowStart(now, rule.windowSeconds) + rule.windowSeconds - now);
  }
  if (Math.random() < 0.02) await db.deleteFrom('rate_limits').where('window_start', '<', now - 86_400).execute();
  if (retryAfter > 0) throw new ProblemError(authProblems.tooManyRequests(retryAfter));
}

/** Gives back an attempt counted by takeHits in the same window (never below zero). */
export async function refundHits(db: Db, rules: RateRule[], now: number): Promise<void> {
  for (const rule of rules) {
    await db
      .updateTable('rate_limits')
      .set({ hits: sql<number>`case when hits > 0 then hits - 1 else 0 end` })
      .where('bucket', '=', rule.bucket)
      .where('window_start', '=', windowStart(now, rule.windowSeconds))
      .execute();
  }
}

/** The client's IP address, by the one rule in api/http/client-ip.ts. */
export { clientIp } from './client-ip.ts';

/** Bucket names never hold an e-mail address in clear. */
export function emailBucket(prefix: string, email: string): string {
  return `${prefix}:email:${sha256(email.trim().toLowerCase()).slice(0, 32)}`;
}

export function ipBucket(prefix: string, ip: string): string {
  return `${prefix}:ip:${ip}`;
}

/** One address tried from one client: the bucket that slows a guesser without locking the owner out. */
export function emailIpBucket(prefix: string, email: string, ip: string): string {
  return `${prefix}:email-ip:${sha256(`${email.trim().toLowerCase()}\n${ip}`).slice(0, 32)}`;
}

/** Any other key (a voucher code, an educator, a course), hashed so buckets never hold it in clear. */
export function keyBucket(prefix: string, kind: string, key: string): string {
  return `${prefix}:${kind}:${sha256(key).slice(0, 32)}`;
}
