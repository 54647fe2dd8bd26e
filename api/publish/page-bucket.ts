/**
 * The pages' bucket (PUBLISH_TARGET=s3://bucket/prefix): the S3 client of the official SDK, made once per process
 * from the settings (api/config.ts), and what every object of the site carries. The publisher and the full build
 * write through api/publish/s3-target.ts; the Node server reads through api/http/bucket-static.ts.
 *
 * Layout (docs/static-hosting.md): the site's folder as it would be on disk under the prefix. A text file is three
 * objects, `{file}` and its encodings `{file}.br` and `{file}.gz`; every object carries the Content-Type and
 * Cache-Control of the file as the Node server sends them (src/lib/site-files.ts), an encoding its Content-Encoding,
 * and all three the SHA-256 of the file's bytes (`x-amz-meta-sha256`), so that what belongs together can be told.
 */
import { S3Client } from '@aws-sdk/client-s3';
import { parseBucketUrl, type BucketLocation, type PageTargetSettings } from '../config.ts';
import { isCompressibleType } from '../../src/lib/site-files.ts';

/** The encodings stored beside a text file, and their Content-Encoding. */
export const ENCODINGS = [
  { suffix: '.br', coding: 'br' },
  { suffix: '.gz', coding: 'gzip' },
] as const;

/** The metadata key (`x-amz-meta-sha256`) holding the SHA-256 (hex) of the file's own bytes on each of its objects. */
export const SHA256_METADATA = 'sha256';

export interface PageBucket extends BucketLocation {
  client: S3Client;
  /** The object key of a file of the site. */
  key(file: string): string;
  /** `s3://bucket/prefix`, for logs. */
  description: string;
}

/** Whether a file has encodings beside it: text, whatever its size (an edge rule chooses them by name alone). */
export function hasEncodings(file: string): boolean {
  return isCompressibleType(file);
}

const clients = new Map<string, S3Client>();

/** The bucket of PUBLISH_TARGET, or null when pages go to a folder. One client per process and settings. */
export function pageBucketOf(settings: PageTargetSettings): PageBucket | null {
  const location = settings.PUBLISH_TARGET ? parseBucketUrl(settings.PUBLISH_TARGET) : null;
  if (!location) return null;
  const id = JSON.stringify([settings.S3_ENDPOINT, settings.S3_REGION, settings.S3_FORCE_PATH_STYLE, settings.S3_REQUEST_CHECKSUMS, settings.AWS_ACCESS_KEY_ID, settings.AWS_SESSION_TOKEN]);
  let client = clients.get(id);
  if (!client) {
    const region = settings.S3_REGION || process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION || (settings.S3_ENDPOINT ? 'us-east-1' : undefined);
    client = new S3Client({
      ...(region ? { region } : {}),
      ...(settings.S3_ENDPOINT ? { endpoint: settings.S3_ENDPOINT } : {}),
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
      requestChecksumCalculation: settings.S3_REQUEST_CHECKSUMS === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      responseChecksumValidation: settings.S3_REQUEST_CHECKSUMS === 'when_required' ? 'WHEN_REQUIRED' : 'WHEN_SUPPORTED',
      // Static keys when given; otherwise the SDK's chain (environment, AWS_PROFILE, web identity, the instance's role).
      ...(settings.AWS_ACCESS_KEY_ID && settings.AWS_SECRET_ACCESS_KEY
        ? {
            credentials: {
              accessKeyId: settings.AWS_ACCESS_KEY_ID,
              secretAccessKey: settings.AWS_SECRET_ACCESS_KEY,
              ...(settings.AWS_SESSION_TOKEN ? { sessionToken: settings.AWS_SESSION_TOKEN } : {}),
            },
          }
        : {}),
    });
    clients.set(id, client);
  }
  return pageBucket(client, location);
}

export function pageBucket(client: S3Client, location: BucketLocation): PageBucket {
  return {
    ...location,
    client,
    key: (file) => `${location.prefix}${file}`,
    description: `s3://${location.bucket}/${location.prefix}`,
  };
}

/** Whether an SDK error is the service's "no such object" (404 on GET and HEAD). */
export function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}

/** Whether an SDK error is a conditional GET's 304 (the SDK has no class for it). */
export function isNotModified(error: unknown): boolean {
  return (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode === 304;
}
