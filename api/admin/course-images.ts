/**
 * Course images an educator's admin uploads (self-contained: the editor's only upload).
 *
 *   POST /admin/educators/{educatorId}/course-images   multipart/form-data, one file in `image` → 201 { id, url, width, height }
 *   GET  /course-images/{id}.webp                     the image, on every host (marketplace, minisites, embed, admin)
 *
 * What is kept is never what was sent: the file must BE a JPEG, PNG or WebP image by its content (the magic bytes,
 * then the decoder agrees; the name and the declared type count for nothing), at most 10 MB and 40 megapixels;
 * it is turned upright by its EXIF orientation, shrunk to fit 1600 × 1600, and re-encoded as WebP with no metadata
 * at all (sharp writes none unless asked: no EXIF, GPS position, camera or ICC profile leaves with it).
 *
 * Images live in the database (migration 0245), so every server process answers for every image and a full build
 * of the site (which starts its folder afresh) loses none; each is addressed by its id, so it is cached for a year.
 * The URL written into the course is site-relative (/api/course-images/…), or on API_ORIGIN when the API has a host
 * of its own: the pages of every context load it from where the API answers.
 */
import { createHash } from 'node:crypto';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { newId } from '../shared/ids.ts';
import { adminEducatorId } from './access.ts';
import { cachedStoredImage, storedImageAnswer } from '../http/stored-image.ts';

export const COURSE_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/** The request around the file (multipart boundaries and headers). */
export const COURSE_IMAGE_UPLOAD_BODY_LIMIT = COURSE_IMAGE_MAX_BYTES + 64 * 1024;
/** The upload's path, for the body limit (api/http/body-limit.ts). */
export const COURSE_IMAGE_UPLOAD_PATH = /^\/api\/admin\/educators\/[^/]+\/course-images\/?$/;
export const COURSE_IMAGE_MAX_EDGE = 1600;
/** Decompression bombs: a small file that unpacks into billions of pixels is refused before it is decoded. */
export const COURSE_IMAGE_MAX_PIXELS = 40_000_000;
const OUTPUT_TYPE = 'image/webp';

export type SniffedImage = 'jpeg' | 'png' | 'webp';

/** The image kind by its first bytes, or null (GIF, SVG, HEIC, PDF, anything else). */
export function sniffImage(bytes: Uint8Array): SniffedImage | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'png';
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return null;
}

const refuse = (message: string): never => {
  throw new ProblemError(problems.validation([{ key: 'image', name: 'Image', message }]));
};

export interface ProcessedImage {
  bytes: Buffer;
  width: number;
  height: number;
}

/** The kept image of an upload (upright, at most 1600 px a side, WebP, no metadata); refuses what is not an image. */
export async function processCourseImage(input: Buffer): Promise<ProcessedImage> {
  if (input.length === 0) refuse('is empty');
  if (input.length > COURSE_IMAGE_MAX_BYTES) refuse('must be at most 10 MB');
  const kind = sniffImage(input);
  if (!kind) refuse('must be a JPEG, PNG or WebP image');
  // Loaded on first use: the server starts without the image library.
  const { default: sharp } = await import('sharp');
  let format: string | undefined;
  try {
    format = (await sharp(input, { limitInputPixels: COURSE_IMAGE_MAX_PIXELS }).metadata()).format;
  } catch {
    refuse('could not be read as an image');
  }
  if (format !== kind) refuse('must be a JPEG, PNG or WebP image');
  try {
    const { data, info } = await sharp(input, { limitInputPixels: COURSE_IMAGE_MAX_PIXELS, failOn: 'error' })
      .rotate()
      .resize({ width: COURSE_IMAGE_MAX_EDGE, height: COURSE_IMAGE_MAX_EDGE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 82 })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch (error) {
    if (error instanceof ProblemError) throw error;
    return refuse(/pixel limit/i.test(String((error as Error)?.message)) ? `must be at most ${COURSE_IMAGE_MAX_PIXELS / 1_000_000} megapixels` : 'could not be read as an image');
  }
}

/** Where a stored image is served. */
export function courseImageUrl(apiOrigin: string, id: string): string {
  return `${apiOrigin.replace(/\/+$/, '')}/api/course-images/${id}.webp`;
}

/** The upload route, relative to /admin/educators/{educatorId} (the educator's admins only). */
export function courseImageAdminRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post('/course-images', async (c) => {
    const educatorId = adminEducatorId(c);
    if (!/^multipart\/form-data\b/i.test(c.req.header('content-type') ?? '')) refuse('must be sent as a file (multipart/form-data)');
    let file: unknown;
    try {
      file = (await c.req.parseBody({ all: false }))['image'];
    } catch {
      refuse('must be sent as a file (multipart/form-data)');
    }
    if (!(file instanceof File)) return refuse('is required');
    const image = await processCourseImage(Buffer.from(await file.arrayBuffer()));
    const id = newId('img');
    const deps = c.var.deps;
    await deps.db.insertInto('course_images').values({
      id, educator_id: educatorId, content_type: OUTPUT_TYPE, width: image.width, height: image.height, byte_size: image.bytes.length,
      bytes_b64: image.bytes.toString('base64'), sha256: createHash('sha256').update(image.bytes).digest('hex'),
      created_by: c.var.user?.id ?? null, created_at: deps.now(),
    }).execute();
    return c.json({ id, url: courseImageUrl(deps.config.API_ORIGIN, id), width: image.width, height: image.height, bytes: image.bytes.length }, 201);
  });
  return app;
}

/** The public route (mounted beside the admin's, under /api, on every host). */
export function courseImagePublicRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get('/course-images/:file', async (c) => {
    const file = c.req.param('file');
    if (!/^img_[A-Za-z0-9_-]{1,64}\.webp$/.test(file)) throw new ProblemError(problems.notFound('No image has this address.'));
    const image = await cachedStoredImage(`/api/course-images/${file}`, async () => {
      const row = await c.var.deps.db.selectFrom('course_images').select(['content_type', 'bytes_b64', 'sha256'])
        .where('id', '=', file.slice(0, -'.webp'.length)).executeTakeFirst();
      return row ? { content_type: row.content_type, bytes: Buffer.from(row.bytes_b64, 'base64'), sha256: row.sha256 } : null;
    });
    if (!image) throw new ProblemError(problems.notFound('No image has this address.'));
    const answer = storedImageAnswer(image, { method: c.req.method, ifNoneMatch: c.req.header('if-none-match') });
    if (answer.status === 304 || !answer.body) return c.body(null, answer.status as 200 | 304, answer.headers);
    return c.body(answer.body as Buffer<ArrayBuffer>, 200, answer.headers);
  });
  return app;
}
