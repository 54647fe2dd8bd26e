/**
 * Spec 2.14 "Request Dates" (calendar-based) and 2.17 "Calendar": "Select a Date & Time" with a month grid,
 * weekday headers following the locale's first day of the week (Monday when unknown), previous / next month
 * (previous disabled for past months), arrow keys moving 1 or 7 days, past days and days without a future
 * slot disabled; "Select a time:" lists the selected day's future slots, "Select a Date" before a day is
 * chosen; Continue stays disabled until a slot is chosen. Slots are fetched for the visible month, no retry;
 * a failure shows the availability error whose last part skips available dates.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { useStore } from '@nanostores/react';
import { $bootstrap, $checkout, submitAction } from '../../../stores/checkout.ts';
import { requestDatesTitle } from '../../../domain/checkout/steps.ts';
import { canContinueWithSlot, canGoToPreviousMonth, isDayDisabled, slotDurationSeconds, slotsForDay, toEpochSeconds, type Slot } from '../../../domain/checkout/request.ts';
import { addCalendarDays, calendarWeekday, isoDate, localDate, runtimeTimeZone, zonedMidnight, type CalendarDate } from '../../../domain/zone.ts';
import { weekStartsOn } from '../../../domain/time.ts';
import {
  addMonths, arrowKeyDays, availabilityErrorParts, compareDates, monthGrid, sameDate, weekdayOrder, type CalendarMonth,
} from '../../../domain/checkout/ui.ts';
import { checkoutApi, toProblem } from '../api.ts';
import type { Problem } from '../../../domain/problems.ts';
import { StepForm, StepHeading, useContinue } from '../shared.tsx';
import { stepStateOf } from '../../../domain/checkout/step-state.ts';

function browserLocale(): string {
  return typeof navigator !== 'undefined' ? navigator.language || 'en-GB' : 'en-GB';
}

/** A day's bounds in the learner's time zone: from its midnight to the next day's. */
function dayBounds(d: CalendarDate, timeZone: string): { start: number; end: number } {
  const start = zonedMidnight(d, timeZone);
  const end = zonedMidnight(addCalendarDays(d, 1), timeZone);
  return { start, end };
}

/** The day a grid key moves to from `d` (arrows 1 or 7 days, Home / End the week's ends, Page Up / Down a month), else null. */
function keyTarget(key: string, d: CalendarDate, weekStart: number): CalendarDate | null {
  const delta = arrowKeyDays(key);
  if (delta !== null) return addCalendarDays(d, delta);
  if (key === 'Home') return addCalendarDays(d, -((calendarWeekday(d) - weekStart + 7) % 7));
  if (key === 'End') return addCalendarDays(d, 6 - ((calendarWeekday(d) - weekStart + 7) % 7));
  if (key === 'PageUp') return { ...addMonths(d, -1), day: 1 };
  if (key === 'PageDown') return { ...addMonths(d, 1), day: 1 };
  return null;
}

/** The visible month's slots from when the calendar opened (null while they load), and the problem when they failed. */
function useMonthSlots(visible: CalendarMonth, timeZone: string, openedAt: number, durationMinutes: number | null) {
  const bootstrap = useStore($bootstrap)!;
  const course = bootstrap.course!;
  const educator = bootstrap.educator!;
  const [slots, setSlots] = useState<Slot[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const duration = slotDurationSeconds(durationMinutes);

  useEffect(() => {
    let cancelled = false;
    const from = zonedMidnight({ year: visible.year, month: visible.month, day: 1 }, timeZone);
    const next = addMonths(visible, 1);
    const to = zonedMidnight({ year: next.year, month: next.month, day: 1 }, timeZone);
    setSlots(null);
    setProblem(null);
    checkoutApi
      .slots(educator.slug, course.slug, new Date(Math.max(from, openedAt) * 1000).toISOString(), new Date(to * 1000).toISOString(), duration)
      .then((list) => {
        if (!cancelled) setSlots(list.map((s) => ({ from: toEpochSeconds(s.from), to: toEpochSeconds(s.to) })));
      })
      .catch((error) => {
        if (!cancelled) {
          setSlots([]);
          setProblem(toProblem(error));
        }
      });
    return () => {
      cancelled = true;
    };
  }, [visible, duration, educator.slug, course.slug, timeZone, openedAt]);

  return { slots, problem };
}

/**
 * The grid's roving focus: the one tabbable day, keyboard moves (which may switch the month) and focusing the
 * target once its button is rendered.
 */
function useGridFocus(today: CalendarDate, weekStart: number, visible: CalendarMonth, setVisible: (month: CalendarMonth) => void) {
  const [focusDay, setFocusDay] = useState<CalendarDate>(today);
  const gridRef = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);
  /** The day keyboard moves start from (ahead of React's render, so fast key presses add up). */
  const focusRef = useRef<CalendarDate>(today);

  // After a keyboard move, focus the latest target once its button is rendered (the month may be switching).
  useEffect(() => {
    if (!moveFocus.current) return;
    const button = gridRef.current?.querySelector<HTMLButtonElement>(`[data-date="${isoDate(focusRef.current)}"]`);
    if (!button) return;
    moveFocus.current = false;
    button.focus();
  });

  function focusOn(d: CalendarDate) {
    focusRef.current = d;
    setFocusDay(d);
  }

  function onKey(event: KeyboardEvent<HTMLButtonElement>, pressed: CalendarDate) {
    const d = moveFocus.current ? focusRef.current : pressed;
    let target = keyTarget(event.key, d, weekStart);
    if (!target) return;
    event.preventDefault();
    if (compareDates(target, today) < 0) target = today;
    moveFocus.current = true;
    focusOn(target);
    if (target.year !== visible.year || target.month !== visible.month) setVisible({ year: target.year, month: target.month });
  }

  const focusInMonth = focusDay.year === visible.year && focusDay.month === visible.month;
  return { gridRef, focusDay, focusInMonth, focusOn, onKey };
}

function CalendarHead({ headingId, monthLabel, prevAllowed, onPrevious, onNext }: {
  headingId: string; monthLabel: string; prevAllowed: boolean; onPrevious: () => void; onNext: () => void;
}) {
  return (
    <div className="calendar__head">
      <button
        type="button"
        className="btn btn--ghost btn--small"
        aria-label="Previous month"
        disabled={!prevAllowed}
        onClick={onPrevious}
      >
        ‹
      </button>
      <h3 id={headingId} aria-live="polite" className="calendar__month">{monthLabel}</h3>
      <button type="button" className="btn btn--ghost btn--small" aria-label="Next month" onClick={onNext}>
        ›
      </button>
    </div>
  );
}

function CalendarGrid({ gridRef, headingId, locale, weekStart, visible, busy, isDisabled, isTabbable, today, selectedDay, onDay, onKey }: {
  gridRef: RefObject<HTMLTableElement | null>;
  headingId: string;
  locale: string;
  weekStart: number;
  visible: CalendarMonth;
  busy: boolean;
  isDisabled: (d: CalendarDate) => boolean;
  isTabbable: (d: CalendarDate) => boolean;
  today: CalendarDate;
  selectedDay: CalendarDate | null;
  onDay: (d: CalendarDate, disabled: boolean) => void;
  onKey: (event: KeyboardEvent<HTMLButtonElement>, d: CalendarDate) => void;
}) {
  const weeks = monthGrid(visible.year, visible.month, weekStart);
  const weekdayNames = useMemo(() => {
    const long = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
    const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
    // 7 January 2024 was a Sunday.
    return weekdayOrder(weekStart).map((w) => ({ long: long.format(Date.UTC(2024, 0, 7 + w)), short: short.format(Date.UTC(2024, 0, 7 + w)) }));
  }, [locale, weekStart]);
  const dayLabel = (d: CalendarDate) => new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(d.year, d.month - 1, d.day));

  return (
    <table ref={gridRef} className="calendar__grid" role="grid" aria-labelledby={headingId} aria-busy={busy}>
      <thead>
        <tr>
          {weekdayNames.map((w) => (
            <th key={w.long} scope="col" abbr={w.long}>{w.short}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week, i) => (
          <tr key={i}>
            {week.map((d, j) => {
              if (!d) return <td key={j} />;
              const disabled = isDisabled(d);
              const isSelected = sameDate(d, selectedDay);
              return (
                <td key={j}>
                  <button
                    type="button"
                    className={`calendar__day${isSelected ? ' is-selected' : ''}${sameDate(d, today) ? ' is-today' : ''}`}
                    data-date={isoDate(d)}
                    tabIndex={isTabbable(d) ? 0 : -1}
                    aria-label={dayLabel(d)}
                    aria-pressed={isSelected}
                    aria-disabled={disabled || undefined}
                    onClick={() => onDay(d, disabled)}
                    onKeyDown={(e) => onKey(e, d)}
                  >
                    {d.day}
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function SlotPicker({ selectedDay, daySlots, slot, onSlot, timeFormat }: {
  selectedDay: CalendarDate | null; daySlots: Slot[]; slot: Slot | null; onSlot: (slot: Slot) => void; timeFormat: Intl.DateTimeFormat;
}) {
  return (
    <div className="slots">
      {!selectedDay ? (
        <p className="muted">Select a Date</p>
      ) : (
        <fieldset className="radio-group">
          <legend>Select a time:</legend>
          {daySlots.length === 0 ? (
            <p className="small muted">No times left on this day.</p>
          ) : (
            <div className="slot-list">
              {daySlots.map((s) => (
                <label key={s.from} className={`slot${slot?.from === s.from ? ' is-selected' : ''}`}>
                  <input type="radio" name="slot" value={s.from} checked={slot?.from === s.from} onChange={() => onSlot(s)} />
                  <span>{timeFormat.format(s.from * 1000)}</span>
                </label>
              ))}
            </div>
          )}
        </fieldset>
      )}
    </div>
  );
}

function AvailabilityError({ problem }: { problem: Problem | null }) {
  const errorParts = problem ? availabilityErrorParts(problem) : null;
  if (!errorParts) return null;
  return (
    <div className="alert alert--danger" role="alert">
      {errorParts.lead}
      <button type="button" className="link-button" onClick={() => void submitAction('skip available dates', {})}>{errorParts.link}</button>
    </div>
  );
}

export default function CalendarDates({ durationMinutes }: { durationMinutes: number | null }) {
  const state = useStore($checkout)!;
  const chosen = stepStateOf(state.stepState, 'dates')?.availableDate ?? null;
  const timeZone = useMemo(runtimeTimeZone, []);
  const locale = useMemo(browserLocale, []);
  const weekStart = useMemo(() => weekStartsOn(locale), [locale]);
  const now = Math.floor(Date.now() / 1000);
  // The month shown first and the slots asked for start from when the calendar opened, not from each render.
  const [openedAt] = useState(now);
  const today = useMemo(() => localDate(openedAt, timeZone), [openedAt, timeZone]);
  const [visible, setVisible] = useState<CalendarMonth>({ year: today.year, month: today.month });
  const [selectedDay, setSelectedDay] = useState<CalendarDate | null>(null);
  const [slot, setSlot] = useState<Slot | null>(null);
  const { slots, problem } = useMonthSlots(visible, timeZone, openedAt, durationMinutes);
  const grid = useGridFocus(today, weekStart, visible, setVisible);
  const headingId = useId();
  useContinue({ enabled: canContinueWithSlot(slot) });

  const disabled = (d: CalendarDate) => {
    const { start, end } = dayBounds(d, timeZone);
    return isDayDisabled(slots ?? [], start, end, now);
  };
  const monthLabel = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(visible.year, visible.month - 1, 1));
  const timeFormat = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone });
  const daySlots = selectedDay ? slotsForDay(slots ?? [], dayBounds(selectedDay, timeZone).start, dayBounds(selectedDay, timeZone).end, now) : [];
  const prevAllowed = canGoToPreviousMonth(visible, { year: today.year, month: today.month });

  function show(month: CalendarMonth) {
    setVisible(month);
    grid.focusOn({ ...month, day: 1 });
  }

  function onDay(d: CalendarDate, isDisabled: boolean) {
    grid.focusOn(d);
    if (isDisabled) return;
    setSelectedDay(d);
    setSlot(null);
  }

  function submit() {
    if (!slot) return;
    void submitAction('request available date selected', { availableDate: new Date(slot.from * 1000).toISOString() });
  }

  return (
    <StepForm onSubmit={submit}>
      <StepHeading>{requestDatesTitle(true)}</StepHeading>
      <AvailabilityError problem={problem} />
      <div className="calendar-layout">
        <div className="calendar">
          <CalendarHead
            headingId={headingId}
            monthLabel={monthLabel}
            prevAllowed={prevAllowed}
            onPrevious={() => show(addMonths(visible, -1))}
            onNext={() => show(addMonths(visible, 1))}
          />
          <CalendarGrid
            gridRef={grid.gridRef}
            headingId={headingId}
            locale={locale}
            weekStart={weekStart}
            visible={visible}
            busy={slots === null}
            isDisabled={(d) => slots === null || disabled(d)}
            isTabbable={(d) => (grid.focusInMonth ? sameDate(d, grid.focusDay) : d.day === 1)}
            today={today}
            selectedDay={selectedDay}
            onDay={onDay}
            onKey={grid.onKey}
          />
        </div>
        <SlotPicker selectedDay={selectedDay} daySlots={daySlots} slot={slot} onSlot={setSlot} timeFormat={timeFormat} />
      </div>
      {chosen && (
        <p className="small muted">Chosen: {new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(Date.parse(chosen))}</p>
      )}
    </StepForm>
  );
}
