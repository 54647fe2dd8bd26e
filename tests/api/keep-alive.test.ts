/**
 * An idle keep-alive connection stays open longer than the proxies in front of the server keep theirs (60 s by
 * default for an AWS load balancer and nginx's upstream pool): the server never closes one a client may be sending
 * on at that moment. Node's own default is 5 s (closed at 6 s, after its 1 s buffer); a connection idle past that
 * must still answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'node:http';
import { KEEP_ALIVE_MS } from '../../api/http/node-server.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let server: TestServer;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  agent.destroy();
  await server?.close();
});

function get(path: string): Promise<{ status: number; reusedSocket: boolean }> {
  return new Promise((ok, fail) => {
    const req = request(`${server.url}${path}`, { agent }, (res) => {
      res.resume();
      res.on('end', () => ok({ status: res.statusCode ?? 0, reusedSocket: req.reusedSocket }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('keep-alive connections', () => {
  it('waits longer than a load balancer for an idle connection (over 60 s)', () => {
    expect(KEEP_ALIVE_MS).toBeGreaterThan(60_000);
  });

  it('still answers on a connection idle past Node’s default (5 s and its 1 s buffer)', async () => {
    expect(await get('/api/health')).toEqual({ status: 200, reusedSocket: false });
    await new Promise((ok) => setTimeout(ok, 6_500));
    expect(await get('/api/health')).toEqual({ status: 200, reusedSocket: true });
  });
});
