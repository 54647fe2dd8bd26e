/**
 * The CDN's edge rule for pages served straight from the bucket (deploy/cloudfront/viewer-request.js, a CloudFront
 * Function): the same file for a request as the Node server reads (api/http/bucket-static.ts candidateFiles and the
 * minisite rewrite of api/app.ts), and the encoding by Accept-Encoding with q-values.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Request = { uri: string; headers: Record<string, { value: string }> };
const source = readFileSync('deploy/cloudfront/viewer-request.js', 'utf8').replace("var PUBLIC_HOST = 'example.com';", "var PUBLIC_HOST = 'courses.example.com';");
const handler = new Function(`${source}; return handler;`)() as (event: { request: Request }) => Request;

function uriOf(host: string, uri: string, acceptEncoding?: string): string {
  const headers: Request['headers'] = { host: { value: host } };
  if (acceptEncoding !== undefined) headers['accept-encoding'] = { value: acceptEncoding };
  return handler({ request: { uri, headers } }).uri;
}

describe('the CloudFront viewer-request function', () => {
  it('maps a path to its file, index.html for a folder', () => {
    expect(uriOf('courses.example.com', '/')).toBe('/index.html');
    expect(uriOf('courses.example.com', '/clay-studio')).toBe('/clay-studio/index.html');
    expect(uriOf('courses.example.com', '/clay-studio/wheel/')).toBe('/clay-studio/wheel/index.html');
    expect(uriOf('courses.example.com', '/sitemap.xml')).toBe('/sitemap.xml');
    expect(uriOf('courses.example.com', '/images/logo.png', 'br')).toBe('/images/logo.png');
  });

  it('reads a minisite host from its folder, and never the folder on the marketplace host', () => {
    expect(uriOf('clay-studio.courses.example.com', '/')).toBe('/minisite/clay-studio/index.html');
    expect(uriOf('Clay-Studio.courses.example.com:443', '/wheel')).toBe('/minisite/clay-studio/wheel/index.html');
    expect(uriOf('clay-studio.courses.example.com', '/_astro/site.abc.js', 'gzip')).toBe('/_astro/site.abc.js.gz');
    expect(uriOf('courses.example.com', '/minisite/clay-studio/')).toBe('/404-not-here');
    expect(uriOf('courses.example.com', '/minisite%2fclay-studio/')).toBe('/404-not-here');
    expect(uriOf('a.b.courses.example.com', '/')).toBe('/index.html');
  });

  it('chooses brotli, then gzip, by the q-values the browser sent', () => {
    const page = (ae?: string) => uriOf('courses.example.com', '/clay-studio', ae);
    expect(page('gzip, deflate, br, zstd')).toBe('/clay-studio/index.html.br');
    expect(page('gzip')).toBe('/clay-studio/index.html.gz');
    expect(page('br;q=0, gzip')).toBe('/clay-studio/index.html.gz');
    expect(page('br;q=0.5, gzip;q=0.8')).toBe('/clay-studio/index.html.gz');
    expect(page('*')).toBe('/clay-studio/index.html.br');
    expect(page('identity')).toBe('/clay-studio/index.html');
    expect(page()).toBe('/clay-studio/index.html');
  });
});
