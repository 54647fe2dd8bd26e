/**
 * The parts of the Dates screen's form, each a group of fields: one date or a weekly series, the times, the days and
 * end of a series with its preview, a session of another date, and where and for how many the date is.
 */
import { CheckboxField, SelectField, TextField, type FieldErrors } from '../catalogue/kit.tsx';
import { DELIVERIES, MAX_SERIES_DATES, WEEKDAYS, dateLabel, type SeriesDate } from '../../../domain/admin/dates.ts';
import { DELIVERY_LABELS, type DateDraft, type DateView, type DatesCourse } from '../../../domain/admin/date-drafts.ts';

export interface PartProps { draft: DateDraft; set: (patch: Partial<DateDraft>) => void; errors: FieldErrors }

/** New dates: one date or a weekly series. */
export function RepeatChoice({ draft, set }: Omit<PartProps, 'errors'>) {
  return (
    <fieldset className="cat-fieldset">
      <legend>Repeat</legend>
      <div className="cat-radios">
        <label><input type="radio" name="repeat" value="single" checked={draft.repeat === 'single'} onChange={() => set({ repeat: 'single' })} /> One date</label>
        <label><input type="radio" name="repeat" value="weekly" checked={draft.repeat === 'weekly'} onChange={() => set({ repeat: 'weekly' })} /> Every week</label>
      </div>
    </fieldset>
  );
}

/** The London times a date starts and ends at (alone for a series, whose days are its own). */
function TimeFields({ draft, set, errors }: PartProps) {
  return (
    <>
      <TextField label="Starts at (London time)" name="startTime" type="time" value={draft.startTime} onChange={(v) => set({ startTime: v })} errors={errors} />
      <TextField label="Ends at (London time)" name="endTime" type="time" value={draft.endTime} onChange={(v) => set({ endTime: v })} errors={errors} />
    </>
  );
}

/** One date: its day, its times, and the day it ends if not the same. */
export function SingleDateFields(props: PartProps) {
  const { draft, set, errors } = props;
  return (
    <div className="cat-grid">
      <TextField label="Date" name="date" type="date" value={draft.date} onChange={(v) => set({ date: v })} errors={errors} />
      <TimeFields {...props} />
      <TextField label="Ends on another day (optional)" name="endDate" type="date" value={draft.endDate} onChange={(v) => set({ endDate: v })} errors={errors} hint="For a date that runs past midnight or over several days." />
    </div>
  );
}

/** A series being edited: only its times. */
export function SeriesTimeFields(props: PartProps) {
  return (
    <div className="cat-grid">
      <TimeFields {...props} />
    </div>
  );
}

/** A weekly series being added: first date, times, weekdays, how it ends, and the dates it would have. */
export function WeeklyFields(props: PartProps & { preview: SeriesDate[] | null }) {
  const { draft, set, errors, preview } = props;
  return (
    <>
      <div className="cat-grid">
        <TextField label="First date" name="firstDate" type="date" value={draft.firstDate} onChange={(v) => set({ firstDate: v })} errors={errors} />
        <TimeFields draft={draft} set={set} errors={errors} />
      </div>
      <fieldset className="cat-fieldset" aria-describedby={errors.weekdays ? 'weekdays-error' : undefined}>
        <legend>On these days</legend>
        <div className="cat-weekdays">
          {WEEKDAYS.map((w) => (
            <CheckboxField
              key={w.key}
              label={w.label}
              name={`weekday-${w.key}`}
              checked={draft.weekdays.includes(w.key)}
              onChange={(on) => set({ weekdays: on ? [...draft.weekdays, w.key] : draft.weekdays.filter((k) => k !== w.key) })}
            />
          ))}
        </div>
        {errors.weekdays && <p className="field-error" id="weekdays-error">{errors.weekdays}</p>}
      </fieldset>
      <SeriesEnd draft={draft} set={set} errors={errors} />
      {preview && (
        <div className="cat-sub" data-testid="series-preview">
          <h3>{preview.length} {preview.length === 1 ? 'date' : 'dates'}</h3>
          <ol className="cat-preview">
            {preview.map((p) => <li key={p.date}>{dateLabel(p.start)}–{draft.endTime}</li>)}
          </ol>
        </div>
      )}
    </>
  );
}

/** A series ends after a number of dates or on a last date. */
function SeriesEnd({ draft, set, errors }: PartProps) {
  return (
    <fieldset className="cat-fieldset">
      <legend>Ends</legend>
      <div className="cat-radios">
        <label><input type="radio" name="ends" value="count" checked={draft.ends === 'count'} onChange={() => set({ ends: 'count' })} /> After a number of dates</label>
        <label><input type="radio" name="ends" value="until" checked={draft.ends === 'until'} onChange={() => set({ ends: 'until' })} /> On a date</label>
      </div>
      {draft.ends === 'count'
        ? <TextField label="Number of dates" name="count" type="number" inputMode="numeric" value={draft.count} onChange={(v) => set({ count: v })} errors={errors} hint={`At most ${MAX_SERIES_DATES}.`} />
        : <TextField label="Last date" name="until" type="date" value={draft.until} onChange={(v) => set({ until: v })} errors={errors} />}
      {errors.until && draft.ends === 'count' && <p className="field-error">{errors.until}</p>}
    </fieldset>
  );
}

/** A new single date may be a session of another date to come. */
export function ParentField({ draft, set, errors, parents }: PartProps & { parents: DateView[] }) {
  return (
    <SelectField
      label="Part of another date (optional)"
      name="parentRef"
      value={draft.parentRef}
      onChange={(v) => set({ parentRef: v })}
      options={[{ value: '', label: 'No: a date of its own' }, ...parents.map((p) => ({ value: p.id, label: `A session of ${p.label}` }))]}
      errors={errors}
      hint="A session of a multi-session date. Learners book the whole date unless the session can be booked on its own."
    />
  );
}

/** How the date is delivered, its spaces and visibility, and its address unless it is online. */
export function PlaceFields({ draft, set, errors, course }: PartProps & { course: DatesCourse }) {
  return (
    <>
      <div className="cat-grid">
        <SelectField label="Delivery" name="delivery" value={draft.delivery} onChange={(v) => set({ delivery: v })} options={DELIVERIES.map((d) => ({ value: d, label: DELIVERY_LABELS[d]! }))} errors={errors} />
        <TextField label="Spaces" name="spaces" type="number" inputMode="numeric" value={draft.spaces} onChange={(v) => set({ spaces: v })} errors={errors}
          hint={course.spaces === null ? 'Required: the course has no spaces of its own.' : `Leave empty for the course's ${course.spaces}.`} />
        <SelectField label="Visibility" name="visibility" value={draft.visibility} onChange={(v) => set({ visibility: v })} options={[{ value: 'public', label: 'Public: listed and bookable' }, { value: 'private', label: 'Private: not listed' }]} errors={errors} />
      </div>
      {draft.delivery !== 'online' && (
        <fieldset className="cat-fieldset">
          <legend>Address</legend>
          <div className="cat-grid">
            <TextField label="Address line 1" name="address.line1" value={draft.line1} onChange={(v) => set({ line1: v })} errors={errors} autoComplete="address-line1" />
            <TextField label="Address line 2" name="address.line2" value={draft.line2} onChange={(v) => set({ line2: v })} errors={errors} autoComplete="address-line2" />
            <TextField label="Town or city" name="address.city" value={draft.city} onChange={(v) => set({ city: v })} errors={errors} autoComplete="address-level2" />
            <TextField label="Postcode" name="address.postcode" value={draft.postcode} onChange={(v) => set({ postcode: v })} errors={errors} autoComplete="postal-code" />
          </div>
        </fieldset>
      )}
    </>
  );
}
