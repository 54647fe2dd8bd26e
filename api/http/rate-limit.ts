/**
 * Rate limits kept in the database (fixed windows), so every process behind a load balancer
 * counts the same attempts. A rule is a bucket key, a limit and a window in seconds.
 *
 *   await assertUnderLimits(c, rules)   // 429 (with Retry-After) when any bucket is full
 *   await recordHits(c, rules)          // count one attempt in each bucket
 *
 * Login counts only failures (a user who types the right password is never slowed down);
 * e-mail sending counts every request.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../app.ts';
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

/** Throws a 429 problem when any rule's bucket already holds `limit` hits in the current window. */
export async function assertUnderLimits(db: Db, rules: RateRule[], now: number): Promise<void> {
  for (const rule of rules) {
    if ((await hitsIn(db, rule, now)) >= rule.limit) {
      const retryAfter = windowStart(now, rule.windowSeconds) + rule.windowSeconds - now;
      throw new ProblemError(authProblems.tooManyRequests(retryAfter));
    }
  }
}

/** Counts one hit in each rule's bucket (one upsert each). */
export async function recordHits(db: Db, rules: RateRule[], now: number): Promise<void> {
  for (const rule of rules) {
    await db
      .insertInto('rate_limits')
      .values({ bucket: rule.bucket, window_start: windowStart(now, rule.windowSeconds), hits: 1 })
      .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet((eb) => ({ hits: eb('rate_limits.hits', '+', 1) })))
      .execute();
  }
  if (Math.random() < 0.02) await db.deleteFrom('rate_limits').where('window_start', '<', now - 86_400).execute();
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
