/**
 * On-demand pages are Astro's: the server hands every path no static file answers to Astro's Node handler, which
 * calls `next()` when it has no route for it (a 404, or on a minisite host a path tried as the minisite's first).
 * Astro registers a 'close' listener on the request's socket when it reads a request and removes it only when it
 * writes an answer, so each request it passed on used to leave one behind for the life of the keep-alive
 * connection (a crawler or a poller asking for missing pages grew it without bound, with Node's
 * MaxListenersExceededWarning after ten). The handler here reads the request exactly as Astro's does and passes.
 */
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Server } from 'node:http';
import { createRequestFromNodeRequest } from 'astro/app/node';
import type { AstroHandler, Deps } from '../../api/deps.ts';
import { createApp } from '../../api/app.ts';
import { loadConfig } from '../../api/config.ts';
import { listen } from '../../api/http/node-server.ts';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { educatorRow } from './public-fixtures.ts';

let tdb: TestDb;
let server: Server;
let port = 0;
const listenersSeen: number[] = [];

/** Astro's handler for a path it has no route for: read the request, then pass it on. */
const missingPages: AstroHandler = (req, _res, next) => {
  createRequestFromNodeRequest(req);
  listenersSeen.push(req.socket.listenerCount('close'));
  next();
};

beforeAll(async () => {
  tdb = await createTestDb();
  await tdb.db.insertInto('educators').values(educatorRow({ id: 'edu_acme', slug: 'acme', name: 'Acme' })).execute();
  const config = loadConfig({ LOG_LEVEL: 'error', PUBLIC_HOST: 'localhost', DIST_DIR: 'dist' });
  const deps: Deps = { db: tdb.db, dialect: tdb.dialect, config, now: () => Math.floor(Date.now() / 1000) };
  server = await listen(createApp(deps, { astro: missingPages }), 0, '127.0.0.1');
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  await new Promise<void>((ok) => server.close(() => ok()));
  await tdb.close();
});

/** GETs over one keep-alive connection, one after another; the statuses. */
async function getAll(host: string, paths: string[]): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const statuses: number[] = [];
  try {
    for (const path of paths) {
      statuses.push(await new Promise<number>((ok, fail) => {
        const req = request({ host: '127.0.0.1', port, path, agent, headers: { host } }, (res) => {
          res.resume();
          res.on('end', () => ok(res.statusCode ?? 0));
        });
        req.on('error', fail);
        req.end();
      }));
    }
  } finally {
    agent.destroy();
  }
  return statuses;
}

describe('pages Astro has no route for', () => {
  it('answer 404 and leave no listener behind on a keep-alive connection (marketplace and minisite hosts)', async () => {
    const paths = Array.from({ length: 15 }, (_, i) => `/no-such-page-${i}`);
    listenersSeen.length = 0;
    expect(await getAll('localhost', paths)).toEqual(paths.map(() => 404));
    // One request at a time on one socket: at most this request's own listener besides Node's.
    expect(Math.max(...listenersSeen) - Math.min(...listenersSeen)).toBeLessThanOrEqual(1);

    listenersSeen.length = 0;
    // On a minisite host each path is tried twice (as the minisite's page, then as a host-independent one).
    expect(await getAll('acme.localhost', paths)).toEqual(paths.map(() => 404));
    expect(listenersSeen).toHaveLength(30);
    expect(Math.max(...listenersSeen) - Math.min(...listenersSeen)).toBeLessThanOrEqual(2);
  });
});
