/**
 * E-mail goes through a database outbox, never straight to SMTP inside a request:
 *
 *   await db.transaction().execute(async (tx) => {
 *     const token = await issueToken(tx, …);            // what causes the e-mail…
 *     await queueMail(tx, signupEmail(…), { now });      // …and the e-mail, committed together or not at all
 *   });
 *
 * The outbox worker (api/mail/worker.ts, one of api/jobs.ts) sends due messages through the transport
 * (api/mail/transport.ts: .eml files under OUTBOX_DIR by default, SMTP when SMTP_URL is set), retries with
 * backoff, and marks a message dead after the last try; `npm run mail -- list-failed | resend <id>` shows and
 * re-queues those. A request waits for one INSERT, whatever the mail server does.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { timeOrderedId } from '../shared/ids.ts';
import { writeLater } from '../../db/client.ts';

export interface MailAttachment {
  filename: string;
  content: Buffer | string;
  contentType?: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  replyTo?: string;
  /** Sender; MAIL_FROM when unset (filled in when the message is sent). */
  from?: string;
  /** What the message is for (magic-link, signup, booking-confirmation…); kept with the message. */
  tag?: string;
  attachments?: MailAttachment[];
}

export interface QueueOptions {
  /** The caller's clock (epoch seconds): deps.now(). */
  now: number;
  /** Not sent before this time (epoch seconds), e.g. a gift voucher delivered on a chosen date. */
  sendAfter?: number;
}

/** How attachments are kept in outbox_messages.attachments (JSON text): bytes as base64, so nothing is lost. */
export interface StoredAttachment {
  filename: string;
  contentType: string | null;
  base64: string;
}

export function encodeAttachments(attachments: MailAttachment[] | undefined): string | null {
  if (!attachments?.length) return null;
  const stored: StoredAttachment[] = attachments.map((a) => ({
    filename: a.filename,
    contentType: a.contentType ?? null,
    base64: (typeof a.content === 'string' ? Buffer.from(a.content, 'utf8') : a.content).toString('base64'),
  }));
  return JSON.stringify(stored);
}

export function decodeAttachments(json: string | null): MailAttachment[] {
  if (!json) return [];
  return (JSON.parse(json) as StoredAttachment[]).map((a) => ({
    filename: a.filename,
    content: Buffer.from(a.base64, 'base64'),
    ...(a.contentType ? { contentType: a.contentType } : {}),
  }));
}

/**
 * Time-ordered ids: the newest message sorts last, and messages queued in one transaction (a waitlist's, oldest
 * learner first) are sent in the order they were queued, since the outbox takes them by (due time, id).
 */
function messageId(): string {
  return timeOrderedId('msg');
}

/**
 * Queues one e-mail on `q` — pass the transaction of what causes the message, so both commit or neither does.
 * Returns the message id (outbox_messages.id).
 */
export async function queueMail(q: Kysely<Database>, message: MailMessage, options: QueueOptions): Promise<string> {
  const [id] = await queueMails(q, [message], options);
  return id;
}

/** Queues several e-mails on `q` in one statement (as queueMail); their ids, in order. */
export async function queueMails(q: Kysely<Database>, messages: MailMessage[], options: QueueOptions): Promise<string[]> {
  if (messages.length === 0) return [];
  const due = Math.max(options.now, options.sendAfter ?? 0);
  const rows = messages.map((message) => ({
    id: messageId(),
    from_address: message.from ?? '',
    ...messageColumns(message),
    eml_file: null,
    created_at: options.now,
    status: 'pending' as const,
    attempts: 0,
    send_after: options.sendAfter ?? 0,
    next_attempt_at: due,
    lease_owner: null,
    lease_until: null,
    last_error: null,
    sent_at: null,
  }));
  // In a transaction, sent with its next statement (writeLater): the COMMIT at the latest.
  await writeLater(q, q.insertInto('outbox_messages').values(rows));
  return rows.map((row) => row.id);
}

/** What a message stores of its content (the same for a new message and a rewritten one). */
function messageColumns(message: MailMessage) {
  return {
    to_address: message.to,
    subject: message.subject,
    text_body: message.text,
    html_body: message.html ?? null,
    tag: message.tag ?? null,
    reply_to: message.replyTo ?? null,
    attachments: encodeAttachments(message.attachments),
  };
}

/**
 * Rewrites a message still waiting for its first attempt (e.g. a cancellation e-mail once the refund's outcome is
 * known) and optionally makes it due at `sendAt`. False when it was already taken by a worker or sent.
 */
export async function replaceQueuedMail(q: Kysely<Database>, id: string, message: MailMessage, options: { now: number; sendAt?: number }): Promise<boolean> {
  const result = await q
    .updateTable('outbox_messages')
    .set({
      ...messageColumns(message),
      ...(options.sendAt !== undefined ? { next_attempt_at: options.sendAt } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('attempts', '=', 0)
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', options.now)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
