/**
 * The answer for an image kept in the database (course images, api/admin/course-images.ts; educators' logos and
 * covers, api/admin/uploads.ts). Each is addressed by what it is (an id, or the digest of its bytes), so its
 * address never shows other bytes: cached for a year by browsers and CDNs, its digest the ETag (the same on every
 * machine), 304 for a current copy, HEAD without the body. No encodings: WebP, PNG and JPEG are compressed already.
 */
import { noneMatch, type RequestFacts, type StaticAnswer } from './static.ts';

export const STORED_IMAGE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

export interface StoredImage {
  content_type: string;
  bytes: Buffer;
  /** SHA-256 of the bytes, hex. */
  sha256: string;
}

/**
 * Images recently served, by address: an address always names the same bytes, so a copy in memory never goes stale,
 * and the most shown images are answered without a database read or a base64 decode (measured on a loaded machine
 * for logos: without it, about half the requests/s of the same file from disk; with it, the same p50). One budget
 * for every kind of stored image, bounded by bytes; the least recently used go first.
 */
const served = new Map<string, StoredImage>();
const SERVED_MAX_BYTES = 32 * 1024 * 1024;
let servedBytes = 0;

/** The image at `address` from memory, else from `load` (kept for next time); null when there is none. */
export async function cachedStoredImage(address: string, load: () => Promise<StoredImage | null>): Promise<StoredImage | null> {
  const known = served.get(address);
  if (known) {
    served.delete(address);
    served.set(address, known);
    return known;
  }
  const image = await load();
  if (!image || served.has(address)) return image;
  served.set(address, image);
  servedBytes += image.bytes.length;
  for (const [oldest, old] of served) {
    if (servedBytes <= SERVED_MAX_BYTES) break;
    served.delete(oldest);
    servedBytes -= old.bytes.length;
  }
  return image;
}

export function storedImageAnswer(image: StoredImage, req: RequestFacts): StaticAnswer {
  const etag = `"${image.sha256}"`;
  const headers: Record<string, string> = { 'cache-control': STORED_IMAGE_CACHE_CONTROL, etag };
  if (req.ifNoneMatch && !noneMatch(req.ifNoneMatch, etag)) return { status: 304, headers, body: null };
  const body = image.bytes;
  headers['content-type'] = image.content_type;
  headers['content-length'] = String(body.length);
  return { status: 200, headers, body: req.method === 'HEAD' ? null : body };
}
