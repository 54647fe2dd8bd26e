/**
 * Sending e-mail. One interface, two implementations:
 * - outbox (default, offline): every message is stored in the `outbox_messages` table and written as an .eml
 *   file under OUTBOX_DIR — open it in any mail client; tests read the table;
 * - SMTP: when SMTP_URL is set (smtp://user:pass@host:587, smtps://…), through nodemailer.
 *
 *   const mailer = mailerFor(c.var.deps);
 *   await mailer.send({ to, subject, text, html, tag: 'booking-confirmation', attachments });
 */
import type { Db } from '../../db/client.ts';
import type { Config } from '../config.ts';
import { OutboxMailer } from './outbox.ts';
import { SmtpMailer } from './smtp.ts';

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
  /** What the message is for (magic-link, signup, booking-confirmation…); kept with outbox messages. */
  tag?: string;
  attachments?: MailAttachment[];
}

export interface SentMail {
  id: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

export interface MailDeps {
  db: Db;
  config: Config;
  now(): number;
}

const cache = new WeakMap<object, Mailer>();

/** The configured mailer for these dependencies (one per app instance). */
export function mailerFor(deps: MailDeps): Mailer {
  let mailer = cache.get(deps);
  if (!mailer) {
    mailer = deps.config.SMTP_URL ? new SmtpMailer(deps.config) : new OutboxMailer(deps);
    cache.set(deps, mailer);
  }
  return mailer;
}
