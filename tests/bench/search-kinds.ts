/**
 * npm run bench:search-kinds — what each kind of bench:search's mix costs alone: every path of the kind searched one
 * at a time (searchCoursesJson, what the API answers, without HTTP), the least of 7 tries after 2, then the mean and
 * the largest over the kind's paths. On SQLite the process's CPU time (SQLite runs in it); on PostgreSQL the wall
 * time of the statements. A closed loop of 20 connections on a shared machine (bench:search) moves with the load;
 * one search at a time moves much less, and tells which kinds a loaded server waits behind.
 *
 * Runs on the catalogues bench:search keeps (build them with it first). Env: BENCH_ENGINES=sqlite,postgres
 * BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (an admin connection; the catalogue is its database
 * bench_search_10000) BENCH_EDUCATORS=10000, and BENCH_COMPARE=<another checkout> to time that checkout's search
 * beside this one's, interleaved (its db/client.ts and db/queries/search.ts, on the same catalogue).
 */
import { join, resolve } from 'node:path';
import { openDb } from '../../db/client.ts';
import { searchCoursesJson, type CourseSearchParams } from '../../db/queries/search.ts';
import { SEARCH_MIX } from './search-mix.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()).filter(Boolean);
const PG_ADMIN = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const EDUCATORS = Number(process.env.BENCH_EDUCATORS ?? 10_000);
const COMPARE = process.env.BENCH_COMPARE ? resolve(process.env.BENCH_COMPARE) : null;

type Search = typeof searchCoursesJson;
interface Side {
  name: string;
  db: ReturnType<typeof openDb>;
  search: Search;
}

function catalogueUrl(engine: string): string {
  if (engine === 'sqlite') return join('.tmp/bench-search', `catalogue-${EDUCATORS}.sqlite`);
  const url = new URL(PG_ADMIN);
  url.pathname = `/bench_search_${EDUCATORS}`;
  return url.toString();
}

function paramsOf(qs: string, educator: string): CourseSearchParams {
  const q = new URLSearchParams(qs.replace('{educator}', educator));
  const number = (key: string) => (q.has(key) ? Number(q.get(key)) : null);
  return {
    query: q.get('query'),
    sort: (q.get('sort') ?? 'relevance') as CourseSearchParams['sort'],
    page: number('page') ?? 1,
    size: number('size') ?? 24,
    categorySlug: q.get('category_slug'),
    educatorRefs: q.get('educator_ref')?.split(','),
    delivery: q.get('delivery')?.split(',') as CourseSearchParams['delivery'],
    priceMin: number('min_price'),
    priceMax: number('max_price'),
  };
}

async function timed(side: Side, params: CourseSearchParams, cpu: boolean, now: number): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  await side.search(side.db, params, { now, storeCards: false });
  const c = process.cpuUsage(c0);
  return cpu ? (c.user + c.system) / 1000 : performance.now() - t0;
}

async function benchEngine(engine: string): Promise<void> {
  const url = catalogueUrl(engine);
  const sides: Side[] = [{ name: 'this checkout', db: openDb({ url }), search: searchCoursesJson }];
  if (COMPARE) {
    const client = (await import(join(COMPARE, 'db/client.ts'))) as { openDb: typeof openDb };
    const search = (await import(join(COMPARE, 'db/queries/search.ts'))) as { searchCoursesJson: Search };
    sides.unshift({ name: COMPARE, db: client.openDb({ url }), search: search.searchCoursesJson });
  }
  try {
    const educator = (await sides[0].db.selectFrom('educators').select('id').orderBy('id').offset(100).limit(1).executeTakeFirstOrThrow()).id;
    const now = Math.floor(Date.now() / 1000);
    const cpu = engine === 'sqlite';
    console.log(`\n${engine} · ${cpu ? 'CPU' : 'wall'} ms per search, mean / largest of the kind's paths · ${sides.map((s) => s.name).join(' | ')}`);
    for (const { kind, paths } of SEARCH_MIX) {
      const best = sides.map(() => [] as number[]);
      for (const path of paths) {
        const params = paramsOf(path, educator);
        const least = sides.map(() => Number.POSITIVE_INFINITY);
        for (let i = 0; i < 9; i++) {
          for (const [s, side] of sides.entries()) {
            const ms = await timed(side, params, cpu, now);
            if (i >= 2) least[s] = Math.min(least[s], ms);
          }
        }
        least.forEach((ms, s) => best[s].push(ms));
      }
      const figure = (list: number[]) => `${(list.reduce((a, b) => a + b, 0) / list.length).toFixed(2)} / ${Math.max(...list).toFixed(2)}`;
      console.log(`  ${kind.padEnd(24)} ${best.map((list) => figure(list).padStart(16)).join('  ')}`);
    }
  } finally {
    for (const side of sides) await side.db.destroy();
  }
}

for (const engine of ENGINES) await benchEngine(engine);
