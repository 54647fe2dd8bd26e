/**
 * npm run check:static-host — runs deploy/nginx/site.conf in a throw-away nginx (its own prefix, a free port,
 * not a daemon) in front of a small site written with the build's writer (src/lib/site-files.ts: pages with
 * .br/.gz siblings) and a stub in place of the Node server, and checks what a browser would get: the
 * {slug}.{host} → /minisite/{slug} rewrite, precompressed answers by Accept-Encoding with Vary, ETag and
 * 304, HEAD, cache and security headers, 404s, and what goes to the Node server.
 *
 * Without nginx on the PATH it says so and exits 0 (nothing to check). Without ngx_brotli's static module
 * the brotli_static lines are dropped and the brotli checks are skipped, with a message.
 *
 *   npm run check:static-host            NGINX=/path/to/nginx to use another binary
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { writeSiteFile } from '../src/lib/site-files.ts';
import { baseSecurityHeaders } from '../api/http/security-headers.ts';
import { freePort } from '../tests/helpers/ports.ts';

const ROOT = process.cwd();
const HOST = 'marketplace.test';
const SLUG = 'clay-studio';
// The Node server's base policy for each context: the config must send the same.
const SELF_POLICY = baseSecurityHeaders({ PUBLIC_PROTOCOL: 'http' }, 'marketplace')['content-security-policy'];
const EMBED_POLICY = baseSecurityHeaders({ PUBLIC_PROTOCOL: 'http' }, 'embed')['content-security-policy'];

function findNginx(): string | null {
  const candidates = [process.env.NGINX, '/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx', '/opt/homebrew/bin/nginx'];
  for (const c of candidates) if (c && existsSync(c)) return c;
  try {
    return execFileSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

const nginx = findNginx();
if (!nginx) {
  console.log('check:static-host: nginx is not installed (not on the PATH, not in /usr/sbin): nothing checked.');
  console.log('Install it (Debian: apt-get install nginx-light libnginx-mod-http-brotli-static) to check deploy/nginx/site.conf.');
  process.exit(0);
}

const brotliModule = ['/usr/lib/nginx/modules/ngx_http_brotli_static_module.so', '/usr/local/nginx/modules/ngx_http_brotli_static_module.so'].find((p) => existsSync(p));
const brotliBuiltIn = /ngx_brotli|brotli/i.test(execFileSync('sh', ['-c', `${nginx} -V 2>&1`], { encoding: 'utf8' }));
const brotli = Boolean(brotliModule) || brotliBuiltIn;

mkdirSync(join(ROOT, '.tmp'), { recursive: true });
const work = mkdtempSync(join(ROOT, '.tmp', 'static-host-'));
const client = join(work, 'client');
const page = (name: string) => `<!doctype html><html><head><title>${name}</title></head><body>${`<p>${name}: seasonal wreaths with dried flowers.</p>`.repeat(80)}</body></html>`;
const script = `export const courses = ${JSON.stringify(Array.from({ length: 60 }, (_, i) => `course number ${i}`))};`;

let failures = 0;
let checks = 0;
function check(label: string, ok: boolean, detail = ''): void {
  checks++;
  if (ok) console.log(`  ok    ${label}`);
  else {
    failures++;
    console.log(`  FAIL  ${label}${detail ? ` — ${detail}` : ''}`);
  }
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

let port = 0;
function get(host: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        try {
          const plain = !body.length ? body : coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body;
          ok({ status: res.statusCode ?? 0, headers: res.headers, body, text: plain.toString('utf8') });
        } catch (error) {
          fail(error);
        }
      });
    });
    req.on('error', fail);
    req.end();
  });
}

const upstream = createServer((req, res) => {
  res.writeHead(req.url === '/missing' ? 404 : 200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ upstream: true, host: req.headers.host, url: req.url, forwardedHost: req.headers['x-forwarded-host'] }));
});

let child: ReturnType<typeof spawn> | null = null;
try {
  // The site: what the build leaves in dist/client, compressed siblings included.
  await writeSiteFile(join(client, 'index.html'), page('home'));
  await writeSiteFile(join(client, '404.html'), page('not found'));
  await writeSiteFile(join(client, SLUG, 'pottery', 'index.html'), page('marketplace course'));
  await writeSiteFile(join(client, 'embed', SLUG, 'pottery', 'index.html'), page('embed course'));
  await writeSiteFile(join(client, 'minisite', SLUG, 'index.html'), page('minisite home'));
  await writeSiteFile(join(client, 'minisite', SLUG, 'pottery', 'index.html'), page('minisite course'));
  await writeSiteFile(join(client, '_astro', 'island.AbC123.js'), script);
  await writeSiteFile(join(client, 'images', 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

  const upstreamPort = await freePort();
  await new Promise<void>((ok) => upstream.listen(upstreamPort, '127.0.0.1', () => ok()));
  port = await freePort();

  let site = readFileSync(join(ROOT, 'deploy/nginx/site.conf'), 'utf8')
    .replaceAll('/srv/course-marketplace/dist/client', client)
    .replaceAll('example\\.com', HOST.replaceAll('.', '\\.'))
    .replaceAll('example.com', HOST)
    .replaceAll('127.0.0.1:3000', `127.0.0.1:${upstreamPort}`)
    .replaceAll('listen 80;', `listen 127.0.0.1:${port};`);
  if (!brotli) site = site.replace(/^\s*brotli_static on;\n/gm, '');
  writeFileSync(join(work, 'site.conf'), site);
  writeFileSync(join(work, 'course-marketplace-proxy.conf'), readFileSync(join(ROOT, 'deploy/nginx/course-marketplace-proxy.conf')));
  const mime = existsSync('/etc/nginx/mime.types') ? 'include /etc/nginx/mime.types;' : 'types { text/html html; text/javascript js; image/png png; }';
  const temp = (name: string) => `${name}_temp_path ${join(work, `${name}-temp`)};`;
  writeFileSync(join(work, 'nginx.conf'), [
    ...(brotliModule ? [`load_module ${brotliModule};`] : []),
    'daemon off;',
    'master_process off;',
    `pid ${join(work, 'nginx.pid')};`,
    `error_log ${join(work, 'error.log')} warn;`,
    'events { worker_connections 64; }',
    'http {',
    `  ${mime}`,
    '  default_type application/octet-stream;',
    '  access_log off;',
    `  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}`,
    '  include site.conf;',
    '}',
  ].join('\n'));

  console.log(`check:static-host: ${nginx} with deploy/nginx/site.conf${brotli ? '' : ' (no brotli static module: brotli checks skipped)'}`);
  execFileSync(nginx, ['-t', '-q', '-p', work, '-c', join(work, 'nginx.conf')], { stdio: 'inherit' });
  child = spawn(nginx, ['-p', work, '-c', join(work, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
  // Never leave it running, whatever happens to this process.
  const started = child;
  process.once('exit', () => started.exitCode === null && started.kill('SIGKILL'));
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await get(HOST, '/');
      break;
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  const minisite = `${SLUG}.${HOST}`;
  const both = brotli ? 'br, gzip' : 'gzip';

  console.log('marketplace host');
  {
    const res = await get(HOST, `/${SLUG}/pottery/`, { 'accept-encoding': both });
    check('course page: 200, the page', res.status === 200 && res.text === page('marketplace course'), `${res.status}`);
    check(`course page: ${brotli ? 'brotli' : 'gzip'} sibling sent`, res.headers['content-encoding'] === (brotli ? 'br' : 'gzip'), `${res.headers['content-encoding']}`);
    check('course page: Vary: Accept-Encoding', /accept-encoding/i.test(String(res.headers.vary)), `${res.headers.vary}`);
    check('course page: revalidated (max-age=0, must-revalidate)', res.headers['cache-control'] === 'public, max-age=0, must-revalidate', `${res.headers['cache-control']}`);
    check('course page: security headers', res.headers['x-content-type-options'] === 'nosniff' && res.headers['content-security-policy'] === SELF_POLICY && res.headers['x-frame-options'] === 'SAMEORIGIN' && res.headers['referrer-policy'] === 'strict-origin-when-cross-origin', `${res.headers['content-security-policy']}`);
    const etag = String(res.headers.etag ?? '');
    check('course page: strong ETag', /^"[^"]+"$/.test(etag), etag);
    const again = await get(HOST, `/${SLUG}/pottery/`, { 'accept-encoding': both, 'if-none-match': etag });
    check('course page: If-None-Match → 304, no body', again.status === 304 && again.body.length === 0, `${again.status}`);
    const lm = String(res.headers['last-modified'] ?? '');
    const since = await get(HOST, `/${SLUG}/pottery/`, { 'accept-encoding': both, 'if-modified-since': lm });
    check('course page: If-Modified-Since → 304', since.status === 304, `${since.status}`);
    const gz = await get(HOST, `/${SLUG}/pottery/`, { 'accept-encoding': 'gzip' });
    check('course page: gzip when only gzip is accepted', gz.headers['content-encoding'] === 'gzip' && gz.text === page('marketplace course'));
    if (brotli) {
      check('course page: each encoding its own ETag', gz.headers.etag !== res.headers.etag, `${gz.headers.etag} / ${etag}`);
      const refused = await get(HOST, `/${SLUG}/pottery/`, { 'accept-encoding': 'gzip;q=0, br;q=0' });
      check('course page: identity when every coding is refused', refused.headers['content-encoding'] === undefined && refused.text === page('marketplace course'), `${refused.headers['content-encoding']}`);
    }
    const plain = await get(HOST, `/${SLUG}/pottery/`);
    check('course page: identity without Accept-Encoding', plain.headers['content-encoding'] === undefined && plain.text === page('marketplace course'));
    const noSlash = await get(HOST, `/${SLUG}/pottery`, { 'accept-encoding': both });
    check('course page without the trailing slash: the page', noSlash.status === 200 && noSlash.text === page('marketplace course'), `${noSlash.status}`);
    const head = await get(HOST, `/${SLUG}/pottery/`, { 'accept-encoding': both }, 'HEAD');
    check('HEAD: 200, the GET headers, no body', head.status === 200 && head.body.length === 0 && head.headers.etag === res.headers.etag && head.headers['content-length'] === res.headers['content-length']);
    const js = await get(HOST, '/_astro/island.AbC123.js', { 'accept-encoding': both });
    check('fingerprinted script: compressed, cached for a year', Boolean(js.headers['content-encoding']) && js.headers['cache-control'] === 'public, max-age=31536000, immutable' && js.text === script, `${js.headers['cache-control']}`);
    const png = await get(HOST, '/images/logo.png', { 'accept-encoding': both });
    check('image: as it is', png.status === 200 && png.headers['content-encoding'] === undefined && png.headers['content-type'] === 'image/png');
    const embed = await get(HOST, `/embed/${SLUG}/pottery/`, { 'accept-encoding': both });
    check('embed page: may be framed by any site', embed.status === 200 && embed.headers['content-security-policy'] === EMBED_POLICY && embed.headers['x-frame-options'] === undefined, `${embed.headers['content-security-policy']}`);
    const hidden = await get(HOST, `/minisite/${SLUG}/`, { 'accept-encoding': both });
    check('/minisite/… on the marketplace host: 404 with the 404 page', hidden.status === 404 && hidden.text === page('not found'), `${hidden.status}`);
    const api = await get(HOST, '/api/health');
    const apiBody = JSON.parse(api.text || '{}');
    check('/api/…: the Node server, with the original Host', api.status === 200 && apiBody.upstream === true && apiBody.host === HOST, api.text);
    const onDemand = await get(HOST, '/checkout/abc?x=1');
    check('a path with no file (on-demand page): the Node server, query kept', JSON.parse(onDemand.text || '{}').url === '/checkout/abc?x=1', onDemand.text);
    const missing = await get(HOST, '/missing');
    check("the Node server's 404 passes through", missing.status === 404 && JSON.parse(missing.text || '{}').upstream === true, `${missing.status}`);
    const enquiry = await get(HOST, '/embed/enquiry?educator=nobody');
    check('embed enquiry shell: the Node server decides', JSON.parse(enquiry.text || '{}').upstream === true, enquiry.text);
  }

  console.log(`minisite host (${minisite})`);
  {
    const home = await get(minisite, '/', { 'accept-encoding': both });
    check('/ → /minisite/{slug}/', home.status === 200 && home.text === page('minisite home'), `${home.status}`);
    check('minisite home: compressed, Vary, ETag, security headers', Boolean(home.headers['content-encoding']) && /accept-encoding/i.test(String(home.headers.vary)) && /^"/.test(String(home.headers.etag)) && home.headers['content-security-policy'] === SELF_POLICY);
    const course = await get(minisite, '/pottery/', { 'accept-encoding': both });
    check('/pottery/ → /minisite/{slug}/pottery/', course.status === 200 && course.text === page('minisite course'), `${course.status}`);
    const again = await get(minisite, '/pottery/', { 'accept-encoding': both, 'if-none-match': String(course.headers.etag) });
    check('minisite course: 304 to its ETag', again.status === 304, `${again.status}`);
    const js = await get(minisite, '/_astro/island.AbC123.js', { 'accept-encoding': both });
    check('shared assets stay at the root', js.status === 200 && js.text === script && js.headers['cache-control'] === 'public, max-age=31536000, immutable', `${js.status}`);
    const other = await get(`no-such-educator.${HOST}`, '/pottery/');
    check("another educator's host does not see this educator's pages", JSON.parse(other.text || '{}').upstream === true, `${other.status}`);
    const login = await get(minisite, '/login');
    const loginBody = JSON.parse(login.text || '{}');
    check('on-demand pages: the Node server, with the minisite host', loginBody.upstream === true && loginBody.host === minisite && loginBody.url === '/login', login.text);
  }
} finally {
  if (child && child.exitCode === null) {
    const exited = new Promise((r) => child!.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  upstream.close();
  rmSync(work, { recursive: true, force: true });
}

console.log(`\n${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);
