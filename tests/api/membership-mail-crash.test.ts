/**
 * A membership's welcome e-mail survives a process that dies between the commit and the send: a server process
 * (tests/helpers/dies-after-membership-commit.ts) is SIGKILLed the instant the transaction that records the
 * membership commits; the product started again on the same database sends the e-mail exactly once (to a fake
 * SMTP server). On SQLite, or PostgreSQL when TEST_DATABASE_URL is set.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { freePort } from '../helpers/ports.ts';
import { headerOf, startFakeSmtp, type FakeSmtp } from '../helpers/fake-smtp.ts';
import { sendDueMail } from '../../api/mail/worker.ts';
import { MEMBERSHIP_MAIL_SUBJECTS } from '../../api/memberships/mail.ts';
import { CARDS, IDS, client, payWithCard, seedCheckoutCatalogue } from './checkout-fixtures.ts';
import { PLANS, seedPlans } from './membership-fixtures.ts';

let testDb: TestDb;
let smtp: FakeSmtp;
let child: ChildProcessWithoutNullStreams | null = null;
let restarted: TestServer | null = null;

beforeAll(async () => {
  testDb = await createTestDb();
  await seedCheckoutCatalogue(testDb.db, Math.floor(Date.now() / 1000));
  await seedPlans({ db: testDb.db } as TestServer);
  smtp = await startFakeSmtp('accept');
}, 60_000);

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await restarted?.close();
  await smtp?.close();
  await testDb?.close();
});

async function startDyingServer(): Promise<{ url: string; exited: Promise<NodeJS.Signals | null>; output: () => string }> {
  const port = await freePort();
  const { NODE_OPTIONS: _ignored, ...parentEnv } = process.env;
  child = spawn(process.execPath, ['--import', 'tsx', 'tests/helpers/dies-after-membership-commit.ts'], {
    env: { ...parentEnv, PORT: String(port), TEST_DB_URL: testDb.url, TEST_DB_SCHEMA: testDb.schema ?? '' },
  });
  let out = '';
  const exited = new Promise<NodeJS.Signals | null>((ok) => child!.once('exit', (_code, signal) => ok(signal)));
  const listening = new Promise<void>((ok, fail) => {
    child!.stdout.on('data', (d) => {
      out += d;
      if (out.includes('listening')) ok();
    });
    child!.stderr.on('data', (d) => (out += d));
    child!.once('exit', () => fail(new Error(`the server process exited before listening:\n${out}`)));
  });
  await listening;
  return { url: `http://127.0.0.1:${port}`, exited, output: () => out };
}

describe('a membership e-mail and a process killed between commit and send', () => {
  it('the welcome e-mail is committed with the membership and delivered exactly once after a restart', async () => {
    const dying = await startDyingServer();
    const s = { url: dying.url, db: testDb.db } as TestServer;
    const { cookie, user } = await signUpAndLogin(s);
    const api = client(s, cookie);
    const init = await api.initialise('membership', { educatorId: IDS.educator });
    expect(init.status).toBe(201);
    const id = (init.body as { _id: string })._id;
    expect((await api.submit(id, 'membership plan picked', { planId: PLANS.monthly })).status).toBe(200);
    const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(method.status, JSON.stringify(method.body)).toBe(200);
    // The process dies while completing the checkout (on the provider's confirmation or on the learner's
    // submit, whichever records the membership): the request that does it gets no answer.
    try {
      await payWithCard(s, method.body as never, CARDS.success);
      await api.submit(id, 'payment was successful', {});
    } catch {
      /* the connection was cut by the kill */
    }
    expect(await dying.exited, dying.output()).toBe('SIGKILL');

    // What the dead process committed: the membership, and with it the e-mail still to send.
    const membership = await testDb.db.selectFrom('memberships').select(['id', 'status']).where('user_id', '=', user.id).executeTakeFirst();
    expect(membership?.status).toBe('active');
    const subject = MEMBERSHIP_MAIL_SUBJECTS.joined('Studio Monthly', 'Clay Studio');
    const queued = await testDb.db.selectFrom('outbox_messages').select(['status', 'subject']).where('to_address', '=', user.email).execute();
    expect(queued).toEqual([{ status: 'pending', subject }]);

    // The product starts again on the same database; its outbox worker runs (twice: nothing is sent again).
    restarted = await startTestServer({ LOG_LEVEL: 'silent', SMTP_URL: smtp.url }, testDb);
    await sendDueMail(restarted.deps);
    await sendDueMail(restarted.deps);
    const delivered = smtp.messages.filter((raw) => headerOf(raw, 'to')?.includes(user.email));
    expect(delivered).toHaveLength(1);
    const sent = await testDb.db.selectFrom('outbox_messages').select(['status', 'subject']).where('to_address', '=', user.email).execute();
    expect(sent).toEqual([{ status: 'sent', subject }]);
  }, 120_000);
});
