/**
 * The admin's Promo codes API (api/admin/promo-codes.ts) through the real server, on SQLite and PostgreSQL: the
 * educator scope, the checkout's voucher rules applied on save (case-insensitive codes, gift-card look-alikes,
 * percent 1–100, a limit never below the uses), a saved code applied by the checkout (POST /api/vouchers/validate),
 * removal refused once used, revisions and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow, postJson } from './public-fixtures.ts';
import { endOfLondonDay } from '../../src/domain/admin/promo-codes.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const COURSE = 'crs_adm_promo_a';
const OTHER_COURSE = 'crs_adm_promo_b';
const OTHER_CODE = 'vch_adm_promo_other';

beforeAll(async () => {
  server = await startTestServer({ ...ADMIN_ENV, RATE_LIMIT_VOUCHER_PER_IP: '10000', RATE_LIMIT_VOUCHER_PER_EDUCATOR: '10000' });
  fx = await adminFixture(server, 'promo');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('courses').values([
    courseRow({ id: COURSE, educator_id: fx.educatorId, slug: 'throwing', name: 'Throwing' }),
    courseRow({ id: OTHER_COURSE, educator_id: fx.otherEducatorId, slug: 'theirs', name: 'Theirs' }),
  ]).execute();
  await server.db.insertInto('vouchers').values({ id: OTHER_CODE, educator_id: fx.otherEducatorId, course_id: null, code: 'THEIRS', kind: 'percent', amount: 10, created_at: 1 }).execute();
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const spring = { code: 'Spring10', kind: 'percent', amount: 10 };
const validate = (code: string, course = COURSE) => postJson(`${server.url}/api/vouchers/validate`, { code, course_ref: course, educator_ref: fx.educatorId });

describe('who may use the promo codes API', () => {
  it('refuses nobody, a learner and another educator\'s admin, and 404s another educator\'s code', async () => {
    const code = (await call('POST', '/promo-codes', { code: 'GUARD1', kind: 'fixed', amount: 500 })).json();
    await expectGuarded(server, fx, 'GET', `${base}/promo-codes`);
    await expectGuarded(server, fx, 'POST', `${base}/promo-codes`, spring);
    await expectGuarded(server, fx, 'PUT', `${base}/promo-codes/${code.id}`, { ...spring, revision: 1 });
    await expectGuarded(server, fx, 'DELETE', `${base}/promo-codes/${code.id}?revision=1`);
    expect((await call('PUT', `/promo-codes/${OTHER_CODE}`, { ...spring, revision: 1 })).status).toBe(404);
    expect((await call('DELETE', `/promo-codes/${OTHER_CODE}?revision=1`)).status).toBe(404);
    expect((await call('GET', '/promo-codes')).json().promoCodes.map((p: { id: string }) => p.id)).toEqual([code.id]);
    const foreignCourse = await call('POST', '/promo-codes', { ...spring, courseId: OTHER_COURSE });
    expect(foreignCourse.json().properties).toEqual([{ key: 'courseId', message: 'is not one of your courses' }]);
    expect((await server.db.selectFrom('vouchers').select('code').where('id', '=', OTHER_CODE).executeTakeFirstOrThrow()).code).toBe('THEIRS');
  });
});

describe('the checkout\'s rules on save', () => {
  it('answers a problem per field', async () => {
    const messages = async (body: unknown) => Object.fromEntries((await call('POST', '/promo-codes', body)).json().properties.map((p: { key: string; message: string }) => [p.key, p.message]));
    expect(await messages({ code: 'ab', kind: 'percent', amount: 0 })).toEqual({ code: 'must be at least 3 characters', amount: 'must be between 1 and 100 (%)' });
    expect(await messages({ code: 'TEN OFF', kind: 'percent', amount: 101 })).toEqual({ code: 'may hold only letters, digits, - and _', amount: 'must be between 1 and 100 (%)' });
    expect(await messages({ code: 'ABCD-EFGH-JKMN-PQRS', kind: 'fixed', amount: 0 })).toEqual({ code: 'looks like a gift card code: choose another', amount: 'must be between 1p and £100,000.00' });
    expect(await messages({ code: 'OK1', kind: 'half', amount: 1, maxUses: 0 })).toEqual({ kind: 'must be percent or fixed', maxUses: 'must be at least 1' });
    const money = await call('POST', '/promo-codes', { code: 'FIVER', kind: 'fixed', amount: 4.5 });
    expect(money.json().properties).toEqual([{ key: 'amount', message: 'must be a whole number' }]);
  });

  it('saves a code the checkout then applies, in any case, and refuses one that differs only in case', async () => {
    const res = await call('POST', '/promo-codes', { ...spring, courseId: COURSE, maxUses: 5, expiresAt: endOfLondonDay('2099-12-31') });
    expect(res.status).toBe(201);
    expect(res.json()).toMatchObject({ code: 'SPRING10', discount: '10% off', status: 'active', uses: 0, courseName: 'Throwing' });
    const applied = await validate('spring10');
    expect(applied.status).toBe(200);
    expect(await applied.json()).toMatchObject({ voucher_id: res.json().id, kind: 'percent', amount: 10 });
    const twin = await call('POST', '/promo-codes', { ...spring, code: 'spring10' });
    expect(twin.json().properties).toEqual([{ key: 'code', message: 'is already one of your promo codes' }]);
  });

  it('never sets the limit below the uses, and an expiry makes the checkout refuse it', async () => {
    const code = (await call('POST', '/promo-codes', { code: 'LIMIT', kind: 'fixed', amount: 500, maxUses: 10 })).json();
    await server.db.updateTable('vouchers').set({ uses: 3 }).where('id', '=', code.id).execute();
    const low = await call('PUT', `/promo-codes/${code.id}`, { code: 'LIMIT', kind: 'fixed', amount: 500, maxUses: 2, revision: 1 });
    expect(low.status).toBe(400);
    expect(low.json().properties).toEqual([{ key: 'maxUses', message: 'must be at least 3 (it has been used or is held 3 times)' }]);
    const exact = await call('PUT', `/promo-codes/${code.id}`, { code: 'LIMIT', kind: 'fixed', amount: 500, maxUses: 3, revision: 1 });
    expect(exact.json()).toMatchObject({ maxUses: 3, status: 'used up', revision: 2 });
    expect(await (await validate('LIMIT')).json()).toMatchObject({ detail: 'This code has been used the maximum number of times.' });

    const now = Math.floor(Date.now() / 1000);
    const expired = await call('PUT', `/promo-codes/${code.id}`, { code: 'LIMIT', kind: 'fixed', amount: 500, maxUses: null, expiresAt: now - 60, revision: 2 });
    expect(expired.json().status).toBe('expired');
    expect(await (await validate('LIMIT')).json()).toMatchObject({ detail: 'This code has expired.' });
  });

  it('is valid through the whole London day it expires on', () => {
    // 31 July 2027 (BST) ends at 23:00 UTC; 31 December 2027 (GMT) at midnight UTC.
    expect(endOfLondonDay('2027-07-31')).toBe(Date.UTC(2027, 6, 31, 23) / 1000);
    expect(endOfLondonDay('2027-12-31')).toBe(Date.UTC(2028, 0, 1, 0) / 1000);
  });
});

describe('removing and revisions', () => {
  it('refuses removing a used code, removes an unused one, refuses a stale save and logs each change', async () => {
    const used = (await call('POST', '/promo-codes', { code: 'USED', kind: 'percent', amount: 5 })).json();
    await server.db.updateTable('vouchers').set({ uses: 1 }).where('id', '=', used.id).execute();
    const refusal = await call('DELETE', `/promo-codes/${used.id}?revision=1`);
    expect(refusal.status).toBe(409);
    expect(refusal.json().detail).toBe('USED has been used or is held 1 time, and the bookings made with it keep its record. Set an expiry date to stop it being used again.');

    const unused = (await call('POST', '/promo-codes', { code: 'UNUSED', kind: 'percent', amount: 5 })).json();
    server.setNow(Math.floor(Date.now() / 1000) + 10);
    expect((await call('PUT', `/promo-codes/${unused.id}`, { code: 'UNUSED', kind: 'percent', amount: 15, revision: 1 })).status).toBe(200);
    const stale = await call('PUT', `/promo-codes/${unused.id}`, { code: 'UNUSED', kind: 'percent', amount: 20, revision: 1 });
    expect(stale.status).toBe(409);
    expect(stale.json().detail).toContain('(amount)');
    server.setNow(Math.floor(Date.now() / 1000) + 20);
    expect((await call('DELETE', `/promo-codes/${unused.id}?revision=2`)).status).toBe(204);
    const log = (await call('GET', `/changes?entity=voucher&entityId=${unused.id}`)).json().changes;
    expect(log.map((l: { action: string }) => l.action)).toEqual(['delete', 'update', 'create']);
    expect(log[1].changes).toEqual({ amount: [5, 15] });
    server.setNow(null);
  });
});
