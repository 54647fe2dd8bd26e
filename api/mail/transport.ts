/**
 * Where the outbox worker hands messages over. One interface, two implementations:
 * - offline (default): the message is rendered by nodemailer (a real RFC 5322 message) and written to
 *   OUTBOX_DIR/{epoch}-{id}.eml — open it in any mail client; nothing leaves the machine;
 * - SMTP, when SMTP_URL is set (smtp://user:pass@host:587, smtps://…), with connection, greeting and socket
 *   timeouts (SMTP_TIMEOUT_SECONDS) so a server that accepts and never answers costs one attempt, not a worker.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Config } from '../config.ts';
import type { MailAttachment } from './index.ts';

export interface OutgoingMail {
  id: string;
  createdAt: number;
  from: string;
  to: string;
  replyTo: string | null;
  subject: string;
  text: string;
  html: string | null;
  tag: string | null;
  attachments: MailAttachment[];
}

export interface Delivery {
  /** The .eml file written (offline transport). */
  emlFile?: string | null;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<Delivery>;
}

/**
 * The Message-ID comes from the outbox id: a message tried again after an uncertain failure (the server took it
 * but the answer was lost) carries the same id, so receiving systems can tell it is the same message.
 */
export function messageIdOf(mail: Pick<OutgoingMail, 'id' | 'from'>): string {
  const domain = /@([^>\s]+)>?\s*$/.exec(mail.from)?.[1] ?? 'localhost';
  return `<${mail.id}@${domain}>`;
}

function nodemailerMessage(mail: OutgoingMail) {
  return {
    messageId: messageIdOf(mail),
    from: mail.from,
    to: mail.to,
    replyTo: mail.replyTo ?? undefined,
    subject: mail.subject,
    text: mail.text,
    html: mail.html ?? undefined,
    attachments: mail.attachments,
    headers: mail.tag ? { 'X-Marketplace-Tag': mail.tag } : undefined,
  };
}

/**
 * Writes each message as the .eml an SMTP server would receive, composed by nodemailer's MailComposer (the part of
 * sendMail that writes the message) without a transport around it: the stream transport's plugins, envelope and
 * stream pipeline cost two thirds as much CPU again as composing a booking's e-mails, on the event loop. Lines end
 * in LF, as the stream transport's `newline: 'unix'` wrote them; the message is 7-bit (nodemailer encodes every
 * other character), so latin1 carries its bytes through the replacement unchanged.
 */
export class OfflineTransport implements MailTransport {
  constructor(private readonly outboxDir: string) {}

  async send(mail: OutgoingMail): Promise<Delivery> {
    const message = await new MailComposer(nodemailerMessage(mail)).compile().build();
    if (!this.outboxDir) return { emlFile: null };
    const dir = resolve(this.outboxDir);
    await mkdir(dir, { recursive: true });
    const file = join(dir, `${mail.createdAt}-${mail.id}.eml`);
    await writeFile(file, Buffer.from(message.toString('latin1').replace(/\r\n/g, '\n'), 'latin1'));
    return { emlFile: file };
  }
}

export class SmtpTransport implements MailTransport {
  private readonly transport: Transporter;
  constructor(url: string, timeoutSeconds: number) {
    const ms = timeoutSeconds * 1000;
    this.transport = nodemailer.createTransport({
      url,
      connectionTimeout: ms,
      greetingTimeout: ms,
      // Inactivity while the message is on its way; a large attachment still flows.
      socketTimeout: 2 * ms,
      dnsTimeout: ms,
    } as Parameters<typeof nodemailer.createTransport>[0]);
  }

  async send(mail: OutgoingMail): Promise<Delivery> {
    await this.transport.sendMail(nodemailerMessage(mail));
    return {};
  }
}

const cache = new WeakMap<object, MailTransport>();

/** The configured transport for this configuration (one per process). */
export function transportFor(config: Config): MailTransport {
  let transport = cache.get(config);
  if (!transport) {
    transport = config.SMTP_URL ? new SmtpTransport(config.SMTP_URL, config.SMTP_TIMEOUT_SECONDS) : new OfflineTransport(config.OUTBOX_DIR);
    cache.set(config, transport);
  }
  return transport;
}

/** An SMTP reply that says the message will never be accepted (5xx): retrying cannot help. */
export function isPermanentFailure(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}
