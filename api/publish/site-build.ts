/**
 * The catalogue's part of a full build: every educator's files (api/publish/educator.ts, the publisher's own
 * rendering) written into a freshly built site — or the pages' bucket (PUBLISH_TARGET) — a chunk of educators at a
 * time, so memory follows the chunk and not the catalogue. The full build (full-build.ts) runs one of these per core,
 * each in its own worker process (build-worker.ts), and hands out the chunks.
 */
import { resolve } from 'node:path';
import type { Db } from '../../db/client.ts';
import { loadEducatorCatalogue } from '../../db/queries/pages.ts';
import { createRenderer, type Renderer } from './render.ts';
import { siteKey } from './safe-paths.ts';
import { createDirectoryTarget, PAGE_BROTLI_QUALITY, type PageTarget } from './page-target.ts';
import { pagesOf, renderEducatorPage } from './educator.ts';
import { carouselCache } from './carousels.ts';

export interface ChunkReport {
  educators: number;
  /** Files written (HTML, JSON, XML, text). */
  files: number;
  /** HTML pages among them. */
  pages: number;
  /** The files' names, when asked for (`listFiles`): a build to a bucket removes what it did not write. */
  names?: string[];
}

export interface SiteBuilder {
  renderChunk(educatorIds: ReadonlyArray<string>): Promise<ChunkReport>;
  close(): Promise<void>;
}

export interface SiteBuilderOptions {
  db: Db;
  distDir: string;
  now: number;
  brotliQuality?: number;
  /**
   * Where the files go: by default the fresh dist/client (plain writes, each folder made once, compression in this
   * thread: one worker per core keeps the cores busy, and handing small jobs to libuv's threads cost more than they
   * saved, measured); a bucket's target writes several files at once (api/publish/s3-target.ts).
   */
  target?: PageTarget;
  /** Report the names of the files written (ChunkReport.names). */
  listFiles?: boolean;
}

export async function createSiteBuilder(options: SiteBuilderOptions): Promise<SiteBuilder> {
  const { db, now } = options;
  const target = options.target ?? createDirectoryTarget(resolve(options.distDir, 'client'), { fresh: true });
  const brotliQuality = options.brotliQuality ?? PAGE_BROTLI_QUALITY;
  const renderer: Renderer = await createRenderer(options.distDir);
  const categories = await db.selectFrom('categories').select(['id', 'slug']).execute();
  const categorySlug = new Map(categories.map((c) => [c.id, c.slug]));
  const carousels = carouselCache(db, now);

  return {
    async renderChunk(educatorIds) {
      const report: ChunkReport = { educators: 0, files: 0, pages: 0, ...(options.listFiles ? { names: [] } : {}) };
      const data = await loadEducatorCatalogue(db, educatorIds, now);
      await carousels.fill(data, (id) => categorySlug.get(id));
      // Writes still under way (a bucket's); the chunk is done when every one of them is.
      const writing: Promise<boolean>[] = [];
      const write = (file: string, body: string) => {
        // Never outside the site (renderEducatorPage already keeps each file in its educator's folders).
        const name = siteKey(file);
        const written = target.write(name, Buffer.from(body), { brotliQuality });
        // Awaited with the others below; a failure meanwhile is not an unhandled rejection.
        written.catch(() => undefined);
        writing.push(written);
        report.names?.push(name);
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
      await Promise.all(writing);
      return report;
    },
    close: () => renderer.close(),
  };
}
