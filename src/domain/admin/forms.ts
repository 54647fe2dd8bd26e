/**
 * An educator's own forms as the admin edits them (docs/admin.md "Forms"; spec 3 "Form", 5 "Required form fields").
 * The checkout renders every data type below (src/islands/checkout/steps/FormRenderer.tsx) and validates what a
 * learner sends against the form as saved now (src/domain/checkout/validation.ts validateFormResponse).
 *
 * What keeps a live checkout working while its form is edited:
 * - the three system fields (first name, last name, e-mail) are always there and always required; they are not
 *   the educator's to edit or remove;
 * - a field's id never changes and is never reused: an answer is filed under the id it was given for, and an answer
 *   to a field removed meanwhile is simply not asked about any more (the checkout only walks the form's fields);
 * - a field's type never changes once saved (an answer typed as text must not be judged as an e-mail address):
 *   remove it and add a new one instead;
 * - a form a course or the educator's default uses cannot be deleted.
 *
 * Pure: no I/O.
 */
import { z } from '../zod.ts';
import type { ProblemProperty } from '../problems.ts';
import { MARKETING_CONSENT_FIELD_ID, SYSTEM_FIELD_IDS, SYSTEM_FIELD_LABELS } from '../checkout/validation.ts';
import { REQUIRED, optionalText, refId, text, wholeNumber } from './catalogue-input.ts';

/** The types an educator's own field may have (first_name and last_name belong to the system fields). */
export const CUSTOM_FIELD_TYPES = ['text', 'textarea', 'email', 'tel', 'url', 'number', 'date', 'address', 'dropdown', 'radio', 'checkbox', 'boolean', 'statement'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** How the editor names each type. */
export const FIELD_TYPE_LABELS: Record<CustomFieldType, string> = {
  text: 'Short text',
  textarea: 'Long text',
  email: 'Email address',
  tel: 'Phone number',
  url: 'Web address',
  number: 'Number',
  date: 'Date',
  address: 'Postal address',
  dropdown: 'Dropdown (one choice)',
  radio: 'Options (one choice)',
  checkbox: 'Tick boxes (several choices)',
  boolean: 'Single tick box',
  statement: 'Statement (text only, no answer)',
};

/** Types whose answers are chosen from the field's items. */
export const TYPES_WITH_ITEMS: readonly CustomFieldType[] = ['dropdown', 'radio', 'checkbox'];

export const MAX_FIELDS = 50;
export const MAX_ITEMS = 50;

/** The system fields every form starts with (spec 3), shown locked in the editor. */
export const SYSTEM_FIELDS = SYSTEM_FIELD_IDS.map((id) => ({ id, label: SYSTEM_FIELD_LABELS[id], dataType: id === 'system_email' ? 'email' : id === 'system_first_name' ? 'first_name' : 'last_name', required: true }));

const RESERVED_IDS = new Set<string>([...SYSTEM_FIELD_IDS, MARKETING_CONSENT_FIELD_ID]);

export const fieldInputSchema = z
  .object({
    /** Absent for a new field (the server gives it an id). */
    id: refId.optional(),
    label: text(200),
    description: optionalText(1000),
    dataType: z.enum(CUSTOM_FIELD_TYPES, { error: 'must be one of the field types' }),
    items: z.array(text(200), { error: 'must be a list' }).max(MAX_ITEMS, `must be at most ${MAX_ITEMS}`).default([]),
    required: z.boolean().default(false),
  })
  .superRefine((f, ctx) => {
    if (f.id && RESERVED_IDS.has(f.id)) ctx.addIssue({ code: 'custom', path: ['id'], message: 'is a system field' });
    if (TYPES_WITH_ITEMS.includes(f.dataType)) {
      const least = f.dataType === 'checkbox' ? 1 : 2;
      if (f.items.length < least) ctx.addIssue({ code: 'custom', path: ['items'], message: `needs at least ${least} ${least === 1 ? 'choice' : 'choices'}` });
      const seen = new Set<string>();
      f.items.forEach((item, i) => {
        const key = item.trim().toLowerCase();
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['items', i], message: 'is already a choice' });
        seen.add(key);
      });
    }
    if (f.dataType === 'statement' && f.required) ctx.addIssue({ code: 'custom', path: ['required'], message: 'does not apply to a statement' });
  })
  .transform((f) => ({ ...f, items: TYPES_WITH_ITEMS.includes(f.dataType) ? f.items : [] }));
export type FieldInput = z.output<typeof fieldInputSchema>;

const formShape = {
  name: text(120),
  fields: z.array(fieldInputSchema, { error: REQUIRED }).max(MAX_FIELDS, `must be at most ${MAX_FIELDS}`),
};

function checkIds(form: { fields: FieldInput[] }, ctx: z.RefinementCtx): void {
  const seen = new Set<string>();
  form.fields.forEach((f, i) => {
    if (!f.id) return;
    if (seen.has(f.id)) ctx.addIssue({ code: 'custom', path: ['fields', i, 'id'], message: 'is already a field of this form' });
    seen.add(f.id);
  });
}

export const formInputSchema = z.object(formShape).superRefine(checkIds);
export type FormInput = z.output<typeof formInputSchema>;

export const formUpdateSchema = z.object({ revision: wholeNumber(1, Number.MAX_SAFE_INTEGER), ...formShape }).superRefine(checkIds);
export type FormUpdateInput = z.output<typeof formUpdateSchema>;

/** A field as stored (what an edit is compared with). */
export interface StoredField {
  id: string;
  label: string;
  dataType: string;
  required: boolean;
}

/**
 * What an edit may not do to a saved form: change a field's type, or name an id the form does not have. Keys are
 * the body's paths (`fields.{i}.dataType`).
 */
export function formEditProblems(before: readonly StoredField[], after: readonly FieldInput[]): ProblemProperty[] {
  const saved = new Map(before.map((f) => [f.id, f]));
  const out: ProblemProperty[] = [];
  after.forEach((f, i) => {
    if (!f.id) return;
    const was = saved.get(f.id);
    if (!was) {
      out.push({ key: `fields.${i}.id`, message: 'is not a field of this form' });
      return;
    }
    if (was.dataType !== f.dataType) {
      const from = FIELD_TYPE_LABELS[was.dataType as CustomFieldType] ?? was.dataType;
      out.push({ key: `fields.${i}.dataType`, message: `cannot change once saved (it is ${from}): remove the field and add a new one` });
    }
  });
  return out;
}

/** Fields a learner filling the form now has not been asked for, or not as required: new required fields and fields made required. */
export function newlyRequired(before: readonly StoredField[], after: readonly FieldInput[]): string[] {
  const saved = new Map(before.map((f) => [f.id, f]));
  return after.filter((f) => f.required && (!f.id || !saved.get(f.id)?.required)).map((f) => f.label);
}

/** What the admin is told after saving a form in use that asks for more than before. */
export function newlyRequiredNotice(labels: readonly string[]): string | null {
  if (labels.length === 0) return null;
  const list = labels.map((l) => `“${l}”`).join(', ');
  return `Learners who opened this form before you saved it will be asked for ${list} when they continue.`;
}
