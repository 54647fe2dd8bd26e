/**
 * The Forms screen (/forms): the educator's own forms for the checkout's Contact Info step (spec 3 "Form"), the
 * default booker form, and an editor of one form — the system fields first (locked), then the educator's fields
 * (any type the checkout renders, required or not, choices for the choice types), moved with Up / Down buttons.
 * A saved field's type cannot change (src/domain/admin/forms.ts says why).
 */
import { useState } from 'react';
import { adminFetch } from '../api.ts';
import { CUSTOM_FIELD_TYPES, FIELD_TYPE_LABELS, TYPES_WITH_ITEMS, type CustomFieldType } from '../../../domain/admin/forms.ts';
import { CheckboxField, ProblemAlert, SelectField, TextArea, TextField, educatorPath, useAdminData, useDraftEditor, useSave, type FieldErrors } from '../catalogue/kit.tsx';
import { ItemActions, ListScreenStatus, MoveButtons, SaveOrCancel, moveItem, useListItemSaving } from '../collections/listEditing.tsx';

interface FormSummary { id: string; name: string; revision: number; fields: number; usedBy: { courseId: string; name: string; as: 'booker' | 'guest' }[]; isDefault: boolean }
interface FormsData { forms: FormSummary[]; defaultFormRef: string; educatorRevision: number }
interface FieldView { id: string; label: string; description: string | null; dataType: string; items: string[]; required: boolean }
interface FormView { id: string; name: string; revision: number; systemFields: { id: string; label: string; required: boolean }[]; fields: FieldView[]; usedBy: FormSummary['usedBy']; isDefault: boolean; notice?: string | null }

interface FieldDraft { key: string; id?: string; label: string; description: string; dataType: CustomFieldType; items: string; required: boolean; saved: boolean }
interface Draft { id: string | null; revision: number; name: string; fields: FieldDraft[] }

const SYSTEM_LABELS = ['First Name', 'Last Name', 'Email'];
let keys = 0;

function fieldDraft(f: FieldView): FieldDraft {
  return { key: `k${++keys}`, id: f.id, label: f.label, description: f.description ?? '', dataType: f.dataType as CustomFieldType, items: f.items.join('\n'), required: f.required, saved: true };
}

const EMPTY: Draft = { id: null, revision: 0, name: '', fields: [] };
const newField = (): FieldDraft => ({ key: `k${++keys}`, label: '', description: '', dataType: 'text', items: '', required: false, saved: false });

/** The fields as the API takes them: choices only for the choice types, and a statement is never required. */
function fieldsBody(fields: FieldDraft[]) {
  return fields.map((f) => ({
    id: f.id, label: f.label, description: f.description, dataType: f.dataType,
    items: TYPES_WITH_ITEMS.includes(f.dataType) ? f.items.split('\n').map((s) => s.trim()).filter(Boolean) : [], required: f.dataType === 'statement' ? false : f.required,
  }));
}

function usedByText(f: { usedBy: FormSummary['usedBy']; isDefault: boolean }): string {
  const parts = f.usedBy.map((u) => `${u.name} (${u.as === 'booker' ? 'booker' : 'guests'})`);
  if (f.isDefault) parts.unshift('your default booker form');
  return parts.length ? `Used by ${parts.join(', ')}` : 'Not used yet';
}

export default function FormsEditor({ educatorId }: { educatorId: string }) {
  const { data, problem: loadProblem, reload } = useAdminData<FormsData>(educatorPath(educatorId, '/forms'));
  const save = useSave();
  const editor = useDraftEditor<Draft>(save);
  const { draft, setDraft, setDirty, notice, setNotice, confirming, setConfirming, set, open } = editor;
  const items = useListItemSaving({ educatorId, path: '/forms', save, editor, reload });
  const [defaultRef, setDefaultRef] = useState<string | null>(null);

  /** Opens a saved form for editing, as the server has it now. */
  async function openForm(id: string) {
    save.clear();
    setNotice(null);
    setConfirming(null);
    const res = await adminFetch<FormView>('GET', educatorPath(educatorId, `/forms/${encodeURIComponent(id)}`));
    if (res.ok) {
      setDraft({ id: res.data.id, revision: res.data.revision, name: res.data.name, fields: res.data.fields.map(fieldDraft) });
      setDirty(false);
    }
  }

  async function saveDefault() {
    if (!data) return;
    const res = await save.run<{ defaultFormRef: string }>('PUT', educatorPath(educatorId, '/form-default'), { revision: data.educatorRevision, formRef: defaultRef ?? data.defaultFormRef });
    if (res) {
      setNotice('Saved your default booker form.');
      setDefaultRef(null);
      await reload();
    }
  }

  if (loadProblem && !data) return <ProblemAlert problem={loadProblem} />;
  if (!data) return <p role="status">Loading forms…</p>;

  return (
    <div data-testid="forms-editor">
      <p className="cat-muted">The questions learners answer at Contact Info. Every form starts with First Name, Last Name and Email; a course uses its own form, else your default.</p>
      <ListScreenStatus educatorId={educatorId} notice={notice} save={save} editing={!!draft} onReload={() => void reload()} />

      {draft ? (
        <FormEditorPanel
          draft={draft}
          set={set}
          save={save}
          onReopen={() => void openForm(draft.id!)}
          onSubmit={() => void items.saveDraft<FormView>(draft, { name: draft.name, fields: fieldsBody(draft.fields) }, (res) => (res.notice ? `Saved ${res.name}. ${res.notice}` : `Saved ${res.name}.`))}
          onCancel={items.cancel}
        />
      ) : (
        <p><button type="button" className="btn" onClick={() => open(EMPTY)}>New form</button></p>
      )}

      <section aria-labelledby="forms-heading">
        <h2 id="forms-heading">Your forms</h2>
        {data.forms.length === 0 ? <p className="admin-empty">No forms of your own yet: your courses ask only for a learner's name and email.</p> : (
          <ul className="cat-list" data-testid="forms-list">
            {data.forms.map((f) => (
              <li key={f.id} data-form={f.id}>
                <div className="cat-row-head">
                  <h3>{f.name}</h3>
                  <span className="cat-muted">{f.fields} {f.fields === 1 ? 'field' : 'fields'} of your own</span>
                </div>
                <p className="cat-muted">{usedByText(f)}</p>
                <ItemActions title={f.name} confirming={confirming === f.id} onEdit={() => void openForm(f.id)} onAskRemove={() => setConfirming(f.id)}
                  onRemove={() => void items.removeItem(f, `Removed ${f.name}.`)} onKeep={() => setConfirming(null)} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <section className="cat-panel" aria-labelledby="default-heading">
        <h2 id="default-heading">Default booker form</h2>
        <form noValidate onSubmit={(e) => { e.preventDefault(); void saveDefault(); }}>
          <SelectField
            label="Courses that do not choose a form of their own ask"
            name="formRef"
            value={defaultRef ?? data.defaultFormRef}
            onChange={setDefaultRef}
            options={[{ value: 'system_default', label: 'Name and email only' }, ...data.forms.map((f) => ({ value: f.id, label: f.name }))]}
            errors={draft ? {} : save.errors}
          />
          <button type="submit" className="btn btn--secondary" disabled={save.busy || defaultRef === null || defaultRef === data.defaultFormRef}>Save default</button>
        </form>
      </section>
    </div>
  );
}

/** The edit form of one form: its name, the locked system fields, then the educator's fields in order. */
function FormEditorPanel({ draft, set, save, onReopen, onSubmit, onCancel }: {
  draft: Draft; set(patch: Partial<Draft>): void; save: ReturnType<typeof useSave>; onReopen(): void; onSubmit(): void; onCancel(): void;
}) {
  const errors = save.errors;
  const setField = (i: number, patch: Partial<FieldDraft>) => set({ fields: draft.fields.map((f, j) => (j === i ? { ...f, ...patch } : f)) });
  return (
    <section className="cat-panel" aria-labelledby="form-heading">
      <h2 id="form-heading">{draft.id ? `Edit ${draft.name || 'form'}` : 'New form'}</h2>
      <ProblemAlert problem={save.problem} onReload={onReopen} />
      <form noValidate onSubmit={(e) => { e.preventDefault(); onSubmit(); }}>
        <TextField label="Form name" name="name" value={draft.name} onChange={(v) => set({ name: v })} errors={errors} hint="Only you see it, when choosing a course's form." />
        <h3>Fields</h3>
        <ul className="cat-list" aria-label="System fields">
          {SYSTEM_LABELS.map((l) => <li key={l}><strong>{l}</strong> <span className="cat-muted">· always asked, required</span></li>)}
        </ul>
        {draft.fields.map((f, i) => (
          <FieldEditor key={f.key} field={f} index={i} count={draft.fields.length} errors={errors} onChange={(patch) => setField(i, patch)}
            onMove={(by) => set({ fields: moveItem(draft.fields, i, by) })} onRemove={() => set({ fields: draft.fields.filter((_, j) => j !== i) })} />
        ))}
        <p>
          <button type="button" className="btn btn--secondary" onClick={() => set({ fields: [...draft.fields, newField()] })}>
            Add a field
          </button>
        </p>
        <SaveOrCancel busy={save.busy} label="Save form" onCancel={onCancel} />
      </form>
    </section>
  );
}

/** One of the educator's fields: question, type (fixed once saved), help text, choices, required; moved or removed. */
function FieldEditor({ field: f, index: i, count, errors, onChange, onMove, onRemove }: {
  field: FieldDraft; index: number; count: number; errors: FieldErrors; onChange(patch: Partial<FieldDraft>): void; onMove(by: number): void; onRemove(): void;
}) {
  return (
    <fieldset className="cat-fieldset" data-form-field={i}>
      <legend>Field {i + 1}{f.label ? `: ${f.label}` : ''}</legend>
      <div className="cat-grid">
        <TextField label="Question" name={`fields.${i}.label`} value={f.label} onChange={(v) => onChange({ label: v })} errors={errors} />
        <SelectField
          label="Type"
          name={`fields.${i}.dataType`}
          value={f.dataType}
          onChange={(v) => onChange({ dataType: v as CustomFieldType })}
          options={CUSTOM_FIELD_TYPES.map((t) => ({ value: t, label: FIELD_TYPE_LABELS[t] }))}
          errors={errors}
          disabled={f.saved}
          hint={f.saved ? 'Saved fields keep their type: remove the field and add a new one to change it.' : undefined}
        />
      </div>
      <TextArea label="Help text (optional)" name={`fields.${i}.description`} value={f.description} onChange={(v) => onChange({ description: v })} errors={errors} rows={2} />
      {TYPES_WITH_ITEMS.includes(f.dataType) && (
        <TextArea label="Choices, one per line" name={`fields.${i}.items`} value={f.items} onChange={(v) => onChange({ items: v })} errors={errors} rows={4} />
      )}
      {f.dataType !== 'statement' && <CheckboxField label="Required" name={`fields.${i}.required`} checked={f.required} onChange={(v) => onChange({ required: v })} errors={errors} />}
      <MoveButtons index={i} count={count} what={`field ${i + 1}`} onMove={onMove}>
        <button type="button" className="btn btn--ghost btn--small" onClick={onRemove}>Remove field {i + 1}</button>
      </MoveButtons>
    </fieldset>
  );
}
