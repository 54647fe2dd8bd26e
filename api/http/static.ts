/**
 * Serving the pre-rendered site from dist/client. A minisite host reads from /minisite/{slug}/…,
 * so one build serves every educator's subdomain. Fingerprinted assets are cached for a year.
 */
import { createReadStream } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { Readable } from 'node:stream';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.ics': 'text/calendar; charset=utf-8',
  '.pdf': 'application/pdf',
};

export interface StaticFile {
  path: string;
  size: number;
  type: string;
  mtime: Date;
  /** The open file, when served: its size and bytes belong to one version even if a new one is renamed over it. */
  handle?: FileHandle;
}

/** Finds the file for a URL path under root: the file itself, {path}/index.html or {path}.html. */
export async function findStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = normalize(join(root, decoded));
  if (base !== root && !base.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  for (const candidate of [base, join(base, 'index.html'), `${base}.html`]) {
    try {
      const s = await stat(candidate);
      if (s.isFile()) {
        return { path: candidate, size: s.size, mtime: s.mtime, type: TYPES[extname(candidate).toLowerCase()] ?? 'application/octet-stream' };
      }
    } catch {
      /* try the next candidate */
    }
  }
  return null;
}

/**
 * Finds and opens the file to serve. The publisher swaps pages in by renaming a new file over the old one, so
 * size and bytes are both taken from the opened file (never a stat of the path, then an open that may meet the
 * next version): a reader gets one whole version, old or new. A file removed in between is not found.
 */
export async function openStaticFile(root: string, urlPath: string): Promise<StaticFile | null> {
  const found = await findStaticFile(root, urlPath);
  if (!found) return null;
  let handle: FileHandle;
  try {
    handle = await open(found.path, 'r');
  } catch {
    return null;
  }
  try {
    const s = await handle.stat();
    return { ...found, size: s.size, mtime: s.mtime, handle };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

export function staticResponse(file: StaticFile, urlPath: string, method: string): Response {
  const immutable = urlPath.startsWith('/_astro/');
  const headers = new Headers({
    'content-type': file.type,
    'content-length': String(file.size),
    'last-modified': file.mtime.toUTCString(),
    'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=0, must-revalidate',
  });
  if (method === 'HEAD') {
    void file.handle?.close();
    return new Response(null, { headers });
  }
  const stream = file.handle ? file.handle.createReadStream({ autoClose: true }) : createReadStream(file.path);
  const body = Readable.toWeb(stream) as ReadableStream;
  return new Response(body, { headers });
}
