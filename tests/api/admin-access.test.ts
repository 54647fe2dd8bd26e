/**
 * The educator admin's host and scope: the admin host serves the admin app and the API, nothing public, framed by
 * nobody, never cached or indexed; every /api/admin/educators/{id}/… route is for that educator's admins only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { rawRequest } from '../helpers/auth.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { recordChange } from '../../api/admin/audit.ts';

let server: TestServer;
let fx: AdminFixture;

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server);
});
afterAll(() => server?.close());

describe('the admin host', () => {
  it('answers with no public caching, no indexing and no framing', async () => {
    const res = await adminCall(server, fx.admin.cookie, 'GET', '/api/admin/me');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(String(res.headers['content-security-policy'])).toContain("frame-ancestors 'none'");
  });

  it('keeps the marketplace host framable by itself only, as before', async () => {
    const res = await rawRequest(server, '/api/health', { host: 'localhost:4321' });
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-robots-tag']).toBeUndefined();
  });

  it('does not serve the admin app on the public hosts', async () => {
    const res = await rawRequest(server, '/admin-app/', { host: 'localhost:4321' });
    expect(res.status).toBe(404);
  });

  it('lists the educators the signed-in user administers', async () => {
    const res = await adminCall(server, fx.admin.cookie, 'GET', '/api/admin/me');
    expect(res.json().educators.map((e: { id: string }) => e.id)).toEqual([fx.educatorId]);
    expect((await adminCall(server, null, 'GET', '/api/admin/me')).status).toBe(401);
  });
});

describe('educator scope', () => {
  it('refuses the audit log to anyone but the educator\'s admins', async () => {
    await expectGuarded(server, fx, 'GET', `/api/admin/educators/${fx.educatorId}/changes`);
    // An id that does not exist gets the same 403 as another educator's (nothing to probe).
    const unknown = await adminCall(server, fx.admin.cookie, 'GET', '/api/admin/educators/edu_nobody/changes');
    expect(unknown.status).toBe(403);
  });

  it('shows the educator\'s admins their changes, newest first, with who made them', async () => {
    await recordChange(server.db, {
      educatorId: fx.educatorId, userId: fx.admin.user.id, entity: 'educator', entityId: fx.educatorId, action: 'update',
      revision: 2, changes: { name: ['Old', 'New'] }, at: 1_800_000_000,
    });
    await recordChange(server.db, {
      educatorId: fx.otherEducatorId, userId: fx.otherAdmin.user.id, entity: 'educator', entityId: fx.otherEducatorId, action: 'update',
      revision: 2, changes: { name: ['X', 'Y'] }, at: 1_800_000_001,
    });
    const res = await adminCall(server, fx.admin.cookie, 'GET', `/api/admin/educators/${fx.educatorId}/changes`);
    expect(res.status).toBe(200);
    const { changes } = res.json();
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ entity: 'educator', action: 'update', fields: ['name'], by: { name: 'Ada Admin' }, changes: { name: ['Old', 'New'] } });
  });

  it('answers bad query strings with a validation problem, not a 500', async () => {
    const res = await adminCall(server, fx.admin.cookie, 'GET', `/api/admin/educators/${fx.educatorId}/changes?limit=abc`);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
  });
});


describe('publish status', () => {
  it('is live when no page change of the educator is queued, and counts the queued and failing ones', async () => {
    const path = `/api/admin/educators/${fx.educatorId}/publish-status`;
    await expectGuarded(server, fx, 'GET', path);
    await server.db.deleteFrom('page_changes').execute();
    const fresh = (await adminCall(server, fx.admin.cookie, 'GET', path)).json();
    expect(fresh).toMatchObject({ live: true, pending: 0, failing: 0 });
    expect(fresh.pages.marketplace).toMatch(/^http:\/\/localhost:4321\/adm/);
    expect(fresh.pages.embed).toContain('/embed/');
    await server.db.updateTable('educators').set({ name: 'Renamed' }).where('id', '=', fx.educatorId).execute();
    const queued = (await adminCall(server, fx.admin.cookie, 'GET', path)).json();
    expect(queued.live).toBe(false);
    expect(queued.pending).toBeGreaterThan(0);
    await server.db.updateTable('page_changes').set({ attempts: 1, claimed_by: null, claimed_until: null }).where('educator_id', '=', fx.educatorId).execute();
    expect((await adminCall(server, fx.admin.cookie, 'GET', path)).json().failing).toBe(queued.pending);
  });
});
