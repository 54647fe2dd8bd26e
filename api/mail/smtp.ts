/** The SMTP mailer (SMTP_URL set): nodemailer over SMTP, e.g. smtps://user:pass@smtp.example.com:465. */
import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from '../config.ts';
import type { Mailer, MailMessage, SentMail } from './index.ts';

export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(private readonly config: Config) {
    this.transport = nodemailer.createTransport(config.SMTP_URL);
  }

  async send(message: MailMessage): Promise<SentMail> {
    const info = await this.transport.sendMail({
      from: this.config.MAIL_FROM,
      to: message.to,
      replyTo: message.replyTo,
      subject: message.subject,
      text: message.text,
      html: message.html,
      attachments: message.attachments,
      headers: message.tag ? { 'X-Marketplace-Tag': message.tag } : undefined,
    });
    return { id: String(info.messageId ?? '') };
  }
}
