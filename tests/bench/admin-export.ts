/**
 * npx tsx tests/bench/admin-export.ts — the register export (GET …/registers/{occurrenceId}/attendees.csv) of a
 * date with BENCH_ROWS bookings (default 100,000, one attendee each) through the real server: time to the last
 * byte, rows received, and the process's resident memory before and at its peak during the download (the export
 * streams a page of 500 bookings at a time, so the peak should not grow with the rows). Figures only, no
 * assertions. SQLite by default; TEST_DATABASE_URL=postgres://… for PostgreSQL.
 */
import { request } from 'node:http';
import { loadavg } from 'node:os';
import { startTestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminFixture, ADMIN_HOST } from '../helpers/admin.ts';
import { courseRow } from '../api/public-fixtures.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 100_000);
const BATCH = 500;
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;

const server = await startTestServer({ ...ADMIN_ENV, LOG_LEVEL: 'silent' });
try {
  const fx = await adminFixture(server, 'bench');
  const courseId = 'crs_bench_export';
  const occurrenceId = 'occ_bench_export';
  await server.db.insertInto('courses').values(courseRow({ id: courseId, educator_id: fx.educatorId, slug: 'bench-export', name: 'Bench export' })).execute();
  await server.db.insertInto('occurrences').values({ id: occurrenceId, course_id: courseId, start_datetime: 2_000_000_000, end_datetime: 2_000_003_600, delivery: 'online', address: null, spaces: ROWS, available_spaces: 0, parent_ref: null, series_id: null }).execute();
  const t0 = performance.now();
  for (let i = 0; i < ROWS; i += BATCH) {
    const ids = Array.from({ length: Math.min(BATCH, ROWS - i) }, (_, k) => `bkg_bench_${String(i + k).padStart(7, '0')}`);
    await server.db.transaction().execute(async (trx) => {
      await trx.insertInto('checkouts').values(ids.map((id) => ({
        id: `chk_${id}`, flow: 'booking', origin: 'marketplace', course_id: courseId, educator_id: fx.educatorId, occurrence_id: occurrenceId, user_id: null, student_id: null,
        current_step: 'confirmation', step_state: {}, utms: null, booked_on_url: null, booking_id: id, order_id: null, request_id: null, application_id: null,
        outcome_kind: null, outcome_id: null, total_cost: 0, cost_summary: null, payment_provider: null, payment_id: null, created_at: 1, updated_at: 1, completed_at: 1,
      }))).execute();
      await trx.insertInto('bookings').values(ids.map((id, k) => ({
        id, checkout_id: `chk_${id}`, flow: 'booking', course_id: courseId, educator_id: fx.educatorId, user_id: 'usr_bench', student_id: `stu_bench_${i + k}`, origin: 'marketplace',
        lines: {}, contact_details: { booker: { isAttending: true, formResponse: { system_first_name: `First${i + k}`, system_last_name: 'Learner', system_email: `l${i + k}@example.com`, diet: 'Vegetarian, no nuts' } }, attendees: [] },
        total_cost: 2500, created_at: 1, status: 'confirmed' as const, details: {}, occurrence_id: occurrenceId, spaces: 1, start_datetime: null, end_datetime: null,
        payment_method: 'card', payment_state: 'paid' as const, payment_id: null, invoice_details: null, due_date: null, manual_note: null,
      }))).execute();
    });
  }
  console.log(`inserted ${ROWS} bookings in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 20);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  await new Promise<void>((ok, fail) => {
    const req = request({ host: '127.0.0.1', port: server.port, path: `/api/admin/educators/${fx.educatorId}/registers/${occurrenceId}/attendees.csv`, headers: { host: ADMIN_HOST, cookie: fx.admin.cookie } }, (res) => {
      if (res.statusCode !== 200) return fail(new Error(`export answered ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.byteLength;
        for (const b of chunk) if (b === 10) lines++;
      });
      res.on('end', ok);
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`export: ${lines - 1} rows, ${(bytes / 1024 / 1024).toFixed(1)} MB in ${seconds.toFixed(2)} s (${server.deps.dialect})`);
  console.log(`rss before ${mb(before)}, peak during export ${mb(peak)} (+${mb(peak - before)}); load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
} finally {
  await server.close();
}
