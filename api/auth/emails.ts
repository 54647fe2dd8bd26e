/** The e-mails accounts send (plain text plus simple HTML). */
import type { MailMessage } from '../mail/index.ts';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string);
}

function layout(paragraphs: string[], link?: { url: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = link
    ? `<p><a href="${escapeHtml(link.url)}" style="display:inline-block;padding:10px 18px;background:#1f5eff;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>
<p style="color:#5b6475;font-size:13px">Or paste this address into your browser: ${escapeHtml(link.url)}</p>`
    : '';
  return `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1c2333">${body}\n${button}</body></html>`;
}

function greeting(firstName: string | null | undefined): string {
  return firstName ? `Hello ${firstName},` : 'Hello,';
}

export function magicLinkEmail(to: string, firstName: string | null, url: string): MailMessage {
  const lines = [greeting(firstName), 'Use the link below to log in. It works once and expires in 30 minutes.'];
  const tail = 'If you did not ask to log in, you can ignore this e-mail.';
  return {
    to,
    tag: 'magic-link',
    subject: 'Your log-in link',
    text: `${lines.join('\n\n')}\n\n${url}\n\n${tail}\n`,
    html: layout([...lines, tail], { url, label: 'Log in' }),
  };
}

export function signupEmail(to: string, firstName: string | null, url: string): MailMessage {
  const lines = [greeting(firstName), 'Confirm your e-mail address to finish creating your account. The link works once and expires in 24 hours.'];
  const tail = 'If you did not sign up, you can ignore this e-mail and no account will be created.';
  return {
    to,
    tag: 'signup',
    subject: 'Confirm your e-mail address',
    text: `${lines.join('\n\n')}\n\n${url}\n\n${tail}\n`,
    html: layout([...lines, tail], { url, label: 'Confirm and log in' }),
  };
}

/** Sent instead of a sign-up confirmation when the address already has an account (the page says the same in both cases). */
export function accountExistsEmail(to: string, firstName: string | null, url: string): MailMessage {
  const lines = [
    greeting(firstName),
    'Someone (probably you) tried to sign up with this e-mail address, but you already have an account. Your password has not been changed.',
    'Use the link below to log in. It works once and expires in 30 minutes.',
  ];
  const tail = 'If this was not you, you can ignore this e-mail.';
  return {
    to,
    tag: 'magic-link',
    subject: 'You already have an account',
    text: `${lines.join('\n\n')}\n\n${url}\n\n${tail}\n`,
    html: layout([...lines, tail], { url, label: 'Log in' }),
  };
}

export function changeEmailEmail(to: string, firstName: string | null, url: string): MailMessage {
  const lines = [greeting(firstName), 'Confirm that you want to use this e-mail address for your account. The link expires in 24 hours.'];
  const tail = 'If you did not ask for this change, you can ignore this e-mail.';
  return {
    to,
    tag: 'change-email',
    subject: 'Confirm your new e-mail address',
    text: `${lines.join('\n\n')}\n\n${url}\n\n${tail}\n`,
    html: layout([...lines, tail], { url, label: 'Confirm e-mail address' }),
  };
}

/** Sent to an address that already has an account when someone asks to move another account onto it. */
export function changeEmailTakenEmail(to: string): MailMessage {
  const lines = [
    'Hello,',
    'Someone asked to use this e-mail address for another account, but it already belongs to your account, so nothing was changed.',
  ];
  return { to, tag: 'change-email', subject: 'Your e-mail address', text: `${lines.join('\n\n')}\n`, html: layout(lines) };
}
