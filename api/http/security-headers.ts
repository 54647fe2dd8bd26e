/**
 * Security headers on every response, whoever writes it: Hono answers, pre-rendered files, and the
 * on-demand pages Astro writes straight to the Node response (/login, /checkout, /profile…).
 *
 * - X-Content-Type-Options: nosniff, Referrer-Policy, and HSTS when the site is https;
 * - framing: only embed pages may be framed (by any site: that is their purpose); everything else only by
 *   ourselves (`frame-ancestors 'self'`, plus X-Frame-Options for old browsers);
 * - a Content-Security-Policy on HTML that restricts scripts: our own files, the few providers the pages
 *   load on purpose (Stripe.js, PayPal's SDK, an educator's GA4 / Meta pixel on the checkout), and the
 *   inline scripts and inline event handlers of THAT page by their SHA-256 hash, computed from the exact
 *   bytes we send (cached per file for pre-rendered pages; from the rendered body for on-demand ones).
 *   Injected markup cannot run a script: it has no matching hash. No 'unsafe-inline', no 'unsafe-eval'.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { Config } from '../config.ts';
import type { AppContext } from './context.ts';

/** Script hosts the pages load on purpose (card form, wallet button, an educator's checkout analytics). */
export const SCRIPT_HOSTS = ['https://js.stripe.com', 'https://www.paypal.com', 'https://www.googletagmanager.com', 'https://connect.facebook.net'];

export function frameAncestors(context: AppContext): string {
  return context === 'embed' ? 'frame-ancestors *' : "frame-ancestors 'self'";
}

/** The headers every response carries (set on the Node response first, so nothing can skip them). */
export function baseSecurityHeaders(config: Pick<Config, 'PUBLIC_PROTOCOL'>, context: AppContext): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    // Non-HTML answers (JSON, PDFs, images) run no script of ours; they only need their framing rule.
    'content-security-policy': `${frameAncestors(context)}; object-src 'none'; base-uri 'self'`,
  };
  if (context !== 'embed') headers['x-frame-options'] = 'SAMEORIGIN';
  if (config.PUBLIC_PROTOCOL === 'https') headers['strict-transport-security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', apos: "'", lt: '<', gt: '>', '#39': "'", '#x27': "'", '#34': '"', '#x22': '"' };

function decodeAttribute(value: string): string {
  return value.replace(/&(#?\w+);/g, (whole, name: string) => ENTITIES[name.toLowerCase()] ?? whole);
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The hash sources for a page's inline scripts and inline event handlers (e.g. an image's onerror fallback). */
export function inlineScriptHashes(html: string): { scripts: string[]; handlers: string[] } {
  const scripts = new Set<string>();
  const handlers = new Set<string>();
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attrs = m[1] ?? '';
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
    // Data blocks (JSON-LD, JSON state) never run.
    if (type && type !== 'module' && type !== 'text/javascript' && type !== 'application/javascript') continue;
    scripts.add(sha256(m[2] ?? ''));
  }
  for (const m of html.matchAll(/<[a-z][^>]*?\s(on[a-z]+)\s*=\s*("([^"]*)"|'([^']*)')/gi)) {
    handlers.add(sha256(decodeAttribute(m[3] ?? m[4] ?? '')));
  }
  return { scripts: [...scripts], handlers: [...handlers] };
}

/** The full policy for one HTML page. */
export function htmlCsp(html: string, context: AppContext): string {
  const { scripts, handlers } = inlineScriptHashes(html);
  const hashes = [...scripts, ...handlers];
  // 'unsafe-hashes' lets exactly the hashed handler texts run as attributes, nothing else.
  const scriptSrc = ["'self'", ...SCRIPT_HOSTS, ...hashes, ...(handlers.length > 0 ? ["'unsafe-hashes'"] : [])].join(' ');
  return [`script-src ${scriptSrc}`, "object-src 'none'", "base-uri 'self'", frameAncestors(context)].join('; ');
}

const fileCache = new Map<string, { key: string; scripts: string }>();
const FILE_CACHE_MAX = 5000;

/** The policy for a pre-rendered HTML file, computed once per version of the file. */
export async function cspForFile(path: string, mtimeMs: number, size: number, context: AppContext): Promise<string> {
  const key = `${mtimeMs}:${size}`;
  const hit = fileCache.get(path);
  let policy: string;
  if (hit && hit.key === key) policy = hit.scripts;
  else {
    policy = htmlCsp(await readFile(path, 'utf8'), 'marketplace');
    if (fileCache.size >= FILE_CACHE_MAX) fileCache.clear();
    fileCache.set(path, { key, scripts: policy });
  }
  return policy.replace(frameAncestors('marketplace'), frameAncestors(context));
}

/**
 * Holds an HTML page that Astro writes to the Node response until it is complete, then sends it with the
 * policy for exactly its inline scripts. Anything that is not HTML passes through untouched.
 */
export function holdHtmlForCsp(res: ServerResponse, context: AppContext): void {
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
    res.setHeader('content-security-policy', htmlCsp(body.toString('utf8'), context));
    if (head) {
      // A policy given to writeHead itself would win over ours: drop it.
      const headers = head.find((a) => a && typeof a === 'object') as Record<string, unknown> | undefined;
      if (headers && !Array.isArray(headers)) for (const name of Object.keys(headers)) if (name.toLowerCase() === 'content-security-policy') delete headers[name];
      original.writeHead.apply(res, head as Parameters<ServerResponse['writeHead']>);
    }
    const callback = typeof chunk === 'function' ? chunk : typeof encoding === 'function' ? encoding : cb;
    return (original.end as (...a: unknown[]) => ServerResponse).call(res, body, callback);
  } as ServerResponse['end'];
}
