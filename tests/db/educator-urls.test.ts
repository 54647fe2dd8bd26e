/**
 * URLs an educator sets are http(s) or site-relative only: the database refuses `javascript:` and every other
 * scheme in the cover, the logo, course images, a course's automatic image, collection images and profile links
 * on every write, whoever writes (migration 0161); and a value written before the rule is dropped by the read
 * model the pages render from (src/domain/urls.ts), so it never reaches a page. SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { loadCatalogue } from '../../db/seed/load.ts';
import { loadEducatorCatalogue } from '../../db/queries/pages.ts';
import { listHomeEducators } from '../../db/queries/home.ts';
import { down as dropUrlRule, up as addUrlRule } from '../../db/migrations/0161_educator_urls.ts';
import { isSafeLink, isSafeUrl } from '../../src/domain/urls.ts';

const NOW = Date.UTC(2026, 0, 15) / 1000;
let t: TestDb;
let educatorId: string;
let courseId: string;
let collectionId: string;

beforeAll(async () => {
  t = await createTestDb();
  // Every showcase educator and a few generated ones: the demo catalogue keeps the rules.
  await loadCatalogue(t.db, { seed: 1, educators: 40, now: NOW });
  educatorId = (await t.db.selectFrom('educators').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
  courseId = (await t.db.selectFrom('courses').select('id').where('educator_id', '=', educatorId).where('published', '=', true).orderBy('id').executeTakeFirstOrThrow()).id;
  collectionId = (await t.db.selectFrom('collections').select('id').where('educator_id', '=', educatorId).orderBy('id').executeTakeFirstOrThrow()).id;
});
afterAll(async () => {
  await t?.close();
});

const BAD = ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', 'vbscript:x', '//evil.example/x.png', '/\\evil.example', '/\t/evil.example', ' javascript:alert(1)', 'https://', 'ftp://files.example/x.png', 'images/x.png'];
const GOOD = ['https://cdn.example/x.png', 'http://cdn.example/x.png', '/images/covers/pottery.svg', 'HTTPS://CDN.EXAMPLE/X.PNG'];
const BAD_LINKS = ['javascript:alert(1)', 'JAVASCRIPT:alert(1)', ' javascript:alert(1)', 'data:text/html,x', 'mailto:x@example.com', '//evil.example', 'java\nscript:alert(1)'];
// Text that is no address at all is harmless (ignored when rendering, spec 8); the demo catalogue has one.
const GOOD_LINKS = ['https://www.facebook.com/x', 'clayandkiln.example', 'www.example.com/path?x=1', 'not a url'];

describe('the rule', () => {
  it('accepts only http(s) and site-relative URLs; links may also be a bare web address', () => {
    for (const url of BAD) expect(isSafeUrl(url), url).toBe(false);
    for (const url of GOOD) expect(isSafeUrl(url), url).toBe(true);
    for (const url of BAD_LINKS) expect(isSafeLink(url), url).toBe(false);
    for (const url of GOOD_LINKS) expect(isSafeLink(url), url).toBe(true);
  });
});

describe('the database refuses unsafe URLs, whoever writes', () => {
  const writes: Array<[string, (url: string) => Promise<unknown>]> = [
    ['educators.cover_url', (url) => sql`update educators set cover_url = ${url} where id = ${educatorId}`.execute(t.db)],
    ['educators.logo_url', (url) => sql`update educators set logo_url = ${url} where id = ${educatorId}`.execute(t.db)],
    ['collections.image_url', (url) => sql`update collections set image_url = ${url} where id = ${collectionId}`.execute(t.db)],
    ['courses.img_urls', (url) => sql`update courses set img_urls = ${JSON.stringify(['/images/courses/ok.svg', url])} where id = ${courseId}`.execute(t.db)],
    ['courses.autoimg', (url) => sql`update courses set autoimg = ${JSON.stringify({ url, author: 'A' })} where id = ${courseId}`.execute(t.db)],
  ];

  it.each(writes)('%s', async (name, write) => {
    for (const url of BAD) await expect(write(url), `${name} ${JSON.stringify(url)}`).rejects.toThrow();
    for (const url of GOOD) await write(url);
  });

  it('educators.links', async () => {
    const write = (links: object) => sql`update educators set links = ${JSON.stringify(links)} where id = ${educatorId}`.execute(t.db);
    for (const url of BAD_LINKS) {
      await expect(write({ web: 'https://ok.example' }).then(() => write({ facebook: url })), JSON.stringify(url)).rejects.toThrow();
    }
    for (const url of GOOD_LINKS) await write({ web: url, facebook: null, instagram: '' });
  });

  it('refuses a new educator with a javascript: cover', async () => {
    const row = await t.db.selectFrom('educators').selectAll().where('id', '=', educatorId).executeTakeFirstOrThrow();
    await expect(t.db.insertInto('educators').values({ ...row, id: 'edu_js', slug: 'edu-js', cover_url: 'javascript:alert(1)' }).execute()).rejects.toThrow();
    expect(await t.db.selectFrom('educators').select('id').where('id', '=', 'edu_js').executeTakeFirst()).toBeUndefined();
  });
});

describe('a value from before the rule never reaches a page', () => {
  it('the pages\' read model drops unsafe URLs', async () => {
    await dropUrlRule(t.db);
    try {
      await sql`update educators set cover_url = ${'javascript:alert(1)'}, logo_url = ${'javascript:alert(2)'},
        links = ${JSON.stringify({ web: 'javascript:alert(3)', facebook: 'https://www.facebook.com/ok' })} where id = ${educatorId}`.execute(t.db);
      await sql`update courses set img_urls = ${JSON.stringify(['javascript:alert(4)', '/images/courses/ok.svg'])},
        autoimg = ${JSON.stringify({ url: 'javascript:alert(5)', author: 'A' })} where id = ${courseId}`.execute(t.db);
      await sql`update collections set image_url = ${'javascript:alert(6)'}, published = ${t.dialect === 'sqlite' ? 1 : true} where id = ${collectionId}`.execute(t.db);

      const data = await loadEducatorCatalogue(t.db, [educatorId], NOW);
      const model = data.educators[0]!;
      expect(model.educator.cover_url).toBeNull();
      expect(model.educator.logo_url).toBeNull();
      expect(model.educator.links).toEqual({ facebook: 'https://www.facebook.com/ok' });
      const course = model.courses.find((c) => c.course.id === courseId)!;
      expect(course.course.img_urls).toEqual(['/images/courses/ok.svg']);
      expect(course.course.autoimg).toBeNull();
      expect(JSON.stringify(data)).not.toContain('javascript:');
      const home = await listHomeEducators(t.db);
      expect(home.find((e) => e.id === educatorId)?.logo_url).toBeNull();
    } finally {
      await sql`update educators set cover_url = null, logo_url = null, links = ${'{}'} where id = ${educatorId}`.execute(t.db);
      await sql`update courses set img_urls = ${'[]'}, autoimg = null where id = ${courseId}`.execute(t.db);
      await sql`update collections set image_url = null where id = ${collectionId}`.execute(t.db);
      await addUrlRule(t.db);
    }
  });
});
