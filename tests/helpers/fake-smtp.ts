/**
 * A tiny SMTP server on a loopback port for outbox tests:
 * - 'accept': speaks just enough SMTP (greeting, EHLO, MAIL, RCPT, DATA, RSET, QUIT) and keeps each message;
 * - 'silent': accepts connections and never says a word (a mail server that hangs);
 * - `dataDelayMs` (with 'accept'): a slow server, answering each message's DATA only after that long.
 * `refusingSmtpUrl()` is an address where nothing listens (connections refused).
 */
import { createServer, type Socket } from 'node:net';
import { freePort } from './ports.ts';

export interface FakeSmtp {
  url: string;
  /** Raw DATA of every message received, in order. */
  messages: string[];
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

export async function startFakeSmtp(mode: 'accept' | 'silent', options: { dataDelayMs?: number } = {}): Promise<FakeSmtp> {
  const sockets = new Set<Socket>();
  const state: FakeSmtp = { url: '', messages: [], connections: 0, close: async () => {} };
  const server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    if (mode === 'silent') return;
    socket.write('220 fake.smtp ESMTP\r\n');
    let buffer = '';
    let data: string | null = null;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          state.messages.push(data + buffer.slice(0, end));
          buffer = buffer.slice(end + 5);
          data = null;
          if (options.dataDelayMs) setTimeout(() => socket.writable && socket.write('250 2.0.0 queued\r\n'), options.dataDelayMs);
          else socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-fake.smtp\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          data = '';
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') {
          socket.end('221 bye\r\n');
          return;
        } else socket.write('250 OK\r\n');
      }
    });
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', () => ok()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((ok) => {
    for (const s of sockets) s.destroy();
    server.close(() => ok());
  });
  return state;
}

/** An SMTP address where nothing listens. */
export async function refusingSmtpUrl(): Promise<string> {
  return `smtp://127.0.0.1:${await freePort()}`;
}

/** The value of a header in a raw message (first occurrence, unfolded). */
export function headerOf(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const match = new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(head);
  return match ? match[1].trim() : null;
}
