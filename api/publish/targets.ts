/** The pages' target a process's settings name (api/config.ts PUBLISH_TARGET): the bucket, or the site's folder. */
import { resolve } from 'node:path';
import type { PageTargetSettings } from '../config.ts';
import { pageBucketOf } from './page-bucket.ts';
import { createDirectoryTarget, type DirectoryTargetOptions, type PageTarget } from './page-target.ts';
import { createS3Target } from './s3-target.ts';

export function pageTargetFor(settings: PageTargetSettings, distDir: string, options: DirectoryTargetOptions = {}): PageTarget {
  const bucket = pageBucketOf(settings);
  return bucket ? createS3Target(bucket) : createDirectoryTarget(resolve(distDir, 'client'), options);
}
