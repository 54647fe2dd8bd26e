/**
 * Spec 2.14 / 5 "Preferred Dates": date inputs "First choice", "Second choice", "Third choice" (at most 3, at
 * least 1, each required), each with a Remove button (disabled when only one is left), and "Add Second
 * Choice" / "Add Third Choice".
 */
import { useRef } from 'react';
import { PREFERRED_DATE_LABELS } from '../../../domain/checkout/constants.ts';
import { addChoiceLabel } from '../../../domain/checkout/messages.ts';
import { canAddPreferredDate, canRemovePreferredDate } from '../../../domain/checkout/validation.ts';
import { fieldDomId } from '../../../domain/checkout/ui.ts';
import { isoDate, localDate, runtimeTimeZone } from '../../../domain/zone.ts';

/** Today's date in the browser's zone (spec 9), the earliest a date input offers. */
function today(): string {
  return isoDate(localDate(Math.floor(Date.now() / 1000), runtimeTimeZone()));
}

export default function PreferredDates(props: { dates: string[]; onChange: (dates: string[]) => void; path: string; legendHidden?: boolean }) {
  const { dates, onChange, path } = props;
  const addRef = useRef<HTMLButtonElement>(null);
  const addLabel = addChoiceLabel(dates.length);
  const min = today();

  function focusInput(index: number) {
    window.setTimeout(() => document.getElementById(fieldDomId(`${path}.${index}`))?.focus(), 0);
  }

  return (
    <fieldset className="preferred-dates" id={fieldDomId(path)} tabIndex={-1}>
      <legend className={props.legendHidden ? 'visually-hidden' : undefined}>Preferred Dates</legend>
      <ul className="plain-list stack">
        {dates.map((value, index) => {
          const id = fieldDomId(`${path}.${index}`);
          return (
            <li key={index} className="preferred-date">
              <div className="field">
                <label htmlFor={id}>{PREFERRED_DATE_LABELS[index]}</label>
                <input id={id} type="date" required min={min} value={value} onChange={(e) => onChange(dates.map((d, i) => (i === index ? e.target.value : d)))} />
              </div>
              <button
                type="button"
                className="btn btn--ghost btn--small"
                disabled={!canRemovePreferredDate(dates.length)}
                aria-label={`Remove ${PREFERRED_DATE_LABELS[index]}`}
                onClick={() => {
                  onChange(dates.filter((_, i) => i !== index));
                  focusInput(Math.max(0, index - 1));
                }}
              >
                Remove
              </button>
            </li>
          );
        })}
      </ul>
      {addLabel && canAddPreferredDate(dates.length) && (
        <button
          ref={addRef}
          type="button"
          className="btn btn--secondary btn--small preferred-dates__add"
          onClick={() => {
            onChange([...dates, '']);
            focusInput(dates.length);
          }}
        >
          {addLabel}
        </button>
      )}
    </fieldset>
  );
}
