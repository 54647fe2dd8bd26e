/**
 * The form of a new or existing membership plan: name, how it is paid, price, percentage off, credits, the courses
 * it covers and whether it is listed. A plan with members says what it can no longer change.
 */
import type { AdminProblem } from '../api.ts';
import { CheckboxField, ProblemAlert, SelectField, TextArea, TextField, type FieldErrors } from '../catalogue/kit.tsx';
import { PLAN_INTERVALS, type PlanDraft, type PlanView } from '../../../domain/admin/membership-form.ts';

interface Course { id: string; name: string }

interface Props {
  draft: PlanDraft;
  /** The plan as listed, when it is one being edited. */
  editing: PlanView | null;
  courses: Course[];
  set: (patch: Partial<PlanDraft>) => void;
  errors: FieldErrors;
  busy: boolean;
  problem: AdminProblem | null;
  onSubmit: () => void;
  onCancel: () => void;
  onReload: () => void;
}

/** Every course, or the ones ticked. */
function CoursesCovered({ draft, courses, set, errors }: Pick<Props, 'draft' | 'courses' | 'set' | 'errors'>) {
  return (
    <fieldset className="cat-fieldset">
      <legend>Courses covered</legend>
      <CheckboxField label="Every course" name="allCourses" checked={draft.allCourses} onChange={(v) => set({ allCourses: v })} />
      {!draft.allCourses && courses.map((c) => (
        <CheckboxField key={c.id} label={c.name} name={`course-${c.id}`} checked={draft.courseIds.includes(c.id)}
          onChange={(on) => set({ courseIds: on ? [...draft.courseIds, c.id] : draft.courseIds.filter((x) => x !== c.id) })} />
      ))}
      {errors.courseIds && <p className="field-error">{errors.courseIds}</p>}
    </fieldset>
  );
}

export default function PlanForm({ draft, editing, courses, set, errors, busy, problem, onSubmit, onCancel, onReload }: Props) {
  return (
    <section className="cat-panel" aria-labelledby="plan-heading">
      <h2 id="plan-heading">{draft.id ? `Edit ${draft.name || 'plan'}` : 'New plan'}</h2>
      {editing && editing.members > 0 && (
        <p className="cat-muted">{editing.members} current {editing.members === 1 ? 'member holds' : 'members hold'} this plan: its interval cannot change and its benefits cannot shrink. A new price is for new members.</p>
      )}
      <ProblemAlert problem={problem} onReload={onReload} />
      <form noValidate onSubmit={(e) => { e.preventDefault(); onSubmit(); }}>
        <div className="cat-grid">
          <TextField label="Name" name="name" value={draft.name} onChange={(v) => set({ name: v })} errors={errors} />
          <SelectField label="Paid" name="interval" value={draft.interval} onChange={(v) => set({ interval: v as PlanDraft['interval'] })} options={PLAN_INTERVALS} errors={errors} />
          {draft.interval === 'pass' && <TextField label="Pass lasts (months)" name="passMonths" type="number" inputMode="numeric" value={draft.passMonths} onChange={(v) => set({ passMonths: v })} errors={errors} />}
          <TextField label="Price (£)" name="price" inputMode="decimal" value={draft.price} onChange={(v) => set({ price: v })} errors={errors} />
          <TextField label="Percentage off" name="discountPercent" type="number" inputMode="numeric" value={draft.discountPercent} onChange={(v) => set({ discountPercent: v })} errors={errors} hint="0 to 100." />
          <TextField label="Credits each period" name="creditsPerPeriod" type="number" inputMode="numeric" value={draft.creditsPerPeriod} onChange={(v) => set({ creditsPerPeriod: v })} errors={errors} hint="Each pays for one space." />
        </div>
        <TextArea label="Description" name="description" value={draft.description} onChange={(v) => set({ description: v })} errors={errors} />
        <CoursesCovered draft={draft} courses={courses} set={set} errors={errors} />
        <CheckboxField label="Listed on your pages" name="listed" checked={draft.listed} onChange={(v) => set({ listed: v })} hint="Unlisted plans take no new members; current members keep them." />
        <div className="cat-actions">
          <button type="submit" className="btn" disabled={busy}>{busy ? 'Saving…' : 'Save plan'}</button>
          <button type="button" className="btn btn--secondary" onClick={onCancel}>Cancel</button>
        </div>
      </form>
    </section>
  );
}
