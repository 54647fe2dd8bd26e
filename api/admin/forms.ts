/**
 * The educator's own forms in the admin (docs/admin.md "Forms"), relative to /admin/educators/{educatorId}:
 *
 *   GET    /forms                     → the forms, where each is used, and the educator's default booker form
 *   GET    /forms/{formId}            → one form: its fields (system fields first, locked) and which are required
 *   POST   /forms                     → a new form {name, fields[]}
 *   PUT    /forms/{formId}            → the form, whole ({revision, name, fields[]}); ids of kept fields are kept
 *   DELETE /forms/{formId}?revision=N → refused while a course or the default uses it
 *   PUT    /form-default              → the educator's default booker form ({revision: the educator's, formRef})
 *
 * A form is the checkout's (spec 3 "Form"): fields in form_fields, "required" as form_validations rows
 * {condition 'required', value true}. Every write goes through those tables, whose triggers (migrations 0030 and
 * 0120) republish the pages and raise the educator's catalogue version, so the next checkout action validates with
 * the saved form. What an edit may not do to a form learners are filling in is src/domain/admin/forms.ts's.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { adminEducatorId } from './access.ts';
import { claimRevision, diffFields } from './audit.ts';
import { audit, created, deleteRevision, invalid, invalidFields, notYours, pathId, refused, removed, type Trx } from './catalogue-saves.ts';
import { decodeValidationValue } from '../../db/queries/checkout.ts';
import { DEFAULT_FORM_REF } from '../../src/domain/checkout/validation.ts';
import {
  SYSTEM_FIELDS, formEditProblems, formInputSchema, formUpdateSchema, newlyRequired, newlyRequiredNotice, type FieldInput, type StoredField,
} from '../../src/domain/admin/forms.ts';
import { wholeNumber } from '../../src/domain/admin/catalogue-input.ts';

type Q = Trx | AppEnv['Variables']['deps']['db'];

const defaultBody = z.object({
  revision: wholeNumber(1, Number.MAX_SAFE_INTEGER),
  /** One of the educator's forms, 'system_default' or null: the system's default form. */
  formRef: z.string().max(64).nullable(),
});

interface FieldView extends StoredField { description: string | null; items: string[]; system?: boolean }

async function formFields(q: Q, formId: string): Promise<FieldView[]> {
  const [fields, validations] = await Promise.all([
    q.selectFrom('form_fields').selectAll().where('form_id', '=', formId).orderBy('position').orderBy('id').execute(),
    q.selectFrom('form_validations').selectAll().where('form_id', '=', formId).execute(),
  ]);
  const required = new Set(validations.filter((v) => v.condition === 'required' && decodeValidationValue(v.value_json) === true).map((v) => v.field_ref));
  return fields
    .filter((f) => !SYSTEM_FIELDS.some((s) => s.id === f.id))
    .map((f) => ({ id: f.id, label: f.label, description: f.description, dataType: f.data_type, items: f.items ?? [], required: required.has(f.id) }));
}

/** Where the educator's forms are used: courses (booker or guest form) and the educator's default. */
async function usage(q: Q, educatorId: string): Promise<{ byForm: Map<string, { courseId: string; name: string; as: 'booker' | 'guest' }[]>; defaultRef: string | null; educatorRevision: number }> {
  const [courses, educator] = await Promise.all([
    q.selectFrom('courses').select(['id', 'name', 'form_ref', 'guest_form_ref']).where('educator_id', '=', educatorId).orderBy('name').execute(),
    q.selectFrom('educators').select(['form_ref', 'revision']).where('id', '=', educatorId).executeTakeFirstOrThrow(),
  ]);
  const byForm = new Map<string, { courseId: string; name: string; as: 'booker' | 'guest' }[]>();
  const add = (ref: string | null, entry: { courseId: string; name: string; as: 'booker' | 'guest' }) => {
    if (!ref) return;
    byForm.set(ref, [...(byForm.get(ref) ?? []), entry]);
  };
  for (const c of courses) {
    add(c.form_ref, { courseId: c.id, name: c.name, as: 'booker' });
    add(c.guest_form_ref, { courseId: c.id, name: c.name, as: 'guest' });
  }
  return { byForm, defaultRef: educator.form_ref, educatorRevision: Number(educator.revision) };
}

async function ownedForm(c: Context<AppEnv>, q: Q) {
  const id = pathId.safeParse(c.req.param('formId'));
  if (!id.success) throw notYours('No form of yours has this id.');
  const row = await q.selectFrom('forms').selectAll().where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).executeTakeFirst();
  if (!row) throw notYours('No form of yours has this id.');
  return row;
}

async function formView(q: Q, educatorId: string, form: { id: string; name: string; revision: number }) {
  const [fields, use] = await Promise.all([formFields(q, form.id), usage(q, educatorId)]);
  return {
    id: form.id,
    name: form.name,
    revision: Number(form.revision),
    systemFields: SYSTEM_FIELDS,
    fields,
    usedBy: use.byForm.get(form.id) ?? [],
    isDefault: use.defaultRef === form.id,
  };
}

function auditShape(name: string, fields: readonly (FieldInput | FieldView)[]) {
  return { name, fields: fields.map((f) => ({ id: f.id, label: f.label, description: f.description, dataType: f.dataType, items: f.items, required: f.required })) };
}

/** Makes the form's fields (and their "required" rules) the given list; returns the saved list with ids. */
async function writeFields(trx: Trx, educatorId: string, formId: string, fields: FieldInput[], existing: FieldView[], now: number): Promise<FieldInput[]> {
  const keep = new Set(fields.map((f) => f.id).filter((v): v is string => !!v));
  const gone = existing.filter((f) => !keep.has(f.id)).map((f) => f.id);
  // The rules first, then the fields (the version triggers find the educator through the form, which stays).
  await trx.deleteFrom('form_validations').where('form_id', '=', formId).where((eb) => eb.or([eb('condition', '=', 'required'), ...(gone.length ? [eb('field_ref', 'in', gone)] : [])])).execute();
  if (gone.length) await trx.deleteFrom('form_fields').where('form_id', '=', formId).where('id', 'in', gone).execute();
  const saved: FieldInput[] = [];
  for (const [i, f] of fields.entries()) {
    // Positions after the system fields' (0–2), whether or not the form stores those.
    const values = { label: f.label, description: f.description, data_type: f.dataType, items: f.items.length ? f.items : null, position: 10 + i, updated_at: now };
    let id = f.id;
    if (id) {
      await trx.updateTable('form_fields').set(values).where('form_id', '=', formId).where('id', '=', id).execute();
    } else {
      id = newId('fld');
      await trx.insertInto('form_fields').values({ form_id: formId, id, educator_ref: educatorId, created_at: now, ...values }).execute();
    }
    if (f.required) await trx.insertInto('form_validations').values({ form_id: formId, field_ref: id, condition: 'required', value_json: JSON.stringify(true) }).execute();
    saved.push({ ...f, id });
  }
  return saved;
}

export function formsAdminRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/forms', listForms);
  app.get('/forms/:formId', showForm);
  app.post('/forms', createForm);
  app.put('/forms/:formId', updateForm);
  app.delete('/forms/:formId', deleteForm);
  app.put('/form-default', setDefaultForm);
  return app;
}

/** GET /forms: the forms, where each is used, and the default booker form. */
async function listForms(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const educatorId = adminEducatorId(c);
  const [forms, use, counts] = await Promise.all([
    db.selectFrom('forms').select(['id', 'name', 'revision']).where('educator_id', '=', educatorId).orderBy('name').orderBy('id').execute(),
    usage(db, educatorId),
    db.selectFrom('form_fields').innerJoin('forms', 'forms.id', 'form_fields.form_id').where('forms.educator_id', '=', educatorId)
      .select(['form_fields.form_id', (eb) => eb.fn.countAll<number | string>().as('n')]).groupBy('form_fields.form_id').execute(),
  ]);
  return c.json({
    forms: forms.map((f) => ({
      id: f.id, name: f.name, revision: Number(f.revision), fields: Number(counts.find((n) => n.form_id === f.id)?.n ?? 0),
      usedBy: use.byForm.get(f.id) ?? [], isDefault: use.defaultRef === f.id,
    })),
    defaultFormRef: use.defaultRef ?? DEFAULT_FORM_REF,
    educatorRevision: use.educatorRevision,
  });
}

/** GET /forms/{formId}: one form. */
async function showForm(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const form = await ownedForm(c, db);
  return c.json(await formView(db, adminEducatorId(c), form));
}

/** POST /forms: a new form. */
async function createForm(c: Context<AppEnv>) {
  const { db, now } = c.var.deps;
  const input = await parseJson(c, formInputSchema);
  const educatorId = adminEducatorId(c);
  const strangers = input.fields.map((f, i) => (f.id ? { key: `fields.${i}.id`, message: 'is not a field of this form' } : null)).filter((p) => p !== null);
  if (strangers.length) throw invalidFields(strangers);
  const view = await db.transaction().execute(async (trx) => {
    const id = newId('frm');
    await trx.insertInto('forms').values({ id, educator_id: educatorId, name: input.name }).execute();
    const saved = await writeFields(trx, educatorId, id, input.fields, [], now());
    await audit(trx, c, { entity: 'form', entityId: id, action: 'create', revision: 1, changes: created(auditShape(input.name, saved)) });
    return formView(trx, educatorId, { id, name: input.name, revision: 1 });
  });
  return c.json(view, 201);
}

/** PUT /forms/{formId}: the form, whole; a form in use answers a notice of fields newly required. */
async function updateForm(c: Context<AppEnv>) {
  const { db, now } = c.var.deps;
  const input = await parseJson(c, formUpdateSchema);
  const educatorId = adminEducatorId(c);
  const result = await db.transaction().execute(async (trx) => {
    const form = await ownedForm(c, trx);
    const revision = await claimRevision(trx, { table: 'forms', id: form.id, expected: input.revision, educatorId, entity: 'form' });
    const before = await formFields(trx, form.id);
    const problems = formEditProblems(before, input.fields);
    if (problems.length) throw invalidFields(problems.map((p) => ({ key: p.key, message: p.message })));
    await trx.updateTable('forms').set({ name: input.name }).where('id', '=', form.id).execute();
    const saved = await writeFields(trx, educatorId, form.id, input.fields, before, now());
    await audit(trx, c, { entity: 'form', entityId: form.id, action: 'update', revision, changes: diffFields(auditShape(form.name, before), auditShape(input.name, saved)) });
    const view = await formView(trx, educatorId, { id: form.id, name: input.name, revision });
    const inUse = view.usedBy.length > 0 || view.isDefault;
    return { ...view, notice: inUse ? newlyRequiredNotice(newlyRequired(before, input.fields)) : null };
  });
  return c.json(result);
}

/** DELETE /forms/{formId}?revision=N: refused while a course or the default uses it. */
async function deleteForm(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const revision = deleteRevision(c);
  const educatorId = adminEducatorId(c);
  await db.transaction().execute(async (trx) => {
    const form = await ownedForm(c, trx);
    await claimRevision(trx, { table: 'forms', id: form.id, expected: revision, educatorId, entity: 'form' });
    const use = await usage(trx, educatorId);
    const users = use.byForm.get(form.id) ?? [];
    if (use.defaultRef === form.id) throw refused('Form In Use', `${form.name} is your default booker form. Choose another default first.`);
    if (users.length) {
      const names = [...new Set(users.map((u) => u.name))];
      throw refused('Form In Use', `${form.name} is used by ${names.join(', ')}. Choose another form for ${names.length === 1 ? 'that course' : 'those courses'} first.`);
    }
    const before = await formFields(trx, form.id);
    await trx.deleteFrom('form_validations').where('form_id', '=', form.id).execute();
    await trx.deleteFrom('form_fields').where('form_id', '=', form.id).execute();
    await trx.deleteFrom('forms').where('id', '=', form.id).execute();
    await audit(trx, c, { entity: 'form', entityId: form.id, action: 'delete', changes: removed(auditShape(form.name, before)) });
  });
  return c.body(null, 204);
}

/** PUT /form-default: the educator's default booker form. */
async function setDefaultForm(c: Context<AppEnv>) {
  const { db } = c.var.deps;
  const input = await parseJson(c, defaultBody);
  const educatorId = adminEducatorId(c);
  const ref = !input.formRef || input.formRef === DEFAULT_FORM_REF ? null : input.formRef;
  const result = await db.transaction().execute(async (trx) => {
    if (ref) {
      const form = await trx.selectFrom('forms').select('id').where('id', '=', ref).where('educator_id', '=', educatorId).executeTakeFirst();
      if (!form) throw invalid('formRef', 'is not one of your forms');
    }
    const before = await trx.selectFrom('educators').select('form_ref').where('id', '=', educatorId).executeTakeFirstOrThrow();
    const revision = await claimRevision(trx, { table: 'educators', id: educatorId, expected: input.revision, educatorId, entity: 'educator' });
    await trx.updateTable('educators').set({ form_ref: ref }).where('id', '=', educatorId).execute();
    await audit(trx, c, { entity: 'educator', entityId: educatorId, action: 'update', revision, changes: diffFields({ form_ref: before.form_ref }, { form_ref: ref }) });
    return { defaultFormRef: ref ?? DEFAULT_FORM_REF, educatorRevision: revision };
  });
  return c.json(result);
}
