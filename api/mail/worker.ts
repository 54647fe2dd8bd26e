/**
 * The outbox worker: claims due messages, hands them to the transport, records what happened.
 *
 * Claiming is one UPDATE … WHERE id IN (due ids) that stamps a lease (owner + until); on PostgreSQL the due ids
 * are picked `FOR UPDATE SKIP LOCKED`, so two processes claiming at once take different messages, and on SQLite
 * the single writer makes the UPDATE atomic. A pass claims one message at a time, right before sending it, and
 * renews that lease while the send is in flight: a lease taken for a whole batch would lapse behind a slow mail
 * server while its later messages waited their turn, and another worker would take and send them too. The outcome
 * is written only while the lease is still ours. So, while its worker lives, no message is held by two workers
 * and none is sent twice by them. A worker that dies mid-send leaves its message to be tried again once the lease
 * lapses: delivery is at-least-once, and the retry carries the same Message-ID (transport.ts).
 *
 * A failed attempt is retried after MAIL_RETRY_SECONDS × 2^(attempts − 1) (at most 6 hours); after
 * MAIL_MAX_ATTEMPTS, or at once on a permanent SMTP refusal (5xx), the message is dead.
 */
import { randomBytes } from 'node:crypto';
import type { Deps } from '../deps.ts';
import type { BackgroundJob } from '../background.ts';
import type { OutboxMessageRow } from '../../db/schema/accounts.ts';
import type { QueryCreator } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { writeWithoutWaitingForDisk, type Db } from '../../db/client.ts';
import { loggerFor } from '../log.ts';
import { decodeAttachments } from './index.ts';
import { isPermanentFailure, transportFor, type MailTransport } from './transport.ts';

export const MAIL_JOB = 'mail-outbox';
const MAX_BACKOFF_SECONDS = 6 * 3600;

export interface OutboxWorkerOptions {
  /** Messages claimed per pass. */
  batch?: number;
  /** Who claims (unique per worker; tests give two workers in one process different names). */
  owner?: string;
  /** How long a claim lasts (seconds): longer than the transport's worst case. */
  leaseSeconds?: number;
  /** The transport to use instead of the configured one. */
  transport?: MailTransport;
}

/** Delay before the next attempt after `attempts` failed ones. */
export function retryDelaySeconds(attempts: number, baseSeconds: number): number {
  return Math.min(baseSeconds * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_SECONDS);
}

/**
 * Takes up to `batch` due messages for `owner` until now + leaseSeconds, in one statement: on PostgreSQL one round
 * trip, where a transaction around a pick and a write took three (BEGIN with the pick, the write, COMMIT), for
 * every message sent. The ids are picked in a materialized CTE, evaluated once: PostgreSQL may run a
 * `LIMIT … FOR UPDATE SKIP LOCKED` subquery written inside `UPDATE … WHERE id IN (…)` once per row it looks at, and
 * so claim every due message instead of `batch`. The rows come back in the order they are to be sent.
 */
export async function claimDueMail(deps: Pick<Deps, 'db' | 'dialect'>, now: number, owner: string, batch: number, leaseSeconds: number): Promise<OutboxMessageRow[]> {
  const claimed = await claimDueMailQuery(deps.db, deps.dialect, { now, owner, batch, leaseSeconds }).execute();
  // RETURNING follows no order: the queue's (next attempt, then id, compared byte by byte as the index does).
  return claimed.sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** claimDueMail's statement. */
export function claimDueMailQuery(db: Db, dialect: Deps['dialect'], claim: { now: number; owner: string; batch: number; leaseSeconds: number }) {
  return db
    .with((cte) => cte('due').materialized(), (creator) => dueMailQuery(creator, dialect, claim.now, claim.batch))
    .updateTable('outbox_messages')
    .set({ lease_owner: claim.owner, lease_until: claim.now + claim.leaseSeconds })
    // Nothing tested again here: on SQLite the statement runs alone on the one writer; on PostgreSQL the CTE locks
    // the rows it picks, testing again as it now stands a row changed by another worker before the lock. A second
    // test would also cost the burst it is for: SQLite then reads every pending message through the due index
    // instead of the picked ones by their key.
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .returningAll();
}

/**
 * The ids of the first `batch` due messages that no live lease holds, in the order they are sent: next attempt, then
 * id (migration 0298's index holds that order, so the first is found without sorting what is due).
 */
export function dueMailQuery(db: QueryCreator<Database>, dialect: Deps['dialect'], now: number, batch: number) {
  const due = db
    .selectFrom('outbox_messages')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_at', '<=', now)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(batch);
  return dialect === 'postgres' ? due.forUpdate().skipLocked() : due;
}

/** One pass: claims due messages and sends them. Returns how many it tried. */
export async function sendDueMail(deps: Deps, options: OutboxWorkerOptions = {}): Promise<number> {
  const { config } = deps;
  const owner = options.owner ?? defaultOwner;
  const leaseSeconds = options.leaseSeconds ?? Math.ceil(config.SMTP_TIMEOUT_SECONDS * 4) + 60;
  const transport = options.transport ?? transportFor(config);
  const batch = options.batch ?? 20;
  let tried = 0;
  while (tried < batch) {
    const [row] = await claimDueMail(deps, deps.now(), owner, 1, leaseSeconds);
    if (!row) break;
    tried++;
    const attempts = Number(row.attempts) + 1;
    const from = row.from_address || config.MAIL_FROM;
    const renewal = renewWhileSending(deps, row.id, owner, leaseSeconds);
    try {
      const delivery = await transport.send({
        id: row.id, createdAt: Number(row.created_at), from, to: row.to_address, replyTo: row.reply_to,
        subject: row.subject, text: row.text_body, html: row.html_body, tag: row.tag, attachments: decodeAttachments(row.attachments),
      }).finally(() => renewal.stop());
      // Should a crash of PostgreSQL lose this mark, the message is sent again once its lease lapses, with the same
      // Message-ID. The next claim, which waits for the disk, makes the mark durable.
      await writeWithoutWaitingForDisk(deps.db, deps.dialect, deps.db
        .updateTable('outbox_messages')
        .set({
          status: 'sent', attempts, sent_at: deps.now(), from_address: from, last_error: null, lease_owner: null, lease_until: null,
          ...(delivery.emlFile !== undefined ? { eml_file: delivery.emlFile } : {}),
        })
        .where('id', '=', row.id)
        .where('lease_owner', '=', owner));
    } catch (error) {
      const dead = attempts >= config.MAIL_MAX_ATTEMPTS || isPermanentFailure(error);
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
      const next = deps.now() + retryDelaySeconds(attempts, config.MAIL_RETRY_SECONDS);
      loggerFor(config)[dead ? 'error' : 'info']('mail not sent', { id: row.id, tag: row.tag, attempts, dead, retryAt: dead ? null : next, error: message });
      await deps.db
        .updateTable('outbox_messages')
        .set({
          status: dead ? 'dead' : 'pending', attempts, last_error: message, lease_owner: null, lease_until: null,
          ...(dead ? {} : { next_attempt_at: next }),
        })
        .where('id', '=', row.id)
        .where('lease_owner', '=', owner)
        .execute();
    }
  }
  return tried;
}

/**
 * Keeps a claimed message's lease ahead of the clock while its send is in flight (a send may last several SMTP
 * timeouts), only while the lease is still ours. A renewal that fails is logged: the next one tries again.
 */
function renewWhileSending(deps: Pick<Deps, 'db' | 'now' | 'config'>, id: string, owner: string, leaseSeconds: number): { stop(): void } {
  const timer = setInterval(() => {
    deps.db.updateTable('outbox_messages').set({ lease_until: deps.now() + leaseSeconds })
      .where('id', '=', id).where('lease_owner', '=', owner).where('status', '=', 'pending')
      .execute()
      .catch((error: unknown) => loggerFor(deps.config).info('mail lease not renewed', { id, error: String(error) }));
  }, Math.max(250, (leaseSeconds * 1000) / 3));
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

const defaultOwner = `${process.pid}-${randomBytes(4).toString('hex')}`;

export function mailOutboxJob(deps: Deps, options: OutboxWorkerOptions = {}): BackgroundJob {
  return {
    name: MAIL_JOB,
    // A magic link is waited for: look often (one indexed query), drain a backlog at once.
    idleMs: 1000,
    busyMs: 0,
    maxBackoffMs: 30_000,
    run: () => sendDueMail(deps, options),
  };
}

/** Dead messages and those still being retried, newest first (`npm run mail -- list-failed`). */
export async function listFailedMail(deps: Pick<Deps, 'db'>, limit = 100) {
  return deps.db
    .selectFrom('outbox_messages')
    .select(['id', 'to_address', 'subject', 'tag', 'status', 'attempts', 'last_error', 'next_attempt_at', 'created_at'])
    .where((eb) => eb.or([eb('status', '=', 'dead'), eb.and([eb('status', '=', 'pending'), eb('attempts', '>', 0)])]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** Queues a dead (or already sent) message again, due now, with a fresh count of attempts. False when unknown. */
export async function resendMail(deps: Pick<Deps, 'db'>, id: string, now: number): Promise<boolean> {
  const result = await deps.db
    .updateTable('outbox_messages')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, last_error: null, lease_owner: null, lease_until: null })
    .where('id', '=', id)
    // A message a worker holds right now is left to it.
    .where((eb) => eb.or([eb('status', '!=', 'pending'), eb('attempts', '>', 0)]))
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
