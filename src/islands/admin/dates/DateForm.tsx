/**
 * The Dates screen's form in its three modes: adding one date or a weekly series, editing one date, editing the
 * dates to come of a series (times, place and spaces only: a series' dates keep their own offers).
 */
import type { AdminProblem } from '../api.ts';
import { CheckboxField, ProblemAlert, type FieldErrors } from '../catalogue/kit.tsx';
import type { SeriesDate } from '../../../domain/admin/dates.ts';
import { dateFormHeading, type DateDraft, type DateView, type DatesCourse, type DatesMode } from '../../../domain/admin/date-drafts.ts';
import { ParentField, PlaceFields, RepeatChoice, SeriesTimeFields, SingleDateFields, WeeklyFields } from './DateFormParts.tsx';
import { AddOnsEditor, OffersEditor } from './DateSellsEditors.tsx';

interface Props {
  mode: DatesMode;
  draft: DateDraft;
  set: (patch: Partial<DateDraft>) => void;
  errors: FieldErrors;
  course: DatesCourse;
  /** The dates to come a new date may be a session of. */
  parents: DateView[];
  preview: SeriesDate[] | null;
  busy: boolean;
  problem: AdminProblem | null;
  onSubmit: () => void;
  onCancel: () => void;
  onReload: () => void;
}

function submitText(mode: DatesMode, draft: DateDraft, preview: SeriesDate[] | null, busy: boolean): string {
  if (busy) return 'Saving…';
  if (mode.kind !== 'new') return 'Save';
  return draft.repeat === 'weekly' && preview ? `Add ${preview.length} dates` : 'Add date';
}

export default function DateForm({ mode, draft, set, errors, course, parents, preview, busy, problem, onSubmit, onCancel, onReload }: Props) {
  const parts = { draft, set, errors };
  const single = mode.kind === 'new' && draft.repeat === 'single';
  return (
    <section className="cat-panel" aria-labelledby="date-form-heading">
      <h2 id="date-form-heading">{dateFormHeading(mode)}</h2>
      {mode.kind === 'series' && <p className="cat-muted">Changes apply to the {mode.dates.filter((d) => !d.started).length} dates still to come, each on its own day.</p>}
      <ProblemAlert problem={problem} onReload={onReload} />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        {mode.kind === 'new' && <RepeatChoice draft={draft} set={set} />}
        {(mode.kind === 'edit' || single) && <SingleDateFields {...parts} />}
        {mode.kind === 'series' && <SeriesTimeFields {...parts} />}
        {mode.kind === 'new' && draft.repeat === 'weekly' && <WeeklyFields {...parts} preview={preview} />}
        {single && parents.length > 0 && <ParentField {...parts} parents={parents} />}
        {(draft.parentRef || (mode.kind === 'edit' && mode.date.parentRef)) && (
          <CheckboxField label="Can be booked on its own" name="individuallyBookable" checked={draft.individuallyBookable} onChange={(v) => set({ individuallyBookable: v })} errors={errors} />
        )}
        <PlaceFields {...parts} course={course} />
        {mode.kind !== 'series' && (
          <>
            <OffersEditor offers={draft.offers} onChange={(v) => set({ offers: v })} errors={errors} courseOffers={course.courseOffers} />
            <AddOnsEditor addOns={draft.addOns} onChange={(v) => set({ addOns: v })} errors={errors} />
          </>
        )}
        <div className="cat-actions">
          <button type="submit" className="btn" disabled={busy}>{submitText(mode, draft, preview, busy)}</button>
          <button type="button" className="btn btn--secondary" onClick={onCancel}>Cancel</button>
        </div>
      </form>
    </section>
  );
}
