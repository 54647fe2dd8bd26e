/**
 * The catalogue's part of a full build: every educator's files (api/publish/educator.ts, the publisher's own
 * rendering) written into a freshly built site, a chunk of educators at a time, so memory follows the chunk and
 * not the catalogue. The full build (full-build.ts) runs one of these per core, each in its own worker process
 * (build-worker.ts), and hands out the chunks.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Db } from '../../db/client.ts';
import { loadEducatorCatalogue } from '../../db/queries/pages.ts';
import { compressedSiblings, isCompressible } from '../static/files.ts';
import { createRenderer, type Renderer } from './render.ts';
import { siteFilePath } from './safe-paths.ts';
import { carouselCache, pagesOf, renderEducatorPage } from './educator.ts';

/**
 * Brotli quality of the pages a full build writes. The publisher writes few files and keeps 11; a build writes
 * tens of thousands, and at 11 compression alone would take ~130 ms a page. Measured on a course page (38 KB):
 * quality 5 takes about a fifth of the time of 6 for 2–3 % more bytes (docs/benchmarks.md, "Static build").
 */
export const BUILD_PAGE_BROTLI_QUALITY = 5;

export interface ChunkReport {
  educators: number;
  /** Files written (HTML, JSON, XML, text). */
  files: number;
  /** HTML pages among them. */
  pages: number;
}

export interface SiteBuilder {
  renderChunk(educatorIds: ReadonlyArray<string>): Promise<ChunkReport>;
  close(): Promise<void>;
}

export async function createSiteBuilder(options: { db: Db; distDir: string; now: number; brotliQuality?: number }): Promise<SiteBuilder> {
  const { db, now } = options;
  const clientDir = resolve(options.distDir, 'client');
  const brotliQuality = options.brotliQuality ?? BUILD_PAGE_BROTLI_QUALITY;
  const renderer: Renderer = await createRenderer(options.distDir);
  const categories = await db.selectFrom('categories').select(['id', 'slug']).execute();
  const categorySlug = new Map(categories.map((c) => [c.id, c.slug]));
  const carousels = carouselCache(db, now);

  return {
    async renderChunk(educatorIds) {
      const report: ChunkReport = { educators: 0, files: 0, pages: 0 };
      const data = await loadEducatorCatalogue(db, educatorIds, now);
      await carousels.fill(data, (id) => categorySlug.get(id));
      // An educator's folders are its own: remembered for the chunk only, so memory does not grow with the catalogue.
      const folders = new Set<string>();
      // The folder is new and nobody serves it yet: plain writes, no write-beside-and-rename as the publisher
      // needs, each folder made once, and compression in this thread (one worker per core keeps the cores busy;
      // handing small jobs to libuv's threads cost more than they saved, measured).
      const write = (file: string, body: string) => {
        // Never outside the site (renderEducatorPage already keeps each file in its educator's folders).
        const path = siteFilePath(clientDir, file);
        const folder = dirname(path);
        if (!folders.has(folder)) {
          mkdirSync(folder, { recursive: true });
          folders.add(folder);
        }
        const data = Buffer.from(body);
        writeFileSync(path, data);
        if (isCompressible(path, data.length)) {
          const { br, gz } = compressedSiblings(data, { brotliQuality });
          writeFileSync(`${path}.br`, br);
          writeFileSync(`${path}.gz`, gz);
        }
        report.files++;
        if (file.endsWith('.html')) report.pages++;
      };
      for (const model of data.educators) {
        const courseBySlug = new Map(model.courses.map((c) => [c.course.slug, c]));
        for (const page of pagesOf(model)) {
          for (const [file, body] of await renderEducatorPage(renderer, db, page, model, data, now, courseBySlug)) write(file, body);
        }
        report.educators++;
      }
      return report;
    },
    close: () => renderer.close(),
  };
}
