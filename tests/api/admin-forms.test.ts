/**
 * The admin's Forms API (api/admin/forms.ts) through the real server, on SQLite and PostgreSQL: the educator scope,
 * field types and "required" as the checkout reads them (GET /api/forms/{id}/view), what an edit may not do to a
 * form learners are filling in (a field's type; deleting a form in use), the checkout's cached form following every
 * save (migration 0120), the educator's default booker form, revisions and the audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { courseRow } from './public-fixtures.ts';
import { catalogueCache } from '../../api/checkout/catalogue-cache.ts';
import { bookerFormRef, validateFormResponse } from '../../src/domain/checkout/validation.ts';

let server: TestServer;
let fx: AdminFixture;
let base: string;
const OTHER_FORM = 'frm_adm_forms_other';

beforeAll(async () => {
  server = await startTestServer(ADMIN_ENV);
  fx = await adminFixture(server, 'forms');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('forms').values({ id: OTHER_FORM, educator_id: fx.otherEducatorId, name: 'Theirs' }).execute();
});
afterAll(() => server?.close());

const call = (method: string, path: string, body?: unknown) => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);
const intake = {
  name: 'Pottery intake',
  fields: [
    { label: 'Experience', dataType: 'radio', items: ['None', 'Some', 'Lots'], required: true },
    { label: 'Dietary needs', dataType: 'textarea' },
    { label: 'Phone', dataType: 'tel', required: true },
    { label: 'Please bring an apron.', dataType: 'statement' },
  ],
};

describe('who may use the forms API', () => {
  it('refuses nobody, a learner and another educator\'s admin on every route, and 404s another educator\'s form', async () => {
    const form = (await call('POST', '/forms', intake)).json();
    await expectGuarded(server, fx, 'GET', `${base}/forms`);
    await expectGuarded(server, fx, 'GET', `${base}/forms/${form.id}`);
    await expectGuarded(server, fx, 'POST', `${base}/forms`, intake);
    await expectGuarded(server, fx, 'PUT', `${base}/forms/${form.id}`, { ...intake, revision: 1 });
    await expectGuarded(server, fx, 'DELETE', `${base}/forms/${form.id}?revision=1`);
    await expectGuarded(server, fx, 'PUT', `${base}/form-default`, { revision: 1, formRef: form.id });
    expect((await call('GET', `/forms/${OTHER_FORM}`)).status).toBe(404);
    expect((await call('PUT', `/forms/${OTHER_FORM}`, { ...intake, revision: 1 })).status).toBe(404);
    expect((await call('DELETE', `/forms/${OTHER_FORM}?revision=1`)).status).toBe(404);
    const foreignDefault = await call('PUT', '/form-default', { revision: 1, formRef: OTHER_FORM });
    expect(foreignDefault.status).toBe(400);
    expect(foreignDefault.json().properties).toEqual([{ key: 'formRef', message: 'is not one of your forms' }]);
    expect((await server.db.selectFrom('forms').select('name').where('id', '=', OTHER_FORM).executeTakeFirstOrThrow()).name).toBe('Theirs');
    expect((await call('GET', '/forms')).json().forms.map((f: { id: string }) => f.id)).not.toContain(OTHER_FORM);
  });
});

describe('validation', () => {
  it('answers a problem per field', async () => {
    const res = await call('POST', '/forms', {
      name: '',
      fields: [
        { label: 'Pick', dataType: 'dropdown', items: ['Only one'] },
        { label: 'Colour', dataType: 'colour' },
        { label: 'Note', dataType: 'statement', required: true },
        { label: 'Again', dataType: 'radio', items: ['A', 'a'] },
        { id: 'system_email', label: 'Mine', dataType: 'email' },
      ],
    });
    expect(res.status).toBe(400);
    const messages = Object.fromEntries(res.json().properties.map((p: { key: string; message: string }) => [p.key, p.message]));
    expect(messages).toEqual({
      name: 'is required',
      'fields.0.items': 'needs at least 2 choices',
      'fields.1.dataType': 'must be one of the field types',
      'fields.2.required': 'does not apply to a statement',
      'fields.3.items.1': 'is already a choice',
      'fields.4.id': 'is a system field',
    });
  });
});

describe('a form as the checkout reads it', () => {
  it('shows the system fields first and the educator\'s fields with their required rules', async () => {
    const created = await call('POST', '/forms', intake);
    expect(created.status).toBe(201);
    const form = created.json();
    expect(form.fields.map((f: { dataType: string; required: boolean }) => [f.dataType, f.required])).toEqual([['radio', true], ['textarea', false], ['tel', true], ['statement', false]]);
    const view = await (await fetch(`${server.url}/api/forms/${form.id}/view`)).json();
    expect(view.fields.map((f: { _id: string }) => f._id).slice(0, 3)).toEqual(['system_first_name', 'system_last_name', 'system_email']);
    expect(view.fields.slice(3).map((f: { label: string; data_type: string; items: string[] | null }) => [f.label, f.data_type, f.items])).toEqual([
      ['Experience', 'radio', ['None', 'Some', 'Lots']], ['Dietary needs', 'textarea', null], ['Phone', 'tel', null], ['Please bring an apron.', 'statement', null],
    ]);
    expect(view.validations).toEqual(expect.arrayContaining([
      { field_ref: form.fields[0].id, condition: 'required', value: true },
      { field_ref: form.fields[2].id, condition: 'required', value: true },
    ]));
    expect(view.validations).toHaveLength(2);
  });
});

describe('editing a form learners are filling in', () => {
  it('keeps field ids, follows every save in the checkout\'s cache, and accepts an answer to a field removed meanwhile', async () => {
    const form = (await call('POST', '/forms', intake)).json();
    await server.db.insertInto('courses').values(courseRow({ id: 'crs_adm_forms_1', educator_id: fx.educatorId, slug: 'wheel', name: 'Wheel Throwing', form_ref: form.id })).execute();
    const cache = catalogueCache(server.deps.db);
    const opened = (await cache.form(server.db, form.id, fx.educatorId))!;
    expect(opened.fields.some((f) => f._id === form.fields[1].id)).toBe(true);
    // A learner fills the form as it was when they opened it.
    const answers = { system_first_name: 'Ada', system_last_name: 'Lovelace', system_email: 'ada@example.com', [form.fields[0].id]: 'Some', [form.fields[1].id]: 'No nuts', [form.fields[2].id]: '07700 900123' };
    expect(validateFormResponse(opened, answers, 'payload.bookerFormResponse')).toEqual([]);

    // Meanwhile the admin removes "Dietary needs" and renames Experience.
    const [experience, , phone, statement] = form.fields;
    const saved = await call('PUT', `/forms/${form.id}`, { revision: 1, name: 'Pottery intake', fields: [{ ...experience, label: 'Your experience' }, phone, statement] });
    expect(saved.status).toBe(200);
    expect(saved.json().fields.map((f: { id: string }) => f.id)).toEqual([experience.id, phone.id, statement.id]);
    expect(saved.json().notice).toBeNull();

    // The checkout validates with the saved form at once (its cache follows the catalogue version), and the answer to
    // the removed field does not stop the learner.
    const now = (await cache.form(server.db, form.id, fx.educatorId))!;
    expect(now.fields.map((f) => f.label)).toEqual(['First Name', 'Last Name', 'Email', 'Your experience', 'Phone', 'Please bring an apron.']);
    expect(validateFormResponse(now, answers, 'payload.bookerFormResponse')).toEqual([]);
    const rows = await server.db.selectFrom('form_validations').select('field_ref').where('form_id', '=', form.id).execute();
    expect(rows.map((r) => r.field_ref).sort()).toEqual([experience.id, phone.id].sort());
  });

  it('refuses changing a saved field\'s type, and says when the form now asks for more', async () => {
    const form = (await call('POST', '/forms', intake)).json();
    await server.db.updateTable('educators').set({ form_ref: form.id }).where('id', '=', fx.educatorId).execute();
    const typeChange = await call('PUT', `/forms/${form.id}`, { revision: 1, name: 'x', fields: [{ ...form.fields[1], dataType: 'email' }] });
    expect(typeChange.status).toBe(400);
    expect(typeChange.json().properties).toEqual([{ key: 'fields.0.dataType', message: 'cannot change once saved (it is Long text): remove the field and add a new one' }]);
    const unknown = await call('PUT', `/forms/${form.id}`, { revision: 1, name: 'x', fields: [{ id: 'fld_not_here', label: 'X', dataType: 'text' }] });
    expect(unknown.json().properties).toEqual([{ key: 'fields.0.id', message: 'is not a field of this form' }]);
    // Nothing was saved by the refused edits.
    expect((await call('GET', `/forms/${form.id}`)).json().revision).toBe(1);

    const more = await call('PUT', `/forms/${form.id}`, { revision: 1, name: intake.name, fields: [...form.fields.slice(0, 1), { ...form.fields[1], required: true }, ...form.fields.slice(2), { label: 'Emergency contact', dataType: 'text', required: true }] });
    expect(more.status).toBe(200);
    expect(more.json().notice).toBe('Learners who opened this form before you saved it will be asked for “Dietary needs”, “Emergency contact” when they continue.');
    await server.db.updateTable('educators').set({ form_ref: null }).where('id', '=', fx.educatorId).execute();
  });

  it('refuses deleting a form a course or the default uses, and deletes it once free', async () => {
    const form = (await call('POST', '/forms', { name: 'Guests', fields: [] })).json();
    await server.db.insertInto('courses').values(courseRow({ id: 'crs_adm_forms_2', educator_id: fx.educatorId, slug: 'glaze', name: 'Glazing', guest_form_ref: form.id })).execute();
    const inUse = await call('DELETE', `/forms/${form.id}?revision=1`);
    expect(inUse.status).toBe(409);
    expect(inUse.json().detail).toBe('Guests is used by Glazing. Choose another form for that course first.');
    await server.db.updateTable('courses').set({ guest_form_ref: null }).where('id', '=', 'crs_adm_forms_2').execute();

    const educator = (await call('GET', '/forms')).json();
    const setDefault = await call('PUT', '/form-default', { revision: educator.educatorRevision, formRef: form.id });
    expect(setDefault.status).toBe(200);
    expect(setDefault.json().defaultFormRef).toBe(form.id);
    // The educator's default is the booker form of a course that names none of its own.
    const row = await server.db.selectFrom('educators').select('form_ref').where('id', '=', fx.educatorId).executeTakeFirstOrThrow();
    expect(bookerFormRef({ form_ref: 'system_default' }, row)).toBe(form.id);
    const asDefault = await call('DELETE', `/forms/${form.id}?revision=1`);
    expect(asDefault.json().detail).toBe('Guests is your default booker form. Choose another default first.');
    const stale = await call('PUT', '/form-default', { revision: educator.educatorRevision, formRef: null });
    expect(stale.status).toBe(409);
    expect((await call('PUT', '/form-default', { revision: setDefault.json().educatorRevision, formRef: 'system_default' })).json().defaultFormRef).toBe('system_default');

    expect((await call('DELETE', `/forms/${form.id}?revision=1`)).status).toBe(204);
    expect(await server.db.selectFrom('forms').select('id').where('id', '=', form.id).execute()).toEqual([]);
  });

  it('refuses a stale save with who changed what, and logs each change', async () => {
    const form = (await call('POST', '/forms', intake)).json();
    server.setNow(Math.floor(Date.now() / 1000) + 60);
    expect((await call('PUT', `/forms/${form.id}`, { revision: 1, name: 'Renamed', fields: form.fields })).status).toBe(200);
    const stale = await call('PUT', `/forms/${form.id}`, { revision: 1, name: 'Mine', fields: form.fields });
    expect(stale.status).toBe(409);
    expect(stale.json().detail).toContain('Ada Admin');
    expect(stale.json().detail).toContain('(name)');
    const log = (await call('GET', `/changes?entity=form&entityId=${form.id}`)).json().changes;
    expect(log.map((l: { action: string }) => l.action)).toEqual(['update', 'create']);
    expect(log[0].changes).toEqual({ name: ['Pottery intake', 'Renamed'] });
    server.setNow(null);
  });
});
