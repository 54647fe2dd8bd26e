/**
 * Opening hours per weekday (spec 2.8 / 3): Closed, Open 24 hours, or opening times (from–until, UK time), as the
 * About page shows them. Times are typed in a time input; until 00:00 means midnight at the end of the day.
 */
import { WEEKDAYS, type Weekday } from '../../../domain/workingHours.ts';
import { MAX_RANGES_PER_DAY } from '../../../domain/admin/educator-profile.ts';
import { Field } from './fields.tsx';

export type DayMode = 'closed' | '24h' | 'hours';
export interface DayDraft { mode: DayMode; ranges: { from: string; until: string }[] }
export type HoursDraft = Record<Weekday, DayDraft>;

const LABELS: Record<Weekday, string> = {
  monday: 'Monday', tuesday: 'Tuesday', wednesday: 'Wednesday', thursday: 'Thursday', friday: 'Friday', saturday: 'Saturday', sunday: 'Sunday',
};

interface Props {
  value: HoursDraft;
  fields: Record<string, string>;
  onChange(next: HoursDraft): void;
}

export default function OpeningHours({ value, fields, onChange }: Props) {
  const setDay = (day: Weekday, next: DayDraft) => onChange({ ...value, [day]: next });
  return (
    <div>
      <p className="hint">UK time (Europe/London). Learners see these on your About page.</p>
      {WEEKDAYS.map((day) => {
        const d = value[day];
        const dayError = fields[`working_hours.${day}`];
        return (
          <div className="edu-day" key={day}>
            <Field id={`hours-${day}-mode`} label={LABELS[day]} error={dayError}>
              {(aria) => (
                <select
                  {...aria}
                  value={d.mode}
                  onChange={(e) => {
                    const mode = e.currentTarget.value as DayMode;
                    setDay(day, { mode, ranges: mode === 'hours' && d.ranges.length === 0 ? [{ from: '09:00', until: '17:00' }] : d.ranges });
                  }}
                >
                  <option value="closed">Closed</option>
                  <option value="24h">Open 24 hours</option>
                  <option value="hours">Set opening times</option>
                </select>
              )}
            </Field>
            {d.mode === 'hours' && (
              <ul className="edu-list">
                {d.ranges.map((r, i) => {
                  const at = `working_hours.${day}.${i}`;
                  const nth = d.ranges.length > 1 ? ` ${i + 1}` : '';
                  return (
                    <li key={i} className="edu-row">
                      <Field id={`hours-${day}-${i}-from`} label={`${LABELS[day]} opens${nth}`} error={fields[`${at}.from`]}>
                        {(aria) => <input {...aria} type="time" step={60} value={r.from} onChange={(e) => setDay(day, { ...d, ranges: d.ranges.map((x, k) => (k === i ? { ...x, from: e.currentTarget.value } : x)) })} />}
                      </Field>
                      <Field id={`hours-${day}-${i}-until`} label={`${LABELS[day]} closes${nth}`} error={fields[`${at}.until`]}>
                        {(aria) => <input {...aria} type="time" step={60} value={r.until} onChange={(e) => setDay(day, { ...d, ranges: d.ranges.map((x, k) => (k === i ? { ...x, until: e.currentTarget.value } : x)) })} />}
                      </Field>
                      {d.ranges.length > 1 && (
                        <button type="button" className="btn btn--secondary btn--small" onClick={() => setDay(day, { ...d, ranges: d.ranges.filter((_, k) => k !== i) })}>
                          Remove {LABELS[day]} times{nth}
                        </button>
                      )}
                    </li>
                  );
                })}
                {d.ranges.length < MAX_RANGES_PER_DAY && (
                  <li>
                    <button type="button" className="btn btn--secondary btn--small" onClick={() => setDay(day, { ...d, ranges: [...d.ranges, { from: '', until: '' }] })}>
                      Add opening times on {LABELS[day]}
                    </button>
                  </li>
                )}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}
