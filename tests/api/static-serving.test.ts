/**
 * Serving the built site (api/http/static.ts): precompressed siblings chosen by Accept-Encoding, strong ETags
 * and 304s, HEAD, the minisite mapping, and files swapped on disk while the server runs (the publisher's
 * writeSiteFile, or a plain rename).
 */
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { writeSiteFile } from '../../src/lib/site-files.ts';
import { acceptedCodings, SIBLING_SKEW_MS, SMALL_FILE_BYTES } from '../../api/http/static.ts';

let server: TestServer;
let work: string;
let client: string;

/** A page of realistic size and repetition, different for each version. */
function page(version: string, repeat = 200): string {
  return `<!doctype html><html><head><title>${version}</title></head><body>${'<p class="course">Seasonal wreaths with dried flowers</p>'.repeat(repeat)}<footer>${version}</footer></body></html>`;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A request whose body comes back as sent (fetch would undo the content coding). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, method, headers: { host: 'localhost:4321', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

function decoded(res: Raw): string {
  const coding = res.headers['content-encoding'];
  const bytes = coding === 'br' ? brotliDecompressSync(res.body) : coding === 'gzip' ? gunzipSync(res.body) : res.body;
  return bytes.toString('utf8');
}

beforeAll(async () => {
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'static-serving-'));
  client = join(work, 'client');
  await writeSiteFile(join(client, 'floristry', 'wreaths', 'index.html'), page('v1'));
  await writeSiteFile(join(client, '_astro', 'island.abc123.js'), `export const x = ${JSON.stringify('a'.repeat(2000))};`);
  await writeSiteFile(join(client, 'minisite', 'clay-studio', 'index.html'), page('minisite home'));
  await writeSiteFile(join(client, 'images', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  await writeSiteFile(join(client, '404.html'), page('not found'));
  server = await startTestServer({ PUBLIC_HOST: 'localhost:4321', PUBLIC_PROTOCOL: 'http', DIST_DIR: work });
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

describe('Accept-Encoding', () => {
  it('prefers brotli, honours q-values and refusals, and falls back to identity', () => {
    expect(acceptedCodings(undefined)).toEqual(['identity']);
    expect(acceptedCodings('gzip, deflate, br, zstd')).toEqual(['br', 'gzip', 'identity']);
    expect(acceptedCodings('br;q=0.5, gzip')).toEqual(['gzip', 'br', 'identity']);
    expect(acceptedCodings('gzip;q=1.0, br;q=0')).toEqual(['gzip', 'identity']);
    expect(acceptedCodings('br;q=0.1, identity')).toEqual(['identity', 'br']);
    expect(acceptedCodings('x-gzip')).toEqual(['gzip', 'identity']);
    expect(acceptedCodings('*')).toEqual(['br', 'gzip', 'identity']);
    expect(acceptedCodings('*;q=0')).toEqual(['identity']);
    expect(acceptedCodings('identity;q=0, gzip;q=0')).toEqual(['identity']);
    expect(acceptedCodings('deflate')).toEqual(['identity']);
  });

  it('sends the brotli sibling to a browser, gzip when brotli is refused or worth less, the file itself otherwise', async () => {
    const cases: Array<[string | undefined, string | undefined]> = [
      ['gzip, deflate, br, zstd', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip', 'gzip'],
      ['br;q=0, gzip;q=0.1', 'gzip'],
      ['gzip;q=0, br;q=0', undefined],
      ['identity', undefined],
      [undefined, undefined],
    ];
    for (const [accept, coding] of cases) {
      const res = await raw('/floristry/wreaths/', accept === undefined ? {} : { 'accept-encoding': accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers['content-encoding'], accept).toBe(coding);
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
      expect(Number(res.headers['content-length']), accept).toBe(res.body.length);
      expect(decoded(res), accept).toBe(page('v1'));
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    const br = await raw('/floristry/wreaths/', { 'accept-encoding': 'br' });
    expect(br.body).toEqual(readFileSync(join(client, 'floristry', 'wreaths', 'index.html.br')));
  });

  it('compresses scripts too, and leaves images and tiny files alone (no Vary)', async () => {
    const js = await raw('/_astro/island.abc123.js', { 'accept-encoding': 'gzip, br' });
    expect(js.headers['content-encoding']).toBe('br');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const png = await raw('/images/logo.png', { 'accept-encoding': 'gzip, br' });
    expect(png.status).toBe(200);
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.headers.vary).toBeUndefined();
    expect(png.headers['content-type']).toBe('image/png');
  });

  it('answers static files with the security headers (the policy itself is api/http/security-headers.ts)', async () => {
    const res = await raw('/floristry/wreaths/');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // A page's own policy: its scripts by hash, and framed only by the site itself.
    expect(String(res.headers['content-security-policy'])).toMatch(/(^|;\s*)frame-ancestors 'self'(;|$)/);
    expect(res.headers['content-security-policy']).toContain('script-src');
    const notModified = await raw('/floristry/wreaths/', { 'if-none-match': res.headers.etag as string });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['x-content-type-options']).toBe('nosniff');
  });
});

describe('validators and 304', () => {
  it('gives each representation its own strong ETag and Last-Modified', async () => {
    const plain = await raw('/floristry/wreaths/');
    const br = await raw('/floristry/wreaths/', { 'accept-encoding': 'br' });
    const gz = await raw('/floristry/wreaths/', { 'accept-encoding': 'gzip' });
    const tags = [plain, br, gz].map((r) => r.headers.etag as string);
    for (const tag of tags) expect(tag).toMatch(/^"[^"]+"$/);
    expect(new Set(tags).size).toBe(3);
    const mtime = statSync(join(client, 'floristry', 'wreaths', 'index.html')).mtime;
    expect(plain.headers['last-modified']).toBe(mtime.toUTCString());
    expect(plain.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
  });

  it('answers 304 without a body to a matching If-None-Match, keeping ETag, Vary and Cache-Control', async () => {
    const first = await raw('/floristry/wreaths/', { 'accept-encoding': 'br' });
    const etag = first.headers.etag as string;
    for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
      const again = await raw('/floristry/wreaths/', { 'accept-encoding': 'br', 'if-none-match': inm });
      expect(again.status, inm).toBe(304);
      expect(again.body.length).toBe(0);
      expect(again.headers.etag).toBe(etag);
      expect(again.headers.vary).toBe('Accept-Encoding');
      expect(again.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    }
    // The brotli copy's tag does not validate the gzip copy.
    const gz = await raw('/floristry/wreaths/', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gz.status).toBe(200);
    expect(decoded(gz)).toBe(page('v1'));
  });

  it('uses If-Modified-Since only without If-None-Match', async () => {
    const mtime = statSync(join(client, 'floristry', 'wreaths', 'index.html')).mtime;
    const atMtime = new Date(Math.floor(mtime.getTime() / 1000) * 1000).toUTCString();
    const before = new Date(Math.floor(mtime.getTime() / 1000) * 1000 - 1000).toUTCString();
    expect((await raw('/floristry/wreaths/', { 'if-modified-since': atMtime })).status).toBe(304);
    expect((await raw('/floristry/wreaths/', { 'if-modified-since': before })).status).toBe(200);
    expect((await raw('/floristry/wreaths/', { 'if-modified-since': 'not a date' })).status).toBe(200);
    // A stale If-None-Match wins over a current If-Modified-Since.
    const res = await raw('/floristry/wreaths/', { 'if-none-match': '"stale"', 'if-modified-since': atMtime });
    expect(res.status).toBe(200);
    expect(decoded(res)).toBe(page('v1'));
  });

  it('answers HEAD with the GET headers and no body', async () => {
    const get = await raw('/floristry/wreaths/', { 'accept-encoding': 'br' });
    const head = await raw('/floristry/wreaths/', { 'accept-encoding': 'br' }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-type', 'content-length', 'content-encoding', 'etag', 'last-modified', 'vary', 'cache-control']) {
      expect(head.headers[name], name).toBe(get.headers[name]);
    }
    const notModified = await raw('/floristry/wreaths/', { 'accept-encoding': 'br', 'if-none-match': get.headers.etag as string }, 'HEAD');
    expect(notModified.status).toBe(304);
  });
});

describe('files swapped on disk', () => {
  it('sends a re-rendered page (writeSiteFile) with new ETags, and a 200 to the old ones', async () => {
    const path = join(client, 'courses', 'pottery', 'index.html');
    await writeSiteFile(path, page('before'));
    const old = await Promise.all(['br', 'gzip', 'identity'].map((a) => raw('/courses/pottery/', { 'accept-encoding': a })));
    // Same length on purpose: only the identity of the file, never its size, may reveal the change.
    await writeSiteFile(path, page('after!'));
    for (const [i, accept] of ['br', 'gzip', 'identity'].entries()) {
      const res = await raw('/courses/pottery/', { 'accept-encoding': accept, 'if-none-match': old[i]!.headers.etag as string });
      expect(res.status, accept).toBe(200);
      expect(res.headers.etag, accept).not.toBe(old[i]!.headers.etag);
      expect(decoded(res), accept).toBe(page('after!'));
    }
  });

  it('sees a file renamed over the old one even with the same size and modification second', async () => {
    const path = join(client, 'courses', 'rename', 'index.html');
    mkdirSync(join(client, 'courses', 'rename'), { recursive: true });
    writeFileSync(path, 'A'.repeat(100));
    const first = await raw('/courses/rename/');
    const temp = `${path}.new`;
    writeFileSync(temp, 'B'.repeat(100));
    const s = statSync(path);
    utimesSync(temp, s.atime, s.mtime);
    renameSync(temp, path);
    const second = await raw('/courses/rename/');
    expect(second.body.toString()).toBe('B'.repeat(100));
    expect(second.headers.etag).not.toBe(first.headers.etag);
  });

  it('picks up compressed siblings that appear after the page was first served', async () => {
    const path = join(client, 'courses', 'later', 'index.html');
    mkdirSync(join(client, 'courses', 'later'), { recursive: true });
    writeFileSync(path, page('plain'));
    const before = await raw('/courses/later/', { 'accept-encoding': 'br, gzip' });
    expect(before.headers['content-encoding']).toBeUndefined();
    await writeSiteFile(path, page('plain'));
    const after = await raw('/courses/later/', { 'accept-encoding': 'br, gzip' });
    expect(after.headers['content-encoding']).toBe('br');
    expect(decoded(after)).toBe(page('plain'));
  });

  it('does not send siblings left over from an older version of a file replaced by other means', async () => {
    const path = join(client, 'courses', 'stale', 'index.html');
    await writeSiteFile(path, page('old'));
    const old = new Date(Date.now() - SIBLING_SKEW_MS - 60_000);
    utimesSync(`${path}.br`, old, old);
    utimesSync(`${path}.gz`, old, old);
    writeFileSync(path, page('new'));
    const res = await raw('/courses/stale/', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(decoded(res)).toBe(page('new'));
  });

  it('streams a large file whole, with its ETag', async () => {
    const big = page('big', Math.ceil((SMALL_FILE_BYTES * 1.5) / 60));
    await writeSiteFile(join(client, 'courses', 'big', 'index.html'), big);
    for (const accept of ['identity', 'gzip']) {
      const res = await raw('/courses/big/', { 'accept-encoding': accept });
      expect(res.status).toBe(200);
      expect(decoded(res)).toBe(big);
      expect(res.headers.etag).toMatch(/^"/);
    }
    const plain = await raw('/courses/big/');
    expect(plain.body.length).toBeGreaterThan(SMALL_FILE_BYTES);
  });
});

describe('minisites and missing pages', () => {
  it('serves /minisite/{slug} at the root of the educator host, compressed, and never on the marketplace host', async () => {
    const res = await raw('/', { host: 'clay-studio.localhost:4321', 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(decoded(res)).toBe(page('minisite home'));
    const hidden = await raw('/minisite/clay-studio/');
    expect(hidden.status).toBe(404);
    expect(decoded(hidden)).toBe(page('not found'));
  });

  it('answers an unknown path with the 404 page, compressed when asked, never 304', async () => {
    const res = await raw('/no/such/page', { 'accept-encoding': 'gzip', 'if-none-match': '*' });
    expect(res.status).toBe(404);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(decoded(res)).toBe(page('not found'));
  });
});
