/**
 * Images an educator uploads in the admin (its logo and cover). What arrives is judged by its bytes, never by its
 * name or the type the browser claims: only JPEG, PNG and WebP are read, at most IMAGE_MAX_BYTES and
 * IMAGE_MAX_PIXELS (a small file that decodes to a huge image is refused before it is decoded). sharp then turns it
 * upright (by its EXIF orientation), scales it down to what the pages show and writes it as WebP; sharp keeps no
 * metadata unless asked, so EXIF (camera, GPS position, owner), XMP and ICC comments are not kept.
 *
 * Images are named by their content and served at /images/uploads/educators/{educatorId}/{kind}-{hash}.webp on
 * every host (api/http/site-pages.ts), a path the database accepts for logo_url / cover_url (migration 0161). The
 * upload only stores the image; the profile save (with its revision and audit entry) is what puts it on the pages.
 *
 * Where they are kept: in the database (`educator_images`, migration 0291), like the course images, rather than
 * in a folder (one machine's) or in the pages' bucket. Weighed: a bucket would offload serving to the CDN, but
 * needs a second store beside the folder for one-machine sites, its own backup story, a HEAD per profile save to
 * check an address, and care that a full build's prune of the bucket does not take the images with it. The
 * database is what every server process already shares (PostgreSQL as soon as there are two machines), what
 * `npm run backup`, `restore` and `db:copy` already carry whole, and what checks an address in the save's own
 * query. The images are small (a logo at most 512 px, a cover 1920 px, WebP: tens to a few hundred KB, a few per
 * educator) and each address is immutable, so browsers and CDNs fetch each once: one primary-key read per fetch.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import type { Db } from '../../db/client.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { cachedStoredImage, type StoredImage } from '../http/stored-image.ts';

export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** About 40 megapixels (e.g. 8000 × 5000). */
export const IMAGE_MAX_PIXELS = 40_000_000;
export const UPLOADS_URL_PREFIX = '/images/uploads/';

export const IMAGE_KINDS = ['logo', 'cover'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** The largest size each kind is stored at (never enlarged): a logo is shown at most 160 px, a cover full width. */
export const IMAGE_BOXES: Record<ImageKind, { width: number; height: number }> = {
  logo: { width: 512, height: 512 },
  cover: { width: 1920, height: 1080 },
};

export const IMAGE_TYPE_MESSAGE = 'must be a JPEG, PNG or WebP image';
export const IMAGE_SIZE_MESSAGE = `must be at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB`;
export const IMAGE_PIXELS_MESSAGE = `must be at most ${IMAGE_MAX_PIXELS / 1_000_000} megapixels`;
export const IMAGE_UNREADABLE_MESSAGE = 'could not be read as an image';

export type SniffedType = 'jpeg' | 'png' | 'webp';

/** The image type by its first bytes (magic numbers), or null. */
export function sniffImageType(bytes: Uint8Array): SniffedType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return 'png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

const refuse = (message: string) => new ProblemError(problems.validation([{ key: 'file', message }]));

export interface ProcessedImage {
  data: Buffer;
  width: number;
  height: number;
  /** What was uploaded. */
  sourceType: SniffedType;
}

/** The stored form of an upload: upright, scaled into the kind's box, WebP, no metadata. Refuses anything else. */
export async function processImage(bytes: Uint8Array, kind: ImageKind): Promise<ProcessedImage> {
  if (bytes.length === 0) throw refuse('is required');
  if (bytes.length > IMAGE_MAX_BYTES) throw refuse(IMAGE_SIZE_MESSAGE);
  const sourceType = sniffImageType(bytes);
  if (!sourceType) throw refuse(IMAGE_TYPE_MESSAGE);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw refuse(IMAGE_UNREADABLE_MESSAGE);
  }
  // The header must say what the magic number said (a PNG signature in front of something else is refused).
  if (meta.format !== sourceType) throw refuse(IMAGE_TYPE_MESSAGE);
  if (!meta.width || !meta.height) throw refuse(IMAGE_UNREADABLE_MESSAGE);
  if (meta.width * meta.height > IMAGE_MAX_PIXELS) throw refuse(IMAGE_PIXELS_MESSAGE);
  const box = IMAGE_BOXES[kind];
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: box.width, height: box.height, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82, effort: 4 })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, sourceType };
  } catch {
    throw refuse(IMAGE_UNREADABLE_MESSAGE);
  }
}

/** The address of an educator's image under /images/uploads/ (the table's key): `educators/{educatorId}/{kind}-{hash}.webp`. */
const UPLOAD_PATH = /^educators\/([A-Za-z0-9_-]{1,64})\/(logo|cover)-[0-9a-f]{20}\.webp$/;

/** Where an educator's uploads live under /images/uploads/. */
function folderOf(educatorId: string): string {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(educatorId)) throw new Error('not an educator id');
  return `educators/${educatorId}`;
}

/** The address under /images/uploads/ of an image's bytes (named by their digest: new bytes, a new address). */
function pathOf(educatorId: string, kind: ImageKind, data: Buffer): { path: string; sha256: string } {
  const sha256 = createHash('sha256').update(data).digest('hex');
  return { path: `${folderOf(educatorId)}/${kind}-${sha256.slice(0, 20)}.webp`, sha256 };
}

/** What storing an image needs: the database and its clock (a part of the server's Deps). */
export type UploadDeps = { db: Db; now(): number };

/**
 * Keeps the image in the database and returns its site-relative URL. The same bytes uploaded again (or by two
 * requests at once) are one row: the address is the digest's.
 */
export async function storeImage(deps: UploadDeps, educatorId: string, kind: ImageKind, data: Buffer, userId: string | null): Promise<string> {
  const { path, sha256 } = pathOf(educatorId, kind, data);
  await deps.db.insertInto('educator_images').values({
    path, educator_id: educatorId, kind, content_type: 'image/webp', byte_size: data.length, bytes_b64: data.toString('base64'), sha256,
    created_by: userId, created_at: deps.now(),
  }).onConflict((oc) => oc.column('path').doNothing()).execute();
  return `${UPLOADS_URL_PREFIX}${path}`;
}

/** Whether a URL is one of this educator's uploads of that kind. */
export async function isOwnUpload(db: Db, educatorId: string, kind: ImageKind, url: string): Promise<boolean> {
  const prefix = `${UPLOADS_URL_PREFIX}${folderOf(educatorId)}/${kind}-`;
  if (!url.startsWith(prefix) || !UPLOAD_PATH.test(url.slice(UPLOADS_URL_PREFIX.length))) return false;
  const row = await db.selectFrom('educator_images').select('path').where('path', '=', url.slice(UPLOADS_URL_PREFIX.length)).executeTakeFirst();
  return row !== undefined;
}

/** The stored image at a URL path under /images/uploads/, or null (no such image, or no image address at all). */
export async function findUpload(db: Db, urlPath: string): Promise<StoredImage | null> {
  if (!urlPath.startsWith(UPLOADS_URL_PREFIX)) return null;
  const path = urlPath.slice(UPLOADS_URL_PREFIX.length);
  if (!UPLOAD_PATH.test(path)) return null;
  return cachedStoredImage(urlPath, async () => {
    const row = await db.selectFrom('educator_images').select(['content_type', 'bytes_b64', 'sha256']).where('path', '=', path).executeTakeFirst();
    return row ? { content_type: row.content_type, bytes: Buffer.from(row.bytes_b64, 'base64'), sha256: row.sha256 } : null;
  });
}

/**
 * Reads into the database the images earlier versions kept in UPLOADS_DIR (`educators/{id}/{kind}-{hash}.webp`),
 * under the same addresses, so the pages and profiles that name them keep working on every machine. Those already
 * there, not WebP, or of an educator that no longer exists are skipped; the folder is left as it was. Returns how
 * many were read in.
 */
export async function importUploadsDir(deps: UploadDeps, uploadsDir: string): Promise<number> {
  const root = join(resolve(uploadsDir), 'educators');
  const educators = await readdir(root, { withFileTypes: true }).catch(() => []);
  let imported = 0;
  for (const folder of educators) {
    if (!folder.isDirectory()) continue;
    const files = (await readdir(join(root, folder.name)).catch(() => [] as string[])).filter((name) => UPLOAD_PATH.test(`educators/${folder.name}/${name}`));
    if (files.length === 0) continue;
    const educator = await deps.db.selectFrom('educators').select('id').where('id', '=', folder.name).executeTakeFirst();
    if (!educator) continue;
    const known = new Set((await deps.db.selectFrom('educator_images').select('path').where('educator_id', '=', folder.name).execute()).map((r) => r.path));
    for (const name of files) {
      const path = `educators/${folder.name}/${name}`;
      if (known.has(path)) continue;
      const data = await readFile(join(root, folder.name, name));
      if (sniffImageType(data) !== 'webp') continue;
      const kind = name.slice(0, name.indexOf('-')) as ImageKind;
      await deps.db.insertInto('educator_images').values({
        path, educator_id: folder.name, kind, content_type: 'image/webp', byte_size: data.length, bytes_b64: data.toString('base64'),
        sha256: createHash('sha256').update(data).digest('hex'), created_by: null, created_at: deps.now(),
      }).onConflict((oc) => oc.column('path').doNothing()).execute();
      imported++;
    }
  }
  return imported;
}
