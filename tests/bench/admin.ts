/**
 * npm run bench:admin — the educator admin's bookings list at 100,000 bookings, through the real API, on SQLite and
 * PostgreSQL (docs/benchmarks.md "Admin bookings list").
 *
 * Seeds one educator with 100,000 bookings (20 courses × 30 dates, statuses, payment methods and states, origins,
 * 256 learner names; tests/helpers/admin-bookings-seed.ts) and three other educators with 20,000 each, once per engine
 * (kept: SQLite .tmp/bench-admin/admin.sqlite; PostgreSQL postgres://postgres@127.0.0.1:5432/test in the schema
 * `bench_admin`; BENCH_RESEED=1 builds it again). Then it starts the API on that database, signs in as the educator's
 * admin and asks every kind of question the list answers — each sort, each filter, filters with sorts, searches,
 * deep keyset pages, a booking's page — BENCH_ROUNDS times each, one request at a time, and prints p50 / p95 / max
 * per kind for each engine. Figures only, no assertions on time.
 *
 * Env: BENCH_ENGINES=sqlite,postgres  BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/test  BENCH_BOOKINGS=100000
 * BENCH_ROUNDS=100  BENCH_RESEED=1  BENCH_ANALYZE=0 (skip ANALYZE / VACUUM ANALYZE after seeding, to see a database that has none)
 */
import { mkdirSync, rmSync, existsSync } from 'node:fs';
import { execSync } from 'node:child_process';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDb, dialectOf, type Db } from '../../db/client.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { createApp } from '../../api/app.ts';
import { listen } from '../../api/http/node-server.ts';
import { loadConfig } from '../../api/config.ts';
import type { Deps } from '../../api/deps.ts';
import { createUser } from '../../api/auth/users.ts';
import { hashPassword } from '../../api/auth/crypto.ts';
import { seedBookings, FIRST_NAMES, LAST_NAMES, type SeedTarget } from '../helpers/admin-bookings-seed.ts';
import { percentile } from './server-process.ts';

const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',').map((e) => e.trim()).filter(Boolean);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'bench_admin';
const BOOKINGS = Number(process.env.BENCH_BOOKINGS ?? 100_000);
const OTHER_BOOKINGS = Math.round(BOOKINGS / 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 100);
const EDUCATOR = 'edu_bench_admin';
const OTHERS = ['edu_bench_other_1', 'edu_bench_other_2', 'edu_bench_other_3'];
const ADMIN_HOST = 'admin.localhost:4321';
const PASSWORD = 'bench admin password';
const MARK = `bench_admin_${BOOKINGS}`;

function educator(id: string, now: number) {
  return {
    id, slug: id.replace(/_/g, '-'), name: id, bio: '', cover_url: null, logo_url: null, address: null, phone_number: null, email: `${id}@example.com`,
    tos: '', cancellation_allowed: 7, can_be_contacted: true, claimed: true,
    feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
    third_party_codes: {}, vat_settings: { enabled: false, is_vat_absorbed: false, tax_label: null, rate_bp: 2000 }, color_brand: null, on_color_brand: null, whitelabelling_enabled: false, links: {}, working_hours: {},
    enquiry_types: [], form_ref: null, created_at: now,
  };
}

function course(id: string, educatorId: string, now: number) {
  return {
    id, educator_id: educatorId, slug: id.replace(/_/g, '-'), name: `Course ${id}`, created_at: now, level: 'All', description: '', meta_description: null,
    keyword: null, category_id: null, type: 'class' as const, delivery_modes: ['in-person'], currency: 'GBP', spaces: null, pricing_type: 'price-offers' as const,
    minimum_price: null, maximum_price: null, form_ref: 'system_default', guest_form_ref: null, capture_guests: false, approval_required: false,
    restricted: false, img_urls: [], autoimg: null, address: null, lat: null, lng: null, faq_ids: [], sections: [], course_duration: 120,
    duration_pricing: [], date_requests: null, available_for_online_delivery: false, available_for_in_person_delivery: true,
    educator_travel_settings: { enabled: false, type: null }, student_travel_settings: { enabled: false, locations: [] }, published: true,
  };
}

/** The educator's catalogue and its bookings (skipped when the kept database already has them). */
async function seed(db: Db, now: number): Promise<SeedTarget> {
  const target = (educatorId: string, courses: number, dates: number): SeedTarget => ({
    educatorId,
    courses: Array.from({ length: courses }, (_, c) => ({
      id: `crs_${educatorId}_${c}`,
      occurrences: Array.from({ length: dates }, (_, o) => ({ id: `occ_${educatorId}_${c}_${o}`, start: now - 200 * 86400 + (c * dates + o) * 43_200 })),
    })),
  });
  const main = target(EDUCATOR, 20, 30);
  const others = OTHERS.map((id) => target(id, 5, 20));
  const done = await db.selectFrom('catalogue_meta').select('value').where('key', '=', MARK).executeTakeFirst().catch(() => undefined);
  if (done && !process.env.BENCH_RESEED) return main;
  await db.insertInto('catalogue_meta').values({ key: 'page_changes_paused', value: '1' }).onConflict((oc) => oc.column('key').doNothing()).execute();
  await db.insertInto('educators').values([EDUCATOR, ...OTHERS].map((id) => educator(id, now))).execute();
  for (const t of [main, ...others]) {
    await db.insertInto('courses').values(t.courses.map((c) => course(c.id, t.educatorId, now))).execute();
    for (const c of t.courses) {
      await db.insertInto('occurrences').values(c.occurrences.map((o) => ({
        id: o.id, course_id: c.id, visibility: 'public', start_datetime: o.start, end_datetime: o.start + 7200, timezone: 'Europe/London',
        delivery: 'in-person' as const, address: null, spaces: 1000, available_spaces: 1000, parent_ref: null, individually_bookable: true,
      }))).execute();
    }
  }
  const started = Date.now();
  await seedBookings(db, main, BOOKINGS, { seed: 1, prefix: 'BKG-A', now });
  for (const [i, t] of others.entries()) await seedBookings(db, t, OTHER_BOOKINGS, { seed: 100 + i, prefix: `BKG-O${i}`, now });
  await db.deleteFrom('catalogue_meta').where('key', '=', 'page_changes_paused').execute();
  await db.deleteFrom('page_changes').execute();
  await db.insertInto('catalogue_meta').values({ key: MARK, value: String(now) }).execute();
  console.log(`  seeded ${BOOKINGS.toLocaleString('en-GB')} + ${(OTHER_BOOKINGS * OTHERS.length).toLocaleString('en-GB')} bookings in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  return main;
}

interface Kind {
  kind: string;
  /** The query string of round i (varied so the caches see different questions). */
  query: (i: number) => string;
}

function kinds(main: SeedTarget, now: number): Kind[] {
  const course = (i: number) => main.courses[i % main.courses.length]!;
  const occurrence = (i: number) => course(i).occurrences[(i * 7) % course(i).occurrences.length]!;
  const month = (i: number) => now - 200 * 86400 + (i % 10) * 30 * 86400;
  const first = (i: number) => FIRST_NAMES[i % FIRST_NAMES.length]!.toLowerCase();
  const last = (i: number) => LAST_NAMES[(i * 3) % LAST_NAMES.length]!.toLowerCase();
  return [
    { kind: 'default (newest first)', query: () => '' },
    { kind: 'sort: oldest first', query: () => 'sort=created-asc' },
    { kind: 'sort: date, soonest', query: () => 'sort=start-asc' },
    { kind: 'sort: date, latest', query: () => 'sort=start-desc' },
    { kind: 'sort: total, highest', query: () => 'sort=total-desc' },
    { kind: 'sort: total, lowest', query: () => 'sort=total-asc' },
    { kind: 'sort: learner A–Z', query: () => 'sort=name-asc' },
    { kind: 'sort: learner Z–A', query: () => 'sort=name-desc' },
    { kind: 'filter: course', query: (i) => `courseId=${course(i).id}` },
    { kind: 'filter: date (occurrence)', query: (i) => `occurrenceId=${occurrence(i).id}` },
    { kind: 'filter: date range (a month)', query: (i) => `from=${month(i)}&to=${month(i) + 30 * 86400}` },
    { kind: 'filter: status confirmed', query: () => 'status=confirmed' },
    { kind: 'filter: status awaiting approval', query: () => 'status=awaiting-approval' },
    { kind: 'filter: status cancelled', query: () => 'status=cancelled' },
    { kind: 'filter: method PayPal', query: () => 'paymentMethod=paypal' },
    { kind: 'filter: method gift card', query: () => 'paymentMethod=gift%20card' },
    { kind: 'filter: payment unpaid', query: () => 'paymentStatus=unpaid' },
    { kind: 'filter: payment free', query: () => 'paymentStatus=free' },
    { kind: 'filter: refunded', query: () => 'paymentStatus=refunded' },
    { kind: 'filter: origin embed', query: () => 'origin=embed' },
    { kind: 'filter: course + status + origin', query: (i) => `courseId=${course(i).id}&status=confirmed&origin=marketplace` },
    { kind: 'filter + sort: awaiting, learner A–Z', query: () => 'status=awaiting-approval&sort=name-asc' },
    { kind: 'filter + sort: refunded, total', query: () => 'paymentStatus=refunded&sort=total-desc' },
    { kind: 'filter + sort: course, date', query: (i) => `courseId=${course(i).id}&sort=start-asc` },
    { kind: 'filter + sort: unpaid, date latest', query: () => 'paymentStatus=unpaid&sort=start-desc' },
    { kind: 'filter + sort: embed, total lowest', query: () => 'origin=embed&sort=total-asc' },
    { kind: 'search: first name', query: (i) => `q=${first(i)}` },
    { kind: 'search: last name', query: (i) => `q=${last(i)}` },
    { kind: 'search: full name', query: (i) => `q=${encodeURIComponent(`${first(i)} ${last(i)}`)}` },
    { kind: 'search: two letters', query: (i) => `q=${first(i).slice(0, 2)}` },
    { kind: 'search: one letter', query: (i) => `q=${first(i).slice(0, 1)}` },
    { kind: 'search: e-mail', query: (i) => `q=${encodeURIComponent(`${first(i)}.${last(i)}.`)}` },
    { kind: 'search: no match', query: (i) => `q=zz${i}` },
    { kind: 'search + filter + sort', query: (i) => `q=${first(i)}&status=confirmed&sort=start-desc` },
  ];
}

interface Sample {
  kind: string;
  ms: number[];
}

async function timed(url: string, cookie: string): Promise<{ ms: number; body: { nextCursor?: string | null; bookings?: { id: string }[] } }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { cookie, host: ADMIN_HOST } });
  const body = await res.json() as { nextCursor?: string | null; bookings?: { id: string }[] };
  const ms = performance.now() - started;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
  return { ms, body };
}

async function runEngine(engine: string): Promise<Sample[]> {
  let url: string;
  let schema: string | undefined;
  if (engine === 'postgres') {
    url = PG_URL;
    schema = SCHEMA;
  } else {
    const dir = join('.tmp', 'bench-admin');
    mkdirSync(dir, { recursive: true });
    url = join(dir, 'admin.sqlite');
    if (process.env.BENCH_RESEED) for (const f of [url, `${url}-wal`, `${url}-shm`]) rmSync(f, { force: true });
  }
  const db = openDb({ url, schema });
  const dialect = dialectOf(url);
  const now = Math.floor(Date.now() / 1000);
  if (engine === 'postgres' && process.env.BENCH_RESEED) await sql.raw(`drop schema if exists ${SCHEMA} cascade; create schema ${SCHEMA}`).execute(db);
  await migrateToLatest(db);
  const main = await seed(db, now);
  // Statistics, as a database in use has them (SQLite: ANALYZE; PostgreSQL: what autovacuum leaves after the
  // inserts — statistics and the visibility map that lets an index be read without the table).
  if (process.env.BENCH_ANALYZE !== '0') {
    if (engine === 'postgres') await sql.raw('vacuum analyze bookings').execute(db);
    else await sql.raw('analyze').execute(db);
  }
  const config = loadConfig({ LOG_LEVEL: 'error', PUBLIC_HOST: 'localhost:4321', PUBLIC_PROTOCOL: 'http', ADMIN_HOST, DIST_DIR: 'dist', DATABASE_URL: url, RATE_LIMIT_LOGIN_PER_IP: '100000' });
  const deps: Deps = { db, dialect, config, now: () => Math.floor(Date.now() / 1000) };
  const server = await listen(createApp(deps), 0, '127.0.0.1');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  const email = `bench-admin-${Date.now().toString(36)}@example.com`;
  const { user } = await createUser(db, { email, firstName: 'Bench', lastName: 'Admin', passwordHash: await hashPassword(PASSWORD), emailConfirmed: true }, now);
  await db.insertInto('educator_admins').values({ user_id: user.id, educator_id: EDUCATOR, created_at: now }).execute();
  const login = await fetch(`${origin}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  const cookie = login.headers.getSetCookie().map((l) => l.split(';')[0]!).join('; ');
  const base = `${origin}/api/admin/educators/${EDUCATOR}`;
  const samples: Sample[] = [];
  try {
    // Warm-up: each kind once.
    const all = kinds(main, now);
    for (const k of all) await timed(`${base}/bookings?${k.query(0)}`, cookie);
    for (const k of all) {
      const ms: number[] = [];
      for (let i = 0; i < ROUNDS; i++) ms.push((await timed(`${base}/bookings?${k.query(i)}`, cookie)).ms);
      samples.push({ kind: k.kind, ms });
    }
    // Deep pages: follow the cursor 50 pages into each of three sorts, timing every page.
    for (const sort of ['created-desc', 'start-asc', 'name-asc']) {
      const ms: number[] = [];
      for (let r = 0; r < Math.max(1, Math.round(ROUNDS / 50)); r++) {
        let cursor: string | null | undefined = null;
        for (let page = 0; page < 50; page++) {
          const query = new URLSearchParams({ sort, limit: '25', ...(cursor ? { cursor } : {}) });
          const { ms: t, body } = await timed(`${base}/bookings?${query.toString()}`, cookie);
          ms.push(t);
          cursor = body.nextCursor;
          if (!cursor) break;
        }
      }
      samples.push({ kind: `pages 1–50: ${sort}`, ms });
    }
    // A booking's page.
    const ids = (await db.selectFrom('bookings').select('id').where('educator_id', '=', EDUCATOR).orderBy('id').limit(ROUNDS).execute()).map((r) => r.id);
    const detail: number[] = [];
    for (const id of ids) detail.push((await timed(`${base}/bookings/${id}`, cookie)).ms);
    samples.push({ kind: 'booking page', ms: detail });
  } finally {
    await new Promise<void>((ok) => server.close(() => ok()));
    await db.destroy();
  }
  return samples;
}

function print(engine: string, samples: Sample[]): void {
  console.log(`\n${engine} — ${BOOKINGS.toLocaleString('en-GB')} bookings of one educator (+ ${(OTHER_BOOKINGS * OTHERS.length).toLocaleString('en-GB')} of others), ${ROUNDS} requests per kind, one at a time\n`);
  console.log(`| kind | n | p50 ms | p95 ms | max ms |`);
  console.log(`| --- | ---: | ---: | ---: | ---: |`);
  let worst = { kind: '', p95: 0 };
  for (const s of samples) {
    const sorted = [...s.ms].sort((a, b) => a - b);
    const p95 = percentile(sorted, 95);
    if (p95 > worst.p95) worst = { kind: s.kind, p95 };
    console.log(`| ${s.kind} | ${sorted.length} | ${percentile(sorted, 50).toFixed(1)} | ${p95.toFixed(1)} | ${sorted[sorted.length - 1]!.toFixed(1)} |`);
  }
  console.log(`\nworst p95: ${worst.p95.toFixed(1)} ms (${worst.kind})`);
}

console.log(`npm run bench:admin — ${new Date().toISOString()}`);
console.log(`uptime: ${execSync('uptime').toString().trim()}`);
for (const engine of ENGINES) {
  if (engine === 'sqlite' && !existsSync('.tmp')) mkdirSync('.tmp');
  print(engine, await runEngine(engine));
}
console.log(`\nuptime: ${execSync('uptime').toString().trim()}`);
