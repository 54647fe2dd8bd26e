/**
 * The e-mail outbox: requests queue e-mails in their own transaction and never wait for a mail server; the worker
 * sends due messages, retries with backoff, gives up (dead) after the last try, keeps scheduled messages until
 * their time, and two workers never send one message twice. Failed messages are listed and re-sent from the CLI.
 * Each worker pass is run by the test itself (tests/helpers/mail.ts), at the server's pinned clock.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { createTestDb, databaseUrlOf, type TestDb } from '../helpers/db.ts';
import { lastMailTo, signUpAndLogin, uniqueEmail } from '../helpers/auth.ts';
import { deliverMail } from '../helpers/mail.ts';
import { headerOf, refusingSmtpUrl, startFakeSmtp, type FakeSmtp } from '../helpers/fake-smtp.ts';
import { queueMail, queueMails } from '../../api/mail/index.ts';
import { claimDueMail, claimDueMailQuery, dueMailQuery, listFailedMail, resendMail, retryDelaySeconds, sendDueMail } from '../../api/mail/worker.ts';
import { sql } from 'kysely';
import { openDb } from '../../db/client.ts';
import { countRoundTrips } from '../helpers/pg-round-trips.ts';
import { mailCli } from '../../api/mail/cli.ts';
import { CARDS, IDS, OFFERS, client, contactPayload, payWithCard, seedCheckoutCatalogue } from './checkout-fixtures.ts';

/** A statement's text with its parameters written in, for EXPLAIN (which takes no parameters on PostgreSQL). */
function inlined(text: string, parameters: readonly unknown[]): string {
  let next = 0;
  return text.replace(/\$(\d+)|\?/g, (_, n: string | undefined) => {
    const value = parameters[n === undefined ? next++ : Number(n) - 1];
    return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
  });
}

/** A statement's plan as text, on either engine. */
async function planOf(s: TestServer, text: string, parameters: readonly unknown[]): Promise<string> {
  const rows = s.deps.dialect === 'postgres'
    ? (await sql.raw<{ 'QUERY PLAN': string }>(`explain ${inlined(text, parameters)}`).execute(s.db)).rows.map((r) => r['QUERY PLAN'])
    : (await sql.raw<{ detail: string }>(`explain query plan ${inlined(text, parameters)}`).execute(s.db)).rows.map((r) => r.detail);
  return rows.join('\n');
}

let testDb: TestDb;
let outbox: string;
const servers: TestServer[] = [];
const smtps: FakeSmtp[] = [];

beforeAll(async () => {
  testDb = await createTestDb();
  outbox = mkdtempSync(join(tmpdir(), 'mail-outbox-'));
});
afterEach(async () => {
  // Each test starts with an empty outbox (the database is shared to keep the file quick).
  await testDb.db.deleteFrom('outbox_messages').execute();
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(smtps.splice(0).map((s) => s.close()));
});
afterAll(async () => {
  await testDb?.close();
  rmSync(outbox, { recursive: true, force: true });
});

/** A server on the shared test database, its clock pinned. */
async function server(env: Record<string, string> = {}): Promise<TestServer & { now: number }> {
  const s = await startTestServer({ LOG_LEVEL: 'silent', OUTBOX_DIR: outbox, RATE_LIMIT_MAIL_PER_IP: '100000', ...env }, testDb);
  servers.push(s);
  const now = 1_900_000_000 + servers.length * 100_000;
  s.setNow(now);
  return Object.assign(s, { now });
}

async function smtp(mode: 'accept' | 'silent'): Promise<FakeSmtp> {
  const s = await startFakeSmtp(mode);
  smtps.push(s);
  return s;
}

function signUp(s: TestServer, email: string) {
  return fetch(`${s.url}/api/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'a long enough password', firstName: 'Ada', lastName: 'Lovelace' }),
  });
}

async function row(s: TestServer, id: string) {
  return s.db.selectFrom('outbox_messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

describe('requests never wait for the mail server', () => {
  it('SMTP refusing connections: sign-up answers 202 with its e-mail queued; the worker retries with backoff, then marks it dead', async () => {
    const s = await server({ SMTP_URL: await refusingSmtpUrl(), MAIL_MAX_ATTEMPTS: '3', MAIL_RETRY_SECONDS: '60' });
    const email = uniqueEmail('refused');
    const res = await signUp(s, email);
    expect(res.status).toBe(202);
    const queued = (await lastMailTo(s.db, email))!;
    expect(queued).toMatchObject({ tag: 'signup', status: 'pending', attempts: 0 });
    // The link in it works: the token was committed with the message.
    expect(await s.db.selectFrom('auth_tokens').selectAll().where('email', '=', email).executeTakeFirst()).toBeTruthy();

    // 1st attempt fails; due again after 60 s, not before.
    expect(await deliverMail(s)).toBe(1);
    let m = await row(s, queued.id);
    expect(m).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: s.now + 60, lease_owner: null });
    expect(m.last_error).toMatch(/ECONNREFUSED|connect/i);
    s.setNow(s.now + 59);
    expect(await deliverMail(s)).toBe(0);
    // 2nd attempt at +60 fails; the next waits twice as long (120 s).
    s.setNow(s.now + 60);
    expect(await deliverMail(s)).toBe(1);
    m = await row(s, queued.id);
    expect(m).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: s.now + 60 + 120 });
    // 3rd and last attempt: dead, never tried again.
    s.setNow(s.now + 60 + 120);
    expect(await deliverMail(s)).toBe(1);
    m = await row(s, queued.id);
    expect(m).toMatchObject({ status: 'dead', attempts: 3 });
    s.setNow(s.now + 86_400);
    expect(await deliverMail(s)).toBe(0);
    expect((await listFailedMail(s)).map((r) => r.id)).toContain(queued.id);
  });

  it('an SMTP server that accepts and never answers: sign-up and magic link answer at once; the attempt times out and is retried', async () => {
    const silent = await smtp('silent');
    const s = await server({ SMTP_URL: silent.url, SMTP_TIMEOUT_SECONDS: '0.3', MAIL_RETRY_SECONDS: '30' });
    const email = uniqueEmail('hang');
    expect((await signUp(s, email)).status).toBe(202);
    const magic = await fetch(`${s.url}/api/auth/magic-link`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: uniqueEmail('hang-magic') }),
    });
    expect(magic.status).toBe(202);
    // The requests did not even connect: only the worker talks to the mail server.
    expect(silent.connections).toBe(0);
    const queued = (await lastMailTo(s.db, email))!;
    expect(await deliverMail(s)).toBe(2);
    expect(silent.connections).toBeGreaterThan(0);
    const m = await row(s, queued.id);
    expect(m).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: s.now + 30 });
    expect(m.last_error).toMatch(/greeting never received|timeout|timed out/i);
  });

  it('an SMTP server that never answers: a card booking confirms at once, its e-mails committed with the booking', async () => {
    const silent = await smtp('silent');
    const s = await server({ SMTP_URL: silent.url, SMTP_TIMEOUT_SECONDS: '0.3' });
    // The catalogue runs on real time (its dates are in the future of now).
    s.setNow(null);
    await seedCheckoutCatalogue(s.db, Math.floor(Date.now() / 1000));
    const { cookie, user } = await signUpAndLogin(s);
    const api = client(s, cookie);
    const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId: IDS.raceOcc });
    await api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] });
    await api.submit(init.body._id, 'contact details filled', contactPayload(user.email));
    const selected = await api.submit(init.body._id, 'payment method selected', { paymentMethod: 'card' });
    expect((await payWithCard(s, selected.body, CARDS.success)).status).toBe(200);
    const confirmed = await api.submit(init.body._id, 'payment was successful', {});
    expect(confirmed.status).toBe(200);
    const bookingId = confirmed.body.bookingId as string;
    expect(silent.connections).toBe(0);
    const mails = await s.db.selectFrom('outbox_messages').selectAll().where('status', '=', 'pending').execute();
    expect(mails.filter((m) => m.text_body.includes(bookingId)).map((m) => m.tag).sort()).toEqual(['booking-confirmation', 'booking-educator-notification']);
  });

  it('retry delays double from MAIL_RETRY_SECONDS up to six hours', () => {
    expect([1, 2, 3, 4].map((n) => retryDelaySeconds(n, 30))).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(20, 30)).toBe(6 * 3600);
  });

  it('a permanent refusal (5xx) is dead at once', async () => {
    const s = await server({ MAIL_MAX_ATTEMPTS: '10' });
    const id = await queueMail(s.db, { to: 'nobody@example.com', subject: 'Refused', text: 'x' }, { now: s.now });
    const refusing = { send: async () => { throw Object.assign(new Error('550 mailbox unavailable'), { responseCode: 550 }); } };
    expect(await deliverMail(s, { transport: refusing })).toBe(1);
    expect(await row(s, id)).toMatchObject({ status: 'dead', attempts: 1 });
  });
});

describe('scheduled messages', () => {
  it('are not sent before send_after, and are sent (.eml with the attachment) once it has come', async () => {
    const s = await server();
    const id = await queueMail(s.db, {
      to: 'friend@example.com', subject: 'A gift for you', text: 'Enjoy', tag: 'scheduled-test',
      attachments: [{ filename: 'gift.txt', content: Buffer.from('voucher GIFT-123'), contentType: 'text/plain' }],
    }, { now: s.now, sendAfter: s.now + 3600 });
    expect(await row(s, id)).toMatchObject({ status: 'pending', send_after: s.now + 3600, next_attempt_at: s.now + 3600 });
    expect(await deliverMail(s)).toBe(0);
    s.setNow(s.now + 3599);
    expect(await deliverMail(s)).toBe(0);
    expect((await row(s, id)).status).toBe('pending');
    s.setNow(s.now + 3600);
    expect(await deliverMail(s)).toBe(1);
    const sent = await row(s, id);
    expect(sent).toMatchObject({ status: 'sent', attempts: 1, sent_at: s.now + 3600 });
    expect(existsSync(sent.eml_file!)).toBe(true);
    const eml = readFileSync(sent.eml_file!, 'utf8');
    expect(eml).toContain('gift.txt');
    expect(eml).toContain(Buffer.from('voucher GIFT-123').toString('base64'));
    expect(eml).toContain(`Message-ID: <${id}@localhost>`);
    // Written with Unix line ends, as a file for people to open (the message itself ends its lines in CRLF).
    expect(eml).not.toContain('\r');
    expect(eml).toMatch(/^MIME-Version: 1\.0\n/m);
  });
});

describe('failed mail is listed and re-sent', () => {
  it('resend puts a dead message back; the next pass sends it; the CLI lists and resends', async () => {
    const accepting = await smtp('accept');
    const dead = await server({ SMTP_URL: await refusingSmtpUrl(), MAIL_MAX_ATTEMPTS: '1' });
    const id = await queueMail(dead.db, { to: 'again@example.com', subject: 'Second chance', text: 'Hello' }, { now: dead.now });
    expect(await deliverMail(dead)).toBe(1);
    expect((await row(dead, id)).status).toBe('dead');

    // The CLI, against the same database (its own connection, as an operator would run it).
    const env = { DATABASE_URL: databaseUrlOf(testDb), OUTBOX_DIR: outbox };
    // The CLI runs the migrator first, which must not meet another test file's schema change (TestDb.changeSchema).
    const cli = (args: string[], out: (line: string) => void) => testDb.changeSchema(() => mailCli(args, env, out));
    const lines: string[] = [];
    expect(await cli(['list-failed'], (l) => lines.push(l))).toBe(0);
    expect(lines.some((l) => l.startsWith(`${id}\tdead\tattempts=1\tagain@example.com`))).toBe(true);
    expect(await cli(['resend', 'msg_unknown'], () => {})).toBe(1);
    expect(await cli(['resend', id], (l) => lines.push(l))).toBe(0);
    expect(lines.at(-1)).toBe(`Queued ${id} again.`);
    expect(await cli(['bogus'], () => {})).toBe(2);
    const again = await row(dead, id);
    expect(again).toMatchObject({ status: 'pending', attempts: 0, last_error: null });

    // The SMTP server is back: the message goes, once.
    const fixed = await server({ SMTP_URL: accepting.url });
    fixed.setNow(Number(again.next_attempt_at));
    expect(await deliverMail(fixed)).toBe(1);
    expect(await row(fixed, id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(accepting.messages).toHaveLength(1);
    expect(headerOf(accepting.messages[0], 'Subject')).toBe('Second chance');
    // A message waiting for its first try cannot be "resent" (it would be sent twice).
    const waiting = await queueMail(fixed.db, { to: 'wait@example.com', subject: 'Waiting', text: 'x' }, { now: fixed.now + 10_000 });
    expect(await resendMail(fixed, waiting, fixed.now)).toBe(false);
  });
});

describe('several workers', () => {
  it('never send one message twice: two workers draining the same outbox at once', async () => {
    const accepting = await smtp('accept');
    const s = await server({ SMTP_URL: accepting.url });
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(await queueMail(s.db, { to: `many-${i}@example.com`, subject: `Message ${i}`, text: 'x' }, { now: s.now }));
    const [a, b] = await Promise.all([
      deliverMail(s, { owner: 'worker-a', batch: 3 }),
      deliverMail(s, { owner: 'worker-b', batch: 3 }),
    ]);
    expect(a + b).toBe(30);
    const subjects = accepting.messages.map((m) => headerOf(m, 'Subject'));
    expect(subjects).toHaveLength(30);
    expect(new Set(subjects).size).toBe(30);
    const rows = await s.db.selectFrom('outbox_messages').select(['status', 'attempts']).where('id', 'in', ids).execute();
    expect(rows.every((r) => r.status === 'sent' && Number(r.attempts) === 1)).toBe(true);
  });

  it('a claim takes at most the batch asked for, however many are due', async () => {
    const s = await server();
    for (let i = 0; i < 5; i++) await queueMail(s.db, { to: `batch-${i}@example.com`, subject: `Batch ${i}`, text: 'x' }, { now: s.now });
    expect(await claimDueMail(s.deps, s.now, 'worker-a', 2, 60)).toHaveLength(2);
    expect(await claimDueMail(s.deps, s.now, 'worker-b', 1, 60)).toHaveLength(1);
    expect(await claimDueMail(s.deps, s.now, 'worker-c', 20, 60)).toHaveLength(2);
  });

  it('claims made at once take each due message once, and no more than each asked for', async () => {
    const s = await server();
    const ids = await queueMails(s.db, Array.from({ length: 10 }, (_, i) => ({ to: `race-${i}@example.com`, subject: `Race ${i}`, text: 'x' })), { now: s.now });
    const claims = await Promise.all(Array.from({ length: 8 }, (_, i) => claimDueMail(s.deps, s.now, `worker-${i}`, 2, 60)));
    expect(claims.every((c) => c.length <= 2)).toBe(true);
    const taken = claims.flat().map((r) => r.id);
    expect(new Set(taken).size).toBe(taken.length);
    // Every claim that came back short found nothing left: all ten were taken.
    expect([...taken].sort()).toEqual([...ids].sort());
    const leased = await s.db.selectFrom('outbox_messages').select(['id', 'lease_owner']).where('id', 'in', ids).execute();
    const ownerOf = new Map(claims.flatMap((c, i) => c.map((r) => [r.id, `worker-${i}`] as const)));
    expect(leased.every((r) => r.lease_owner === ownerOf.get(r.id))).toBe(true);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)('PostgreSQL: a claim is one round trip; a message sent costs two, its "sent" mark committed without waiting for the disk', async () => {
    const s = await server();
    await queueMails(s.db, [{ to: 'trip-1@example.com', subject: 'Trip 1', text: 'x' }, { to: 'trip-2@example.com', subject: 'Trip 2', text: 'x' }], { now: s.now });
    // The server's session cache listening first: what it sends as it connects is none of the claim's.
    for (let waited = 0; !s.deps.sessionCache?.live() && waited < 5_000; waited += 20) await new Promise((ok) => setTimeout(ok, 20));
    const trips = countRoundTrips();
    // Connections opened while counting: a handle of its own on this file's database.
    const counted = openDb({ url: testDb.url, schema: testDb.schema, poolSize: 1 });
    try {
      const deps = { db: counted, dialect: 'postgres' as const };
      await counted.selectFrom('outbox_messages').select('id').limit(1).execute();
      const before = trips.count();
      expect(await claimDueMail(deps, s.now, 'worker-a', 1, 60)).toHaveLength(1);
      expect(trips.count() - before).toBe(1);
      // A pass that sends the other message: its claim, then its mark written with a COMMIT that does not wait.
      const sending = trips.count();
      const sentTexts = trips.texts().length;
      const transport = { send: async () => ({ emlFile: null }) };
      expect(await sendDueMail({ ...s.deps, db: counted }, { transport, batch: 1, owner: 'worker-b' })).toBe(1);
      expect(trips.count() - sending).toBe(2);
      expect(trips.texts().slice(sentTexts).slice(-2)).toEqual(['set local synchronous_commit = off', 'commit']);
      const sent = await s.db.selectFrom('outbox_messages').select(['status', 'lease_owner']).where('subject', '=', 'Trip 2').executeTakeFirstOrThrow();
      expect(sent).toEqual({ status: 'sent', lease_owner: null });
    } finally {
      trips.uninstall();
      await counted.destroy();
    }
  });

  it('a burst queued in one second is claimed in queue order straight off the index, without sorting what is due', async () => {
    const s = await server();
    // Queued in batches of 250 (one statement each), all due at the same second, as a day's confirmations sent at once.
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      ids.push(...await queueMails(s.db, Array.from({ length: 250 }, (_, k) => ({ to: `burst-${i}-${k}@example.com`, subject: 'Burst', text: 'x' })), { now: s.now }));
    }
    // The claim writes the picked messages found by their key, with or without the table's statistics: the due
    // index is read once, for the pick (a claim that tested each row again read every pending message through it,
    // 2,000 here, for each message claimed, before an ANALYZE).
    const claim = claimDueMailQuery(s.db, s.deps.dialect, { now: s.now, owner: 'worker-a', batch: 3, leaseSeconds: 60 }).compile();
    expect((await planOf(s, claim.sql, claim.parameters)).match(/outbox_messages_due/g)).toHaveLength(1);
    await sql`analyze outbox_messages`.execute(s.db);
    expect((await planOf(s, claim.sql, claim.parameters)).match(/outbox_messages_due/g)).toHaveLength(1);
    const due = dueMailQuery(s.db, s.deps.dialect, s.now, 1).compile();
    const plan = await planOf(s, due.sql, due.parameters);
    // Ordered by the index (status, next attempt, id): no sort, so the first due message costs one index step, not a
    // read and a sort of the 2,000 due at that second (the plan before: "USE TEMP B-TREE FOR LAST TERM OF ORDER BY").
    expect(plan).toMatch(/outbox_messages_due/);
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/i);
    const first = await claimDueMail(s.deps, s.now, 'worker-a', 3, 60);
    expect(first.map((r) => r.id)).toEqual([...ids].sort().slice(0, 3));
  });

  it('a slow SMTP server: two workers draining at once send each message once, though a pass takes longer than a lease', async () => {
    // Each message takes the server 400 ms; the lease is 2 s, so a pass over 12 messages outlasts any lease it took first.
    const slow = await startFakeSmtp('accept', { dataDelayMs: 400 });
    smtps.push(slow);
    const s = await server({ SMTP_URL: slow.url });
    // The real clock: the leases lapse while the workers run.
    s.setNow(null);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push(await queueMail(s.db, { to: `slow-${i}@example.com`, subject: `Slow ${i}`, text: 'x' }, { now: Math.floor(Date.now() / 1000) }));
    const pending = async () => (await s.db.selectFrom('outbox_messages').select('id').where('id', 'in', ids).where('status', '=', 'pending').execute()).length;
    // A worker as the background job runs it: a pass, and when nothing was due a short wait, until the outbox is empty.
    const worker = async (owner: string, startAfterMs: number) => {
      await new Promise((ok) => setTimeout(ok, startAfterMs));
      const until = Date.now() + 20_000;
      while (Date.now() < until && (await pending()) > 0) {
        if ((await sendDueMail(s.deps, { owner, batch: 20, leaseSeconds: 2 })) === 0) await new Promise((ok) => setTimeout(ok, 100));
      }
    };
    await Promise.all([worker('worker-a', 0), worker('worker-b', 50)]);
    const subjects = slow.messages.map((m) => headerOf(m, 'Subject'));
    expect(new Set(subjects).size).toBe(12);
    expect(subjects).toHaveLength(12);
    const rows = await s.db.selectFrom('outbox_messages').select(['status', 'attempts']).where('id', 'in', ids).execute();
    expect(rows.every((r) => r.status === 'sent' && Number(r.attempts) === 1)).toBe(true);
  }, 30_000);

  it('a claimed message is not taken by another worker until its lease lapses', async () => {
    const s = await server();
    const id = await queueMail(s.db, { to: 'lease@example.com', subject: 'Leased', text: 'x' }, { now: s.now });
    // Worker A claims it and "hangs" (its transport never returns within the test).
    let release: () => void = () => {};
    const hanging = { send: () => new Promise<{ emlFile: null }>((ok) => { release = () => ok({ emlFile: null }); }) };
    const pass = sendDueMail(s.deps, { owner: 'worker-a', transport: hanging, leaseSeconds: 300 });
    await expect.poll(async () => (await row(s, id)).lease_owner).toBe('worker-a');
    expect(await deliverMail(s, { owner: 'worker-b' })).toBe(0);
    // A's lease lapses (A died): B takes it; A's late answer no longer counts.
    s.setNow(s.now + 301);
    expect(await deliverMail(s, { owner: 'worker-b' })).toBe(1);
    release();
    await pass;
    expect(await row(s, id)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});
