/**
 * The default mailer: renders the message with nodemailer (a real RFC 5322 message), writes it to
 * OUTBOX_DIR/{epoch}-{id}.eml and records it in `outbox_messages`. Nothing leaves the machine.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { newId } from '../auth/crypto.ts';
import type { MailDeps, Mailer, MailMessage, SentMail } from './index.ts';
import { loggerFor } from '../log.ts';

export class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });

  constructor(private readonly deps: MailDeps) {}

  async send(message: MailMessage): Promise<SentMail> {
    const { db, config } = this.deps;
    const createdAt = this.deps.now();
    // Time-ordered ids: the newest message sorts last.
    const id = `msg_${Date.now().toString(36).padStart(9, '0')}${newId('').slice(1)}`;
    const info = await this.transport.sendMail({
      from: config.MAIL_FROM,
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      attachments: message.attachments,
      headers: message.tag ? { 'X-Marketplace-Tag': message.tag } : undefined,
    });
    let emlFile: string | null = null;
    if (config.OUTBOX_DIR) {
      const dir = resolve(config.OUTBOX_DIR);
      try {
        await mkdir(dir, { recursive: true });
        emlFile = join(dir, `${createdAt}-${id}.eml`);
        await writeFile(emlFile, (info as unknown as { message: Buffer }).message);
      } catch (err) {
        // The table still has the message; a read-only disk must not lose a login link.
        loggerFor(config).error('outbox: could not write .eml file', { error: err });
        emlFile = null;
      }
    }
    await db
      .insertInto('outbox_messages')
      .values({
        id,
        to_address: message.to,
        from_address: config.MAIL_FROM,
        subject: message.subject,
        text_body: message.text,
        html_body: message.html ?? null,
        tag: message.tag ?? null,
        eml_file: emlFile,
        created_at: createdAt,
      })
      .execute();
    return { id };
  }
}
