/**
 * A local S3-compatible server for tests (@20minutes/s3rver, in this process, its objects in a temporary folder)
 * with one bucket, and an SDK client for it configured as the product configures its own (api/publish/page-bucket.ts).
 *
 * s3rver checks signatures against a canonical request of its own that differs from the SDK's for bucket-level
 * requests (it signs `/bucket` where the SDK signs `/bucket/`), so signatures are not checked: the SDK signs as it
 * would for S3, and the tests are about what is stored and served, not about AWS's signing. Its listing pages past
 * 1,000 keys with a DES-encrypted continuation token, which Node's OpenSSL 3 refuses without
 * --openssl-legacy-provider: tests keep each listing under 1,000 keys. FAKE_S3_LOG=1 prints its request log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from '@20minutes/s3rver';
import { GetObjectCommand, HeadObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { pageBucketOf, type PageBucket } from '../../api/publish/page-bucket.ts';
import type { PageTargetSettings } from '../../api/config.ts';

export interface FakeS3 {
  endpoint: string;
  bucket: string;
  /** The settings (environment variables) that point the product at this server's bucket under `prefix`. */
  env(prefix?: string): Record<string, string>;
  /** The product's view of the bucket under `prefix`. */
  pages(prefix?: string): PageBucket;
  client: S3Client;
  /** Every key under a prefix, sorted. */
  keys(prefix?: string): Promise<string[]>;
  /** An object's bytes and headers, or null. */
  get(key: string): Promise<{ body: Buffer; contentType?: string; contentEncoding?: string; cacheControl?: string; sha256?: string; etag?: string } | null>;
  head(key: string): Promise<{ sha256?: string; lastModified?: Date } | null>;
  close(): Promise<void>;
}

export async function startFakeS3(bucket = 'site'): Promise<FakeS3> {
  const directory = mkdtempSync(join(tmpdir(), 'fake-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: !process.env.FAKE_S3_LOG, directory, allowMismatchedSignatures: true, configureBuckets: [{ name: bucket }] });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const env = (prefix = ''): Record<string, string> => ({
    PUBLISH_TARGET: `s3://${bucket}/${prefix}`,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
  });
  const settings = (prefix = ''): PageTargetSettings => ({
    PUBLISH_TARGET: `s3://${bucket}/${prefix}`, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: true,
    S3_REQUEST_CHECKSUMS: 'when_supported', AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER', AWS_SESSION_TOKEN: '',
  });
  const pages = (prefix = '') => pageBucketOf(settings(prefix))!;
  const client = pages().client;
  const missing = (e: unknown) => (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404;
  return {
    endpoint,
    bucket,
    env,
    pages,
    client,
    async keys(prefix = '') {
      const out: string[] = [];
      let ContinuationToken: string | undefined;
      do {
        const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken }));
        for (const o of page.Contents ?? []) out.push(o.Key!);
        ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (ContinuationToken);
      return out.sort();
    },
    async get(Key) {
      try {
        const o = await client.send(new GetObjectCommand({ Bucket: bucket, Key }));
        return {
          body: Buffer.from(await o.Body!.transformToByteArray()), contentType: o.ContentType, contentEncoding: o.ContentEncoding,
          cacheControl: o.CacheControl, sha256: o.Metadata?.sha256, etag: o.ETag,
        };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async head(Key) {
      try {
        const o = await client.send(new HeadObjectCommand({ Bucket: bucket, Key }));
        return { sha256: o.Metadata?.sha256, lastModified: o.LastModified };
      } catch (error) {
        if (missing(error)) return null;
        throw error;
      }
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
