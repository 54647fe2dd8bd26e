/**
 * Where the publisher and the full build write the site's pages: one interface, so neither branches on where the
 * pages go. Two kinds:
 *
 * - a folder (the default, DIST_DIR/client), served by the Node server (api/http/static.ts) or any static host;
 * - an S3-compatible bucket (PUBLISH_TARGET=s3://bucket/prefix, api/publish/s3-target.ts), read by every machine's
 *   Node server and by a CDN, so two machines never serve different versions of a page.
 *
 * Names are a file's path in the site (`minisite/clay/index.html`), already checked by the caller to stay in its
 * folders (api/publish/safe-paths.ts `siteKey`). Each text file is published with its brotli and gzip encodings
 * (`{file}.br`, `{file}.gz`), and **the encodings are written before the file itself, and removed before it**: the
 * file (the "identity" copy) is the commit point. A reader never sees a torn file (a rename on disk, a PUT in a
 * bucket, is atomic); a crash part-way leaves at worst new encodings beside the previous file, and the change feed
 * row that asked for the page is not deleted until `write` has resolved for every file, so the page is written again.
 */
import { readdir, readFile } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { compressedSiblings, isCompressible, removeSiteFile, writeSiteFile, type CompressOptions } from '../../src/lib/site-files.ts';
import { siteFilePath } from './safe-paths.ts';

/**
 * Brotli quality of the pages the full build and the publisher write. Quality 11 costs ~130 ms of CPU for a 28 KB page
 * against ~1.5 ms at 5, for ~10 % fewer bytes: a build writes tens of thousands of pages, and an admin's save waits for
 * the publisher's (docs/benchmarks.md, "Static build" and "Admin saves"). One quality for both, so a page the
 * publisher rewrites has the very encodings a full build gives it.
 */
export const PAGE_BROTLI_QUALITY = 5;

export interface PageMeta extends CompressOptions {
  /** Encodings made already (the build's own `.br`/`.gz` files), used as they are instead of compressing again. */
  encodings?: { br: Buffer; gz: Buffer };
}

export interface PageTarget {
  /** Where the pages go, for logs: a folder, or `s3://bucket/prefix`. */
  readonly description: string;
  /** Whether this is the Node server's own folder (api/app.ts serves that from disk, a bucket through its reader). */
  readonly kind: 'directory' | 's3';
  /** The bytes published under `file` now, or null. */
  read(file: string): Promise<Buffer | null>;
  /**
   * Publishes `file` with its encodings (the encodings first, the file last). Resolves once every object is
   * written, or at once with false when exactly these bytes are published already; true when written.
   */
  write(file: string, bytes: Buffer, meta?: PageMeta): Promise<boolean>;
  /** Removes `file` and its encodings (the encodings first). */
  remove(file: string): Promise<void>;
  /**
   * The published files whose name starts with `prefix` (`courses/` for a folder, `sitemap-` for names at the top),
   * encodings left out (a file whose encodings outlived it — a crash while removing it — is listed too, so removing
   * it again finishes the job).
   */
  list(prefix: string): Promise<string[]>;
}

export interface DirectoryTargetOptions {
  /**
   * A folder nobody serves yet (a full build's fresh output): plain synchronous writes, each folder made once and
   * compression in this thread, no read-compare and no write-beside-and-rename. One worker per core keeps the cores
   * busy; handing small jobs to libuv's threads cost more than they saved (measured).
   */
  fresh?: boolean;
}

/** The site's folder (dist/client). Its writes are the ones src/lib/site-files.ts always made. */
export function createDirectoryTarget(root: string, options: DirectoryTargetOptions = {}): PageTarget {
  const clientDir = resolve(root);
  const folders = new Set<string>();
  const pathOf = (file: string) => siteFilePath(clientDir, file);

  function writeFresh(file: string, bytes: Buffer, meta: PageMeta): boolean {
    const path = pathOf(file);
    const folder = dirname(path);
    if (!folders.has(folder)) {
      mkdirSync(folder, { recursive: true });
      folders.add(folder);
    }
    writeFileSync(path, bytes);
    if (isCompressible(path, bytes.length)) {
      const { br, gz } = meta.encodings ?? compressedSiblings(bytes, meta);
      writeFileSync(`${path}.br`, br);
      writeFileSync(`${path}.gz`, gz);
    }
    return true;
  }

  return {
    description: clientDir,
    kind: 'directory',
    async read(file) {
      return readFile(pathOf(file)).catch(() => null);
    },
    async write(file, bytes, meta = {}) {
      if (options.fresh) return writeFresh(file, bytes, meta);
      const path = pathOf(file);
      const current = await readFile(path).catch(() => null);
      if (current && current.equals(bytes)) return false;
      await writeSiteFile(path, bytes, meta);
      return true;
    },
    async remove(file) {
      await removeSiteFile(pathOf(file));
    },
    async list(prefix) {
      const out: string[] = [];
      // Only the folders a name with this prefix can be in are read: `sitemap-` reads the top folder alone.
      const slash = prefix.lastIndexOf('/');
      const base = slash < 0 ? '' : prefix.slice(0, slash);
      const start = prefix.slice(slash + 1);
      const walk = async (dir: string, only: string) => {
        const entries = await readdir(join(clientDir, dir), { withFileTypes: true }).catch(() => []);
        for (const entry of entries) {
          if (!entry.name.startsWith(only)) continue;
          const rel = dir ? `${dir}/${entry.name}` : entry.name;
          if (entry.isDirectory()) await walk(rel, '');
          else if (!/\.(br|gz|tmp)$/.test(entry.name)) out.push(rel);
        }
      };
      await walk(base, start);
      return out;
    },
  };
}
