/**
 * The admin's Gift vouchers API (api/admin/gift-vouchers.ts) through the real server, on SQLite and PostgreSQL: the
 * educator scope, the shared settings rules (src/domain/gifts.ts), `vouchers_app_installed` = switched on and payable
 * by card or wallet (the same answer as the public settings route), revisions from 0 (never saved) and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server, 'gift');
  base = `/api/admin/educators/${fx.educatorId}`;
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const onSale = { enabled: true, fixedAmounts: [5000, 2500], customMin: null, customMax: null, expiryMonths: 24, designColour: '#224466' };

describe('gift voucher settings', () => {
  it('refuses nobody, a learner and another educator\'s admin, and leaves the other educator\'s settings alone', async () => {
    await expectGuarded(server, fx, 'GET', `${base}/gift-vouchers`);
    await expectGuarded(server, fx, 'PUT', `${base}/gift-vouchers`, { ...onSale, revision: 0 });
    expect(await server.db.selectFrom('gift_voucher_settings').select('educator_id').execute()).toEqual([]);
  });

  it('starts off, never saved, and checks the settings with the shared rules', async () => {
    expect((await call('GET', '/gift-vouchers')).json()).toMatchObject({ revision: 0, enabled: false, vouchers_app_installed: false, payable: true, cardsSold: 0 });
    const bad = await call('PUT', '/gift-vouchers', { revision: 0, enabled: true, fixedAmounts: [], customMin: null, customMax: null, expiryMonths: 6 });
    expect(bad.status).toBe(400);
    expect(bad.json().properties.map((p: { key: string }) => p.key).sort()).toEqual(['expiryMonths', 'fixedAmounts']);
    const noRevision = await call('PUT', '/gift-vouchers', onSale);
    expect(noRevision.json().properties).toEqual([{ key: 'revision', message: 'is required' }]);
  });

  it('puts gift vouchers on sale where they can be paid for, as the public settings say, with revisions and an audit entry', async () => {
    const saved = await call('PUT', '/gift-vouchers', { ...onSale, revision: 0 });
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ revision: 1, enabled: true, payable: true, vouchers_app_installed: true, settings: { fixedAmounts: [2500, 5000], expiryMonths: 24 } });
    const pub = await (await fetch(`${server.url}/api/educators/${fx.educatorId}/gift-vouchers`)).json();
    expect(pub).toMatchObject({ vouchers_app_installed: true, fixedAmounts: [2500, 5000], expiryMonths: 24 });

    // A second first save (another admin who opened it before) is refused, naming who saved.
    const stale = await call('PUT', '/gift-vouchers', { ...onSale, expiryMonths: 12, revision: 0 });
    expect(stale.status).toBe(409);
    expect(stale.json().detail).toContain('Ada Admin');

    // Taking invoice only: switched on, but not on sale (the gift flow never takes invoice).
    await server.db.insertInto('payment_options').values({ id: 'po_adm_gift', educator_id: fx.educatorId, course_id: null }).execute();
    await server.db.insertInto('payment_option_methods').values([
      { payment_options_id: 'po_adm_gift', method: 'card', enabled: false, label: null, message: null },
      { payment_options_id: 'po_adm_gift', method: 'invoice', enabled: true, label: null, message: null },
    ]).execute();
    const invoiceOnly = (await call('GET', '/gift-vouchers')).json();
    expect(invoiceOnly).toMatchObject({ enabled: true, payable: false, vouchers_app_installed: false, revision: 1 });

    const off = await call('PUT', '/gift-vouchers', { ...onSale, enabled: false, revision: 1 });
    expect(off.json()).toMatchObject({ revision: 2, enabled: false, vouchers_app_installed: false });
    const log = (await call('GET', `/changes?entity=gift_voucher_settings&entityId=${fx.educatorId}`)).json().changes;
    expect(log).toHaveLength(2);
    expect(log.some((l: { changes: Record<string, unknown> }) => JSON.stringify(l.changes.enabled) === '[true,false]')).toBe(true);
  });
});
