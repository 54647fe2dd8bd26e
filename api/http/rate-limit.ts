/**
 * Rate limits kept in the database (fixed windows), so every process behind a load balancer counts the
 * same attempts. A rule is a bucket key, a limit and a window in seconds.
 *
 *   const attempt = await takeHits(db, rules, now)  // counts one attempt; 429 (Retry-After) when refused
 *   attempt.refuseIfLimited()                       // a failed attempt past a shared budget answers 429
 *   await refundHits(db, rules, now)                // gives the attempt back (e.g. a login that turned out right)
 *
 * Counting and checking are ONE step: each bucket is an UPSERT that increments its counter and returns the
 * new value, so parallel requests are serialised by the database row and exactly `limit` of them get
 * through, on SQLite and PostgreSQL alike. (Reading the count, then writing it, let 40 parallel login
 * attempts all pass a limit of 10.)
 *
 * A client's own buckets (per client, per address from this client) are counted first; a shared bucket (an
 * address from every client, an educator's codes) only once the client's own accepted the attempt, so one
 * client hammering its own limit cannot spend everyone's budget. A shared budget that guards a secret
 * (`openToCleanClients`: a password, a gift card's code) never locks its owner out: once someone else's guesses
 * have spent it, a client that has itself made at most CLEAN_CLIENT_ATTEMPTS attempts in the window is still
 * checked, and only its failure answers 429. Guessers are slowed to that many attempts per client; the owner
 * typing the right password, or the learner typing a real code, gets in.
 *
 * Login reserves an attempt before checking the password and refunds it when the password was right, so
 * only failures count and a user who types the right password is never slowed down. E-mail sending counts
 * every request.
 */
import { sql } from 'kysely';
import type { Db } from '../../db/client.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { sha256 } from '../shared/ids.ts';

export interface RateRule {
  bucket: string;
  limit: number;
  windowSeconds: number;
  /** Counts attempts from every client (taken only after the client's own buckets accepted the attempt). */
  shared?: boolean;
  /** A shared bucket over its limit still lets a clean client's attempt be checked (its failure answers 429). */
  openToCleanClients?: boolean;
}

/** How many attempts in a window a client may make and still count as clean (a typo or two, then the right one). */
export const CLEAN_CLIENT_ATTEMPTS = 3;

/** What takeHits let through. */
export interface TakenHits {
  /** Throws the 429 when the attempt passed only as a clean client's, past a shared budget: call it when it failed. */
  refuseIfLimited(): void;
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

function retryAfterOf(rule: RateRule, now: number): number {
  return windowStart(now, rule.windowSeconds) + rule.windowSeconds - now;
}

/**
 * Counts one attempt in the client's own buckets, then (only if they all accepted it) in the shared ones. Refused
 * with 429 when one of the client's own buckets is over its limit (the attempt stays counted there: hammering a
 * full bucket does not earn new attempts), or a shared one is, unless that bucket is open to clean clients and
 * this client is clean: then the attempt goes ahead and `refuseIfLimited()` answers its failure.
 */
export async function takeHits(db: Db, rules: RateRule[], now: number): Promise<TakenHits> {
  let retryAfter = 0;
  let ownMost = 0;
  for (const rule of rules.filter((r) => !r.shared)) {
    const hits = await takeHit(db, rule, now);
    ownMost = Math.max(ownMost, hits);
    if (hits > rule.limit) retryAfter = Math.max(retryAfter, retryAfterOf(rule, now));
  }
  if (Math.random() < 0.02) await db.deleteFrom('rate_limits').where('window_start', '<', now - 86_400).execute();
  if (retryAfter > 0) throw new ProblemError(authProblems.tooManyRequests(retryAfter));
  const clean = ownMost <= CLEAN_CLIENT_ATTEMPTS;
  let limitedAfter = 0;
  for (const rule of rules.filter((r) => r.shared)) {
    const hits = await takeHit(db, rule, now);
    if (hits <= rule.limit) continue;
    if (rule.openToCleanClients && clean) limitedAfter = Math.max(limitedAfter, retryAfterOf(rule, now));
    else retryAfter = Math.max(retryAfter, retryAfterOf(rule, now));
  }
  if (retryAfter > 0) throw new ProblemError(authProblems.tooManyRequests(retryAfter));
  return {
    refuseIfLimited() {
      if (limitedAfter > 0) throw new ProblemError(authProblems.tooManyRequests(limitedAfter));
    },
  };
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
