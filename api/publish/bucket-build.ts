/**
 * The full build's steps that only a bucket needs (PUBLISH_TARGET=s3://…; full-build.ts). On disk, `astro build`
 * starts from an empty dist/client and the workers write the educators' pages into it. With a bucket:
 *
 * 1. the moment the build starts is read from the bucket's own clock (an object's Last-Modified), so that nothing
 *    a publisher writes while the build runs is taken for a leftover;
 * 2. what `astro build` wrote into dist/client is uploaded, all but the HTML pages first (fingerprinted scripts and
 *    styles, images: what pages refer to), then the workers write every educator's pages straight to the bucket,
 *    then the HTML pages of dist/client — so no page is published before what it loads. The build's own `.br`/`.gz`
 *    files are uploaded as the encodings (nothing is compressed twice); an unchanged file is not uploaded again;
 * 3. what the build did not write and nobody wrote since it started is removed: pages of educators, courses and
 *    categories that no longer exist (after a restore, say). Fingerprinted assets (`_astro/`) stay: pages still
 *    cached by browsers and the CDN refer to the previous build's (and an unchanged asset is never uploaded again, so
 *    its age says nothing about whether it is still used).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DeleteObjectCommand, HeadObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { ENCODINGS, hasEncodings, type PageBucket } from './page-bucket.ts';
import type { PageTarget } from './page-target.ts';

/** Files uploaded together; each goes through the target's own limit on requests in flight. */
const UPLOAD_BATCH = 64;

/** The bucket's clock now: the Last-Modified of an object written for the purpose (and removed). */
export async function bucketClock(bucket: PageBucket): Promise<Date> {
  const Key = bucket.key(`.build-clock-${process.pid}-${Date.now()}`);
  await bucket.client.send(new PutObjectCommand({ Bucket: bucket.bucket, Key, Body: '' }));
  try {
    const head = await bucket.client.send(new HeadObjectCommand({ Bucket: bucket.bucket, Key }));
    return head.LastModified ?? new Date();
  } finally {
    await bucket.client.send(new DeleteObjectCommand({ Bucket: bucket.bucket, Key }));
  }
}

/** Every file of a folder (relative names, `/`-separated), encodings left out. */
async function filesOf(root: string, dir = ''): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(join(root, dir), { withFileTypes: true })) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await filesOf(root, rel)));
    else if (!ENCODINGS.some((e) => entry.name.endsWith(e.suffix) && hasEncodings(entry.name.slice(0, -e.suffix.length)))) out.push(rel);
  }
  return out;
}

/**
 * Uploads the files of a built folder that `which` picks, with the encodings the build made beside them (or made
 * now, for files too small to have had any). Returns the names written or already there.
 */
export async function uploadBuiltFiles(clientDir: string, target: PageTarget, which: (file: string) => boolean): Promise<string[]> {
  const files = (await filesOf(clientDir)).filter(which);
  for (let i = 0; i < files.length; i += UPLOAD_BATCH) {
    await Promise.all(files.slice(i, i + UPLOAD_BATCH).map(async (file) => {
      const path = join(clientDir, file);
      const bytes = await readFile(path);
      const [br, gz] = hasEncodings(file)
        ? await Promise.all(ENCODINGS.map((e) => readFile(path + e.suffix).catch(() => null)))
        : [null, null];
      await target.write(file, bytes, br && gz ? { encodings: { br, gz } } : {});
    }));
  }
  return files;
}

/**
 * Removes the files under the bucket's prefix that are not in `keep`, none of whose objects was written since
 * `startedAt` (the bucket's clock), outside `_astro/`. Returns their names.
 */
export async function pruneBucket(bucket: PageBucket, target: PageTarget, keep: ReadonlySet<string>, startedAt: Date): Promise<string[]> {
  const newest = new Map<string, number>();
  let ContinuationToken: string | undefined;
  do {
    const page = await bucket.client.send(new ListObjectsV2Command({ Bucket: bucket.bucket, Prefix: bucket.prefix, ContinuationToken }));
    for (const object of page.Contents ?? []) {
      const key = object.Key!.slice(bucket.prefix.length);
      const encoding = ENCODINGS.find((e) => key.endsWith(e.suffix) && hasEncodings(key.slice(0, -e.suffix.length)));
      const file = encoding ? key.slice(0, -encoding.suffix.length) : key;
      const modified = object.LastModified?.getTime() ?? Number.POSITIVE_INFINITY;
      newest.set(file, Math.max(newest.get(file) ?? 0, modified));
    }
    ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (ContinuationToken);
  const stale = [...newest].filter(([file, modified]) => !keep.has(file) && !file.startsWith('_astro/') && modified < startedAt.getTime()).map(([file]) => file);
  for (let i = 0; i < stale.length; i += UPLOAD_BATCH) await Promise.all(stale.slice(i, i + UPLOAD_BATCH).map((file) => target.remove(file)));
  return stale;
}
