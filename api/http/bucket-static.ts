/**
 * Serving the pre-rendered pages from the pages' bucket (PUBLISH_TARGET=s3://…) instead of dist/client: every
 * machine reads the one copy the publisher wrote, so two machines never answer different versions of a page, and
 * what the bucket holds is what the CDN serves too (docs/static-hosting.md). The build's own assets (`/_astro/`,
 * `/images/`) stay on disk (api/app.ts): they are the same on every machine of a release and never published.
 *
 * The answer is the local static server's (api/http/static.ts): the same Content-Type, Cache-Control and
 * `Vary: Accept-Encoding`, the encoding the client prefers with its Content-Encoding, 304 for a current copy, HEAD
 * without a body. The ETag is the object's own (a digest of its bytes, the same on every machine, one per encoding).
 *
 * One request to the bucket per candidate file: `{path}/index.html` then `{path}.html` for a path without an
 * extension, the file itself otherwise; the encoding is asked for directly (`{file}.br`), since the writers store
 * both encodings of every text file before the file itself (api/publish/s3-target.ts). A client's validator is
 * passed on (If-None-Match, else If-Modified-Since), so a revalidation costs the bucket a 304, not the bytes.
 */
import { posix } from 'node:path';
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3';
import { cacheControlOf, contentTypeOf } from '../../src/lib/site-files.ts';
import { ENCODINGS, hasEncodings, isMissing, isNotModified, type PageBucket } from '../publish/page-bucket.ts';
import { acceptedCodings, noneMatch, type Coding, type RequestFacts, type StaticAnswer } from './static.ts';

export interface BucketFile {
  answer: StaticAnswer;
  /** The file's Content-Type (an HTML page gets the page's script policy: api/app.ts). */
  type: string;
}

export interface BucketPages {
  /** The answer for a URL path of the site (after the minisite rewrite); null when the bucket has no such file. */
  answer(lookup: string, urlPath: string, req: RequestFacts): Promise<BucketFile | null>;
  /** Whether the bucket has a file for the URL path. */
  exists(lookup: string): Promise<boolean>;
}

/** The files a URL path may be, in the order they are tried; none for a path that is no file name. */
export function candidateFiles(urlPath: string): string[] {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return [];
  }
  if (decoded.includes('\0') || decoded.includes('\\') || !decoded.startsWith('/')) return [];
  const normalised = posix.normalize(decoded);
  const path = normalised.slice(1);
  if (path.split('/').some((segment) => segment === '..')) return [];
  if (path === '' || path.endsWith('/')) return [`${path}index.html`];
  const last = path.slice(path.lastIndexOf('/') + 1);
  return last.includes('.') ? [path] : [`${path}/index.html`, `${path}.html`];
}

const SUFFIX: Record<Exclude<Coding, 'identity'>, string> = { br: ENCODINGS[0].suffix, gzip: ENCODINGS[1].suffix };

/** One entity tag of If-None-Match, bare, when the header names exactly one (what the bucket can compare). */
function singleTag(header: string | undefined): string | undefined {
  if (!header || header.includes(',') || header.trim() === '*') return undefined;
  return header.trim().replace(/^W\//, '');
}

export function createBucketPages(bucket: PageBucket): BucketPages {
  const { client, bucket: Bucket } = bucket;

  async function one(file: string, urlPath: string, req: RequestFacts): Promise<BucketFile | null> {
    const type = contentTypeOf(file);
    const encoded = hasEncodings(file);
    const coding: Coding = encoded ? acceptedCodings(req.acceptEncoding)[0]! : 'identity';
    const Key = bucket.key(coding === 'identity' ? file : file + SUFFIX[coding]);
    const tag = singleTag(req.ifNoneMatch);
    const since = !req.ifNoneMatch && req.ifModifiedSince ? new Date(req.ifModifiedSince) : null;
    const conditions = tag ? { IfNoneMatch: tag } : since && !Number.isNaN(since.getTime()) ? { IfModifiedSince: since } : {};
    const headers: Record<string, string> = { 'content-type': type, 'cache-control': cacheControlOf(urlPath) };
    if (encoded) headers.vary = 'Accept-Encoding';
    if (coding !== 'identity') headers['content-encoding'] = coding;
    try {
      const head = req.method === 'HEAD';
      const object = head
        ? await client.send(new HeadObjectCommand({ Bucket, Key, ...conditions }))
        : await client.send(new GetObjectCommand({ Bucket, Key, ...conditions }));
      if (object.ETag) headers.etag = object.ETag;
      if (object.LastModified) headers['last-modified'] = object.LastModified.toUTCString();
      const body = 'Body' in object && object.Body ? Buffer.from(await object.Body.transformToByteArray()) : null;
      // Several validators: compared here (the bucket compares one).
      if (req.ifNoneMatch && !tag && object.ETag && !noneMatch(req.ifNoneMatch, object.ETag)) {
        delete headers['content-type'];
        return { type, answer: { status: 304, headers, body: null } };
      }
      headers['content-length'] = String(body ? body.length : (object.ContentLength ?? 0));
      return { type, answer: { status: 200, headers, body } };
    } catch (error) {
      if (isNotModified(error)) {
        delete headers['content-type'];
        if (tag) headers.etag = tag;
        return { type, answer: { status: 304, headers, body: null } };
      }
      if (isMissing(error)) return null;
      throw error;
    }
  }

  return {
    async answer(lookup, urlPath, req) {
      for (const file of candidateFiles(lookup)) {
        const found = await one(file, urlPath, req);
        if (found) return found;
      }
      return null;
    },
    async exists(lookup) {
      for (const file of candidateFiles(lookup)) {
        try {
          await client.send(new HeadObjectCommand({ Bucket, Key: bucket.key(file) }));
          return true;
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      }
      return false;
    },
  };
}
