/**
 * Spec 2.14 "Request Dates" (calendar-based) and 2.17 "Calendar": "Select a Date & Time" with a month grid,
 * weekday headers following the locale's first day of the week (Monday when unknown), previous / next month
 * (previous disabled for past months), arrow keys moving 1 or 7 days, past days and days without a future
 * slot disabled; "Select a time:" lists the selected day's future slots, "Select a Date" before a day is
 * chosen; Continue stays disabled until a slot is chosen. Slots are fetched for the visible month, no retry;
 * a failure shows the availability error whose last part skips available dates.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
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

function browserLocale(): string {
  return typeof navigator !== 'undefined' ? navigator.language || 'en-GB' : 'en-GB';
}

export default function CalendarDates({ durationMinutes }: { durationMinutes: number | null }) {
  const bootstrap = useStore($bootstrap)!;
  const state = useStore($checkout)!;
  const course = bootstrap.course!;
  const educator = bootstrap.educator!;
  const timeZone = useMemo(runtimeTimeZone, []);
  const locale = useMemo(browserLocale, []);
  const weekStart = useMemo(() => weekStartsOn(locale), [locale]);
  const now = Math.floor(Date.now() / 1000);
  // The month shown first and the slots asked for start from when the calendar opened, not from each render.
  const [openedAt] = useState(now);
  const today = useMemo(() => localDate(openedAt, timeZone), [openedAt, timeZone]);
  const [visible, setVisible] = useState<CalendarMonth>({ year: today.year, month: today.month });
  const [slots, setSlots] = useState<Slot[] | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [selectedDay, setSelectedDay] = useState<CalendarDate | null>(null);
  const [focusDay, setFocusDay] = useState<CalendarDate>(today);
  const [slot, setSlot] = useState<Slot | null>(null);
  const gridRef = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);
  /** The day keyboard moves start from (ahead of React's render, so fast key presses add up). */
  const focusRef = useRef<CalendarDate>(today);
  const duration = slotDurationSeconds(durationMinutes);
  const headingId = useId();
  useContinue({ enabled: canContinueWithSlot(slot) });

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

  const bounds = (d: CalendarDate) => {
    const start = zonedMidnight(d, timeZone);
    const end = zonedMidnight(addCalendarDays(d, 1), timeZone);
    return { start, end };
  };
  const disabled = (d: CalendarDate) => {
    const { start, end } = bounds(d);
    return isDayDisabled(slots ?? [], start, end, now);
  };

  // After a keyboard move, focus the latest target once its button is rendered (the month may be switching).
  useEffect(() => {
    if (!moveFocus.current) return;
    const button = gridRef.current?.querySelector<HTMLButtonElement>(`[data-date="${isoDate(focusRef.current)}"]`);
    if (!button) return;
    moveFocus.current = false;
    button.focus();
  });

  const weeks = monthGrid(visible.year, visible.month, weekStart);
  const weekdayNames = useMemo(() => {
    const long = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
    const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
    // 7 January 2024 was a Sunday.
    return weekdayOrder(weekStart).map((w) => ({ long: long.format(Date.UTC(2024, 0, 7 + w)), short: short.format(Date.UTC(2024, 0, 7 + w)) }));
  }, [locale, weekStart]);
  const monthLabel = new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(visible.year, visible.month - 1, 1));
  const dayLabel = (d: CalendarDate) => new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(Date.UTC(d.year, d.month - 1, d.day));
  const timeFormat = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit', timeZone });
  const daySlots = selectedDay ? slotsForDay(slots ?? [], bounds(selectedDay).start, bounds(selectedDay).end, now) : [];
  const prevAllowed = canGoToPreviousMonth(visible, { year: today.year, month: today.month });

  function show(month: CalendarMonth, focus?: CalendarDate) {
    setVisible(month);
    if (focus) {
      focusRef.current = focus;
      setFocusDay(focus);
    }
  }

  function onKey(event: KeyboardEvent<HTMLButtonElement>, pressed: CalendarDate) {
    const d = moveFocus.current ? focusRef.current : pressed;
    let target: CalendarDate | null = null;
    const delta = arrowKeyDays(event.key);
    if (delta !== null) target = addCalendarDays(d, delta);
    else if (event.key === 'Home') target = addCalendarDays(d, -((calendarWeekday(d) - weekStart + 7) % 7));
    else if (event.key === 'End') target = addCalendarDays(d, 6 - ((calendarWeekday(d) - weekStart + 7) % 7));
    else if (event.key === 'PageUp') target = { ...addMonths(d, -1), day: 1 };
    else if (event.key === 'PageDown') target = { ...addMonths(d, 1), day: 1 };
    if (!target) return;
    event.preventDefault();
    if (compareDates(target, today) < 0) target = today;
    moveFocus.current = true;
    focusRef.current = target;
    setFocusDay(target);
    if (target.year !== visible.year || target.month !== visible.month) setVisible({ year: target.year, month: target.month });
  }

  function submit() {
    if (!slot) return;
    void submitAction('request available date selected', { availableDate: new Date(slot.from * 1000).toISOString() });
  }

  const focusInMonth = focusDay.year === visible.year && focusDay.month === visible.month;
  const errorParts = problem ? availabilityErrorParts(problem) : null;

  return (
    <StepForm onSubmit={submit}>
      <StepHeading>{requestDatesTitle(true)}</StepHeading>
      {errorParts && (
        <div className="alert alert--danger" role="alert">
          {errorParts.lead}
          <button type="button" className="link-button" onClick={() => void submitAction('skip available dates', {})}>{errorParts.link}</button>
        </div>
      )}
      <div className="calendar-layout">
        <div className="calendar">
          <div className="calendar__head">
            <button
              type="button"
              className="btn btn--ghost btn--small"
              aria-label="Previous month"
              disabled={!prevAllowed}
              onClick={() => show(addMonths(visible, -1), { ...addMonths(visible, -1), day: 1 })}
            >
              ‹
            </button>
            <h3 id={headingId} aria-live="polite" className="calendar__month">{monthLabel}</h3>
            <button type="button" className="btn btn--ghost btn--small" aria-label="Next month" onClick={() => show(addMonths(visible, 1), { ...addMonths(visible, 1), day: 1 })}>
              ›
            </button>
          </div>
          <table ref={gridRef} className="calendar__grid" role="grid" aria-labelledby={headingId} aria-busy={slots === null}>
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
                    const isDisabled = slots === null || disabled(d);
                    const isSelected = sameDate(d, selectedDay);
                    const tabbable = focusInMonth ? sameDate(d, focusDay) : d.day === 1;
                    return (
                      <td key={j}>
                        <button
                          type="button"
                          className={`calendar__day${isSelected ? ' is-selected' : ''}${sameDate(d, today) ? ' is-today' : ''}`}
                          data-date={isoDate(d)}
                          tabIndex={tabbable ? 0 : -1}
                          aria-label={dayLabel(d)}
                          aria-pressed={isSelected}
                          aria-disabled={isDisabled || undefined}
                          onClick={() => {
                            focusRef.current = d;
                            setFocusDay(d);
                            if (isDisabled) return;
                            setSelectedDay(d);
                            setSlot(null);
                          }}
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
        </div>
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
                      <input type="radio" name="slot" value={s.from} checked={slot?.from === s.from} onChange={() => setSlot(s)} />
                      <span>{timeFormat.format(s.from * 1000)}</span>
                    </label>
                  ))}
                </div>
              )}
            </fieldset>
          )}
        </div>
      </div>
      {state.stepState.dates?.state && (state.stepState.dates.state as { availableDate?: string }).availableDate && (
        <p className="small muted">Chosen: {new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(Date.parse((state.stepState.dates.state as { availableDate: string }).availableDate))}</p>
      )}
    </StepForm>
  );
}
