/**
 * Requests a client library would never send, written byte by byte on a socket: a request with two Host
 * headers is ambiguous (a proxy may route on the other one) and is refused with 400; a body announced too
 * large with `Expect: 100-continue` is refused before the server invites the client to send it.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { NOW, TEST_ENV } from './public-fixtures.ts';
import { JSON_BODY_MAX_BYTES } from '../../api/http/body-limit.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(TEST_ENV);
  server.setNow(NOW);
});
afterAll(async () => server.close());

/**
 * Writes `head` on a fresh connection and collects what the server sends until it closes the connection or
 * `quietMs` pass without a byte.
 */
function exchange(head: string, quietMs = 1500): Promise<string> {
  return new Promise((ok, fail) => {
    const socket = connect(server.port, '127.0.0.1');
    let received = '';
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      ok(received);
    };
    const quiet = () => {
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    };
    socket.on('connect', () => {
      socket.write(head);
      quiet();
    });
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      quiet();
    });
    socket.on('end', done);
    socket.on('error', (error) => (received ? done() : fail(error)));
  });
}

const statusOf = (answer: string) => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);

describe('Host header', () => {
  it('answers one Host header normally', async () => {
    const answer = await exchange(`GET /api/health HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
    expect(statusOf(answer)).toBe(200);
  });

  it('refuses two Host headers with 400 problem+json, whichever comes first', async () => {
    for (const [first, second] of [[`127.0.0.1:${server.port}`, 'evil.example'], ['evil.example', `127.0.0.1:${server.port}`], ['a.example', 'a.example']]) {
      const answer = await exchange(`GET /api/health HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nConnection: close\r\n\r\n`);
      expect(statusOf(answer), answer.slice(0, 200)).toBe(400);
      expect(answer.toLowerCase()).toContain('content-type: application/problem+json');
    }
  });

  it('refuses two Host headers on a page too', async () => {
    const answer = await exchange(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nHost: other.example\r\nConnection: close\r\n\r\n`);
    expect(statusOf(answer)).toBe(400);
  });
});

describe('Expect: 100-continue', () => {
  it('refuses a body announced too large with 413, without first inviting it with 100 Continue', async () => {
    const length = JSON_BODY_MAX_BYTES + 1;
    const answer = await exchange(
      `POST /api/enquiries HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    expect(answer).not.toMatch(/^HTTP\/1\.1 100/);
    expect(statusOf(answer)).toBe(413);
    expect(answer.toLowerCase()).toContain('content-type: application/problem+json');
  });

  it('invites a body within the limit with 100 Continue, then answers it', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'wrong-password' });
    const answer = await new Promise<string>((ok, fail) => {
      const socket = connect(server.port, '127.0.0.1');
      let received = '';
      let sentBody = false;
      socket.on('connect', () => {
        socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n`);
      });
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
        if (!sentBody && received.startsWith('HTTP/1.1 100')) {
          sentBody = true;
          socket.write(body);
        }
      });
      socket.on('end', () => ok(received));
      socket.on('error', fail);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n/);
    expect(statusOf(answer.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))).toBe(401);
  });
});
