/**
 * Slugs become paths of the built site, and the publisher refuses any that would leave its folder, even when the
 * database holds one (written before the database refused bad slugs, or by a program that got past it): a
 * course slug `../../../x` writes nothing outside the site, `../{other-educator}` does not replace another
 * educator's page, and an educator slug `..` never makes the prune step walk (and empty) the site's parent.
 *
 * The publisher renders through a stand-in for the built site's handler (dist/server/entry.mjs) that answers
 * each page with the educator and route it was asked for, so no build is needed and each page says whose it is.
 * SQLite by default; PostgreSQL when TEST_DATABASE_URL is set.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { down as dropSlugRule, up as addSlugRule } from '../../db/migrations/0160_slug_format.ts';
import { createPublisher } from '../../api/publish/publisher.ts';
import { renderEducatorPage } from '../../api/publish/educator.ts';
import { siteFilePath, UnsafeSitePathError } from '../../api/publish/safe-paths.ts';
import { loggerFor } from '../../api/log.ts';
import { loadEducatorCatalogue } from '../../db/queries/pages.ts';

const NOW = Math.floor(Date.UTC(2026, 0, 15) / 1000);
let t: TestDb;
let work: string;
let distDir: string;
let clientDir: string;
let a: { id: string; slug: string; course: { id: string; slug: string } };
let b: { id: string; slug: string; course: { id: string; slug: string } };

/** A stand-in for the built site's handler: each page says which educator and route it was rendered for. */
const FAKE_ENTRY = `
export function handler(req, res, next, locals) {
  const job = locals && locals.publishRender;
  if (!job) return next();
  const props = job.props || {};
  const educator = props.model && props.model.educator ? props.model.educator.slug : '-';
  res.statusCode = 200;
  res.setHeader('content-type', 'text/html');
  res.end('<!doctype html><p>' + req.url + ' of ' + educator + '</p>');
}
`;

function filesUnder(dir: string, out: string[] = []): string[] {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) filesUnder(path, out);
    else out.push(path);
  }
  return out;
}

async function educatorWithCourse(offset: number) {
  const e = await t.db.selectFrom('educators').select(['id', 'slug']).orderBy('id').offset(offset).limit(1).executeTakeFirstOrThrow();
  const c = await t.db.selectFrom('courses').select(['id', 'slug']).where('educator_id', '=', e.id).where('published', '=', true).orderBy('id').limit(1).executeTakeFirstOrThrow();
  return { ...e, course: c };
}

function publisher() {
  return createPublisher({
    db: t.db, dialect: t.dialect, distDir, log: loggerFor({ LOG_LEVEL: 'silent' }),
    now: () => Math.floor(Date.now() / 1000), pagesNow: () => NOW, batchMs: 0, leaseSeconds: 30,
  });
}

beforeAll(async () => {
  t = await createTestDb();
  await loadCatalogue(t.db, { seed: 1, educators: 3, now: NOW });
  a = await educatorWithCourse(0);
  b = await educatorWithCourse(1);
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'publish-paths-'));
  distDir = join(work, 'site', 'dist');
  clientDir = join(distDir, 'client');
  mkdirSync(join(distDir, 'server'), { recursive: true });
  mkdirSync(clientDir, { recursive: true });
  writeFileSync(join(distDir, 'server', 'entry.mjs'), FAKE_ENTRY);
  // A database from before the rule (or written past it): the publisher is the last line.
  await dropSlugRule(t.db);
});

afterAll(async () => {
  await addSlugRule(t.db).catch(() => undefined);
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

beforeEach(async () => {
  await t.db.deleteFrom('page_changes').execute();
  // Files around the site that nothing may touch.
  writeFileSync(join(work, 'outside.txt'), 'outside');
  writeFileSync(join(work, 'site', 'beside-dist.txt'), 'beside');
  mkdirSync(join(clientDir, 'courses'), { recursive: true });
  writeFileSync(join(clientDir, 'courses', 'sentinel.html'), 'sentinel');
});

describe('the publisher refuses paths outside its folder', () => {
  it('a course slug ../../../x writes nothing outside the site', async () => {
    await t.db.updateTable('courses').set({ slug: '../../../x' }).where('id', '=', a.course.id).execute();
    const p = publisher();
    await p.run();
    await p.close();
    const outside = filesUnder(work).filter((f) => !f.startsWith(`${clientDir}/`)).map((f) => relative(work, f)).sort();
    expect(outside).toEqual(['outside.txt', 'site/beside-dist.txt', 'site/dist/server/entry.mjs']);
    expect(existsSync(join(work, 'x'))).toBe(false);
    expect(existsSync(join(work, 'site', 'x'))).toBe(false);
    expect(p.lastReport?.failed).toBeGreaterThan(0);
    await t.db.updateTable('courses').set({ slug: a.course.slug }).where('id', '=', a.course.id).execute();
  });

  it("a course slug ../{other educator} does not replace the other educator's page", async () => {
    // The other educator's pages as they are published.
    await t.db.updateTable('educators').set({ name: 'First Educator' }).where('id', '=', a.id).execute();
    let p = publisher();
    await p.run();
    await p.close();
    const aboutOfA = join(clientDir, a.slug, 'index.html');
    const minisiteOfA = join(clientDir, 'minisite', a.slug, 'index.html');
    const before = [readFileSync(aboutOfA, 'utf8'), readFileSync(minisiteOfA, 'utf8')];
    expect(before[0]).toContain(`of ${a.slug}`);

    await t.db.deleteFrom('page_changes').execute();
    await t.db.updateTable('courses').set({ slug: `../${a.slug}` }).where('id', '=', b.course.id).execute();
    p = publisher();
    await p.run();
    await p.close();
    expect([readFileSync(aboutOfA, 'utf8'), readFileSync(minisiteOfA, 'utf8')]).toEqual(before);
    expect(filesUnder(join(clientDir, a.slug)).every((f) => readFileSync(f, 'utf8').includes(`of ${a.slug}`))).toBe(true);
    expect(p.lastReport?.failed).toBeGreaterThan(0);
    await t.db.updateTable('courses').set({ slug: b.course.slug }).where('id', '=', b.course.id).execute();
  });

  it('an educator slug .. never makes the prune step walk the site or its parent', async () => {
    const siteBefore = filesUnder(join(work, 'site')).sort();
    await t.db.updateTable('educators').set({ slug: '..' }).where('id', '=', b.id).execute();
    const p = publisher();
    await p.run();
    await p.close();
    expect(readFileSync(join(work, 'outside.txt'), 'utf8')).toBe('outside');
    expect(readFileSync(join(work, 'site', 'beside-dist.txt'), 'utf8')).toBe('beside');
    expect(readFileSync(join(clientDir, 'courses', 'sentinel.html'), 'utf8')).toBe('sentinel');
    expect(existsSync(join(distDir, 'server', 'entry.mjs'))).toBe(true);
    // Only the old slug's own folders may have gone.
    const gone = siteBefore.filter((f) => !existsSync(f)).map((f) => relative(clientDir, f));
    expect(gone.every((f) => f.startsWith(`${b.slug}/`) || f.startsWith(`minisite/${b.slug}/`) || f.startsWith(`embed/${b.slug}/`)), gone.join(', ')).toBe(true);
    await t.db.updateTable('educators').set({ slug: b.slug }).where('id', '=', b.id).execute();
  });
});

describe('the full build renders through the same guard', () => {
  it('refuses an educator file that would land outside its folders', async () => {
    const render = { render: async () => '<p>page</p>', close: async () => {} };
    const data = await loadEducatorCatalogue(t.db, [a.id], NOW);
    const model = data.educators[0]!;
    const course = model.courses[0]!;
    for (const file of ['../../../x/index.html', `${b.slug}/index.html`, `minisite/${b.slug}/index.html`]) {
      await expect(renderEducatorPage(render, t.db, { file, kind: 'about', context: 'marketplace' }, model, data, NOW, new Map())).rejects.toThrow(UnsafeSitePathError);
    }
    for (const courseSlug of ['..', '.', '../x', 'a/b']) {
      const page = { file: `minisite/${a.slug}/${courseSlug}/index.html`, kind: 'course' as const, context: 'minisite' as const, courseSlug };
      await expect(renderEducatorPage(render, t.db, page, model, data, NOW, new Map([[courseSlug, course]]))).rejects.toThrow(UnsafeSitePathError);
    }
    expect(siteFilePath(clientDir, 'courses/pottery/index.html', ['courses'])).toBe(join(clientDir, 'courses/pottery/index.html'));
    for (const file of ['../x', 'courses/../../x', '/etc/passwd', 'courses']) expect(() => siteFilePath(clientDir, file, ['courses']), file).toThrow(UnsafeSitePathError);
  });
});
