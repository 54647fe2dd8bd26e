/**
 * Pages written to an S3-compatible bucket (PUBLISH_TARGET=s3://bucket/prefix) with the official SDK: the
 * PageTarget of api/publish/page-target.ts, for the publisher and the full build alike.
 *
 * A text file is three objects (api/publish/page-bucket.ts): `{file}.br`, `{file}.gz` and `{file}`. Each PUT is atomic (S3
 * never shows half an object), and the three are ordered so that the file is the commit point:
 *
 * - write: both encodings first (together), the file itself last, once both are stored;
 * - remove: both encodings first, the file last;
 * - a write is skipped only when the file **and** both encodings already carry the new bytes' SHA-256, so a crash
 *   after the encodings of a new version leaves a mismatch that the next write repairs, even if the content went
 *   back to the old version meanwhile;
 * - list reports a file when any of its three objects exists, so a crash while removing is finished by the next prune.
 *
 * A crash part-way can therefore leave, for a while, new encodings beside the previous file (clients taking brotli
 * see the new page, others the old) or, while removing, a file without its encodings; never a torn or mixed object,
 * and never encodings without a file that the next write or prune would not find. The publisher deletes the change feed's rows only after every write of the
 * pass has resolved, so the page is written again (by this publisher after a failure, by any after a crash).
 */
import { createHash } from 'node:crypto';
import {
  DeleteObjectCommand, DeleteObjectsCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand,
} from '@aws-sdk/client-s3';
import { cacheControlOf, compressedSiblingsAsync, contentTypeOf } from '../../src/lib/site-files.ts';
import { ENCODINGS, SHA256_METADATA, hasEncodings, isMissing, type PageBucket } from './page-bucket.ts';
import type { PageMeta, PageTarget } from './page-target.ts';

export interface S3TargetOptions {
  /** Files written at once (each is up to three requests); the rest wait their turn. */
  concurrency?: number;
}

export function createS3Target(bucket: PageBucket, options: S3TargetOptions = {}): PageTarget {
  const { client, bucket: Bucket } = bucket;
  const limit = semaphore(options.concurrency ?? 16);

  /** The SHA-256 an object says it was made from, '' when it has none, null when there is no such object. */
  async function digestOf(Key: string): Promise<string | null> {
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket, Key }));
      return head.Metadata?.[SHA256_METADATA] ?? '';
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function put(Key: string, Body: Buffer, file: string, sha256: string, coding?: string): Promise<void> {
    await client.send(new PutObjectCommand({
      Bucket, Key, Body,
      ContentType: contentTypeOf(file),
      CacheControl: cacheControlOf(file),
      ...(coding ? { ContentEncoding: coding } : {}),
      Metadata: { [SHA256_METADATA]: sha256 },
    }));
  }

  async function write(file: string, bytes: Buffer, meta: PageMeta): Promise<boolean> {
    const key = bucket.key(file);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const encoded = hasEncodings(file);
    const keys = [key, ...(encoded ? ENCODINGS.map((e) => key + e.suffix) : [])];
    const digests = await Promise.all(keys.map(digestOf));
    if (digests.every((d) => d === sha256)) return false;
    if (encoded) {
      const { br, gz } = meta.encodings ?? (await compressedSiblingsAsync(bytes, meta));
      await Promise.all([put(key + '.br', br, file, sha256, 'br'), put(key + '.gz', gz, file, sha256, 'gzip')]);
    }
    await put(key, bytes, file, sha256);
    return true;
  }

  return {
    description: bucket.description,
    kind: 's3',
    async read(file) {
      try {
        const object = await client.send(new GetObjectCommand({ Bucket, Key: bucket.key(file) }));
        return Buffer.from(await object.Body!.transformToByteArray());
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    write: (file, bytes, meta = {}) => limit(() => write(file, bytes, meta)),
    async remove(file) {
      const key = bucket.key(file);
      if (hasEncodings(file)) {
        const result = await client.send(new DeleteObjectsCommand({
          Bucket, Delete: { Objects: ENCODINGS.map((e) => ({ Key: key + e.suffix })), Quiet: true },
        }));
        if (result.Errors?.length) throw new Error(`could not remove ${key}'s encodings: ${result.Errors.map((e) => `${e.Key} ${e.Code}`).join(', ')}`);
      }
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async list(prefix) {
      const files = new Set<string>();
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix: bucket.key(prefix), ContinuationToken }));
        for (const object of page.Contents ?? []) {
          const file = object.Key!.slice(bucket.prefix.length);
          const encoding = ENCODINGS.find((e) => file.endsWith(e.suffix) && hasEncodings(file.slice(0, -e.suffix.length)));
          files.add(encoding ? file.slice(0, -encoding.suffix.length) : file);
        }
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return [...files].filter((f) => f.startsWith(prefix));
    },
  };
}

/** At most `n` of the given tasks run at once; the others wait, first come first served. */
function semaphore(n: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    // A finished task hands its place straight to the next in line, so none can slip in between.
    if (running < n) running++;
    else await new Promise<void>((ok) => waiting.push(ok));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}
