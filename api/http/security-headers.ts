/**
 * Security headers on every response, whoever writes it: Hono answers, pre-rendered files, and the
 * on-demand pages Astro writes straight to the Node response (/login, /checkout, /profile…).
 *
 * - X-Content-Type-Options: nosniff, Referrer-Policy, and HSTS when the site is https;
 * - framing: only embed pages may be framed (by any site: that is their purpose); everything else only by
 *   ourselves (`frame-ancestors 'self'`, plus X-Frame-Options for old browsers);
 * - a Content-Security-Policy on HTML that restricts scripts: our own files, the payment providers' SDKs the
 *   checkout loads, an educator's GA4 / Meta pixel only on the pages of an educator who configured them
 *   (src/lib/script-policy.ts), and the inline scripts THE BUILD MADE by their SHA-256 hash — computed at build
 *   time from the bundle, Astro's runtime and our inline-script constants (src/integrations/script-hashes.ts),
 *   never from the bytes of the page being sent. A script injected into a page has no matching hash and does not
 *   run; inline event handlers never run (no 'unsafe-hashes', `script-src-attr 'none'`). No 'unsafe-inline', no
 *   'unsafe-eval'.
 */
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { Config } from '../config.ts';
import type { AppContext } from '../../src/domain/app-context.ts';
import {
  ANALYTICS_SCRIPT_HOSTS, PAGE_SCRIPT_HOSTS_HEADER, PAYMENT_SCRIPT_HOSTS, SCRIPT_HASHES_FILE, type ScriptHashesFile,
} from '../../src/lib/script-policy.ts';

/** Who may frame a page: anyone (embed), our own pages (marketplace, minisite), nobody (the admin host). */
export type Framing = AppContext | 'admin';

export function frameAncestors(framing: Framing): string {
  return framing === 'embed' ? 'frame-ancestors *' : framing === 'admin' ? "frame-ancestors 'none'" : "frame-ancestors 'self'";
}

/** The headers every response carries (set on the Node response first, so nothing can skip them). */
export function baseSecurityHeaders(config: Pick<Config, 'PUBLIC_PROTOCOL'>, context: Framing): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // Non-HTML answers (JSON, PDFs, images) run no script of ours; they only need their framing rule.
    'content-security-policy': `${frameAncestors(context)}; object-src 'none'; base-uri 'self'`,
  };
  if (context !== 'embed') headers['x-frame-options'] = context === 'admin' ? 'DENY' : 'SAMEORIGIN';
  if (context === 'admin') {
    // An educator's business data: never kept by a shared cache, never indexed.
    headers['cache-control'] = 'private, no-store';
    headers['x-robots-tag'] = 'noindex, nofollow';
  }
  if (config.PUBLIC_PROTOCOL === 'https') headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}

const HASH_SOURCE = /^'sha256-[A-Za-z0-9+/]{43}='$/;
const hashCache = new Map<string, { mtimeMs: number; scripts: string[] }>();

/**
 * The inline-script hashes of the build in `distDir` (its script-hashes.json, written by `astro build`), read
 * again only when the build changes. No build, no hashes: then no inline script runs.
 */
export function buildScriptHashes(distDir: string): string[] {
  const path = resolve(distDir, SCRIPT_HASHES_FILE);
  let mtimeMs: number;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    return [];
  }
  const hit = hashCache.get(path);
  if (hit && hit.mtimeMs === mtimeMs) return hit.scripts;
  let scripts: string[];
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<ScriptHashesFile>;
    scripts = Array.isArray(parsed.scripts) ? parsed.scripts.filter((h): h is string => typeof h === 'string' && HASH_SOURCE.test(h)) : [];
  } catch {
    scripts = [];
  }
  hashCache.set(path, { mtimeMs, scripts });
  return scripts;
}

/** Only the analytics hosts we know, whatever a page asked for. */
export function allowedAnalyticsHosts(asked: unknown): string[] {
  const words = String(asked ?? '').split(/\s+/);
  return ANALYTICS_SCRIPT_HOSTS.filter((host) => words.includes(host));
}

/** The full policy for one HTML page: the build's inline scripts, never anything read from the page. */
export function htmlCsp(context: Framing, buildHashes: readonly string[], analyticsHosts: readonly string[] = []): string {
  const scriptSrc = ["'self'", ...PAYMENT_SCRIPT_HOSTS, ...allowedAnalyticsHosts(analyticsHosts.join(' ')), ...buildHashes].join(' ');
  return [`script-src ${scriptSrc}`, "script-src-attr 'none'", "object-src 'none'", "base-uri 'self'", frameAncestors(context)].join('; ');
}

/**
 * Holds an HTML page that Astro writes to the Node response until it is complete, then sends it with the
 * page policy: the build's inline-script hashes and the analytics hosts the page asked for (PAGE_SCRIPT_HOSTS_HEADER,
 * known hosts only; the header itself is never sent). Anything that is not HTML passes through untouched.
 */
export function holdHtmlForCsp(res: ServerResponse, context: Framing, buildHashes: readonly string[]): void {
  const original = { writeHead: res.writeHead, write: res.write, end: res.end, flushHeaders: res.flushHeaders };
  let head: unknown[] | null = null;
  let html: boolean | null = null;
  const chunks: Buffer[] = [];
  const restore = () => {
    res.writeHead = original.writeHead;
    res.write = original.write;
    res.end = original.end;
    res.flushHeaders = original.flushHeaders;
  };
  const isHtml = () => {
    if (html === null) {
      const fromHead = head?.find((a) => a && typeof a === 'object') as Record<string, unknown> | undefined;
      const type = String(res.getHeader('content-type') ?? (fromHead && (fromHead['content-type'] ?? fromHead['Content-Type'])) ?? '');
      html = type.toLowerCase().includes('text/html');
    }
    return html;
  };
  const release = () => {
    restore();
    if (head) original.writeHead.apply(res, head as Parameters<ServerResponse['writeHead']>);
  };
  const toBuffer = (chunk: unknown, encoding?: unknown) =>
    Buffer.isBuffer(chunk) ? chunk : typeof chunk === 'string' ? Buffer.from(chunk, (typeof encoding === 'string' ? encoding : 'utf8') as BufferEncoding) : Buffer.from(chunk as Uint8Array);

  // Sending the head early (a writer that flushes before its body is ready) would send it without the policy
  // and with the default status: it goes out at the end, with the body.
  res.flushHeaders = function (this: ServerResponse) {
    if (html === false) original.flushHeaders.call(res);
  };
  res.writeHead = function (this: ServerResponse, ...args: unknown[]) {
    head = args;
    // A pre-rendered page sent from here (the 404 page) already carries its own policy, and may be compressed.
    const given = args.find((a) => a && typeof a === 'object' && !Array.isArray(a)) as Record<string, unknown> | undefined;
    if (given && (String(given['content-security-policy'] ?? '').includes('script-src') || given['content-encoding'])) html = false;
    if (!isHtml()) {
      release();
      return res;
    }
    return res;
  } as ServerResponse['writeHead'];
  res.write = function (this: ServerResponse, chunk: unknown, encoding?: unknown, cb?: unknown) {
    if (!isHtml()) {
      release();
      return (res.write as (...a: unknown[]) => boolean)(chunk, encoding, cb);
    }
    chunks.push(toBuffer(chunk, encoding));
    const callback = typeof encoding === 'function' ? encoding : cb;
    if (typeof callback === 'function') queueMicrotask(() => (callback as () => void)());
    return true;
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, encoding?: unknown, cb?: unknown) {
    if (!isHtml()) {
      release();
      return (res.end as (...a: unknown[]) => ServerResponse)(chunk, encoding, cb);
    }
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function') chunks.push(toBuffer(chunk, encoding));
    const body = Buffer.concat(chunks);
    restore();
    const asked: unknown[] = [res.getHeader(PAGE_SCRIPT_HOSTS_HEADER)];
    res.removeHeader(PAGE_SCRIPT_HOSTS_HEADER);
    const headers = head?.find((a) => a && typeof a === 'object') as Record<string, unknown> | undefined;
    if (headers && !Array.isArray(headers)) {
      for (const name of Object.keys(headers)) {
        const lower = name.toLowerCase();
        if (lower === PAGE_SCRIPT_HOSTS_HEADER) asked.push(headers[name]);
        // A policy given to writeHead itself would win over ours, and the page's request for hosts is ours only.
        if (lower === 'content-security-policy' || lower === PAGE_SCRIPT_HOSTS_HEADER) delete headers[name];
      }
    }
    res.setHeader('content-security-policy', htmlCsp(context, buildHashes, allowedAnalyticsHosts(asked.flat().join(' '))));
    if (head) original.writeHead.apply(res, head as Parameters<ServerResponse['writeHead']>);
    const callback = typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : cb;
    return (original.end as (...a: unknown[]) => ServerResponse).call(res, body, callback);
  } as ServerResponse['end'];
}
