/**
 * Writing files of the served site. A reader must never see half a page, so a file is written beside its
 * final name and renamed over it (rename is atomic within one file system). HTML, CSS, JS, JSON, XML, SVG and
 * text are also stored precompressed (brotli and gzip) so the static server and any plain static host can
 * send them without compressing per request; the compressed siblings are swapped in before the original, so
 * a reader who sees the new page never gets an older compressed copy of it for long.
 * Shared by the build (src/integrations/precompress.ts), the publisher and the static server (api/), so it lives
 * below all three, with nothing of ours beneath it.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, extname } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';

const brotliAsync = promisify(brotliCompress) as (data: Buffer, options: BrotliOptions) => Promise<Buffer>;
const gzipAsync = promisify(gzip) as (data: Buffer, options: { level: number }) => Promise<Buffer>;

const COMPRESSIBLE = new Set(['.html', '.css', '.js', '.mjs', '.json', '.xml', '.svg', '.txt', '.ics', '.webmanifest']);
/** Below this, compression saves too little to be worth a second and third file. */
export const MIN_COMPRESS_BYTES = 256;

/** Whether files of this kind are text worth compressing, whatever their size. */
export function isCompressibleType(path: string): boolean {
  return COMPRESSIBLE.has(extname(path).toLowerCase());
}

export function isCompressible(path: string, size: number): boolean {
  return size >= MIN_COMPRESS_BYTES && isCompressibleType(path);
}

/** The Content-Type a site file is served with (api/http/static.ts, and the objects of a bucket: api/publish/s3-target.ts). */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
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
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

export function contentTypeOf(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/** Fingerprinted assets (their names change with their content) are cached for a year; the rest is revalidated. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
export const REVALIDATE_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

/** The Cache-Control of a site file, by its path in the site (`/_astro/x.js` or `_astro/x.js`). */
export function cacheControlOf(path: string): string {
  return /^\/?_astro\//.test(path) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL;
}

export interface CompressOptions {
  /**
   * Brotli quality, 11 by default (text written once and read many times). A whole build passes less for its
   * pages: quality 11 costs ~40× the time of 6 (~130 ms against ~3 ms for a 28 KB page) for ~10 % fewer bytes.
   */
  brotliQuality?: number;
}

const brotliOptions = (data: Buffer, options: CompressOptions): BrotliOptions => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: options.brotliQuality ?? 11, [constants.BROTLI_PARAM_SIZE_HINT]: data.length },
});

/** Brotli (quality 11 unless told) for text that is written once and read many times; gzip at level 9 for older clients. */
export function compressedSiblings(data: Buffer, options: CompressOptions = {}): { br: Buffer; gz: Buffer } {
  return { br: brotliCompressSync(data, brotliOptions(data, options)), gz: gzipSync(data, { level: 9 }) };
}

/**
 * The same on libuv's thread pool: a page at quality 11 takes ~130 ms of CPU, which must not stall the
 * server's event loop when the publisher re-renders pages in the server process; a build compresses
 * several files at once this way.
 */
export async function compressedSiblingsAsync(data: Buffer, options: CompressOptions = {}): Promise<{ br: Buffer; gz: Buffer }> {
  const [br, gz] = await Promise.all([brotliAsync(data, brotliOptions(data, options)), gzipAsync(data, { level: 9 })]);
  return { br, gz };
}

async function writeAtomic(path: string, data: Buffer | string): Promise<void> {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temp, data);
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** Writes a site file and, where worth it, its .br and .gz siblings, each swapped in atomically. */
export async function writeSiteFile(path: string, data: Buffer | string, options: CompressOptions = {}): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const buffer = typeof data === 'string' ? Buffer.from(data) : data;
  if (isCompressible(path, buffer.length)) {
    const { br, gz } = await compressedSiblingsAsync(buffer, options);
    await writeAtomic(`${path}.br`, br);
    await writeAtomic(`${path}.gz`, gz);
  } else {
    await rm(`${path}.br`, { force: true });
    await rm(`${path}.gz`, { force: true });
  }
  await writeAtomic(path, buffer);
}

/** Removes a site file and its compressed siblings (an unpublished page). */
export async function removeSiteFile(path: string): Promise<void> {
  await Promise.all([rm(path, { force: true }), rm(`${path}.br`, { force: true }), rm(`${path}.gz`, { force: true })]);
}
