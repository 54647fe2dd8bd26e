/**
 * The Dates screen's form as the admin types it (src/islands/admin/dates/): the draft of a date or series, how a date
 * the server sent becomes a draft, how a draft becomes the body of each call, the weekly series previewed before it
 * is saved, and the texts a date or series is listed with.
 *
 * Pure: no I/O. What the admin typed is sent as typed where it is not a number, so the server names the problem
 * beside the field.
 */
import { penceToPounds, poundsToPence } from './catalogue-input.ts';
import { WEEKDAYS, expandWeeklySeries, type SeriesDate, type SeriesSummary, type WeekdayKey } from './dates.ts';

export interface OfferView { id: string; name: string; description: string | null; price: number | null; spaces: number; startAt: number | null; endAt: number | null }
export interface AddOnView { id: string; name: string; description: string | null; price: number }
export interface DateView {
  id: string; revision: number; seriesId: string | null; parentRef: string | null; individuallyBookable: boolean; visibility: string;
  delivery: string; address: Record<string, string> | null; spaces: number | null; capacity: number; available: number; bookings: number;
  booked: number; held: number; start: number; end: number; local: { date: string; startTime: string; endDate: string; endTime: string };
  label: string; started: boolean; offers: OfferView[]; addOns: AddOnView[];
}
export interface DatesCourse { id: string; name: string; type: string; spaces: number | null; published: boolean; hasDates: boolean; courseOffers: number }
export interface DatesData {
  course: DatesCourse;
  dates: DateView[];
  series: SeriesSummary[];
}

export interface OfferDraft { id?: string; name: string; price: string; spaces: string; description: string; startAt: number | null; endAt: number | null }
export interface AddOnDraft { id?: string; name: string; price: string; description: string }
export interface DateDraft {
  repeat: 'single' | 'weekly';
  date: string; startTime: string; endDate: string; endTime: string;
  firstDate: string; weekdays: WeekdayKey[]; ends: 'until' | 'count'; until: string; count: string;
  delivery: string; line1: string; line2: string; city: string; postcode: string;
  spaces: string; visibility: string; individuallyBookable: boolean; parentRef: string;
  offers: OfferDraft[]; addOns: AddOnDraft[];
}

/** What the form is doing: adding dates, editing one date, or editing the dates to come of a series. */
export type DatesMode = { kind: 'new' } | { kind: 'edit'; date: DateView } | { kind: 'series'; series: SeriesSummary; dates: DateView[] };

export const DELIVERY_LABELS: Record<string, string> = { 'in-person': 'In person', online: 'Online', hybrid: 'Hybrid (in person and online)' };

export function emptyDateDraft(): DateDraft {
  return {
    repeat: 'single', date: '', startTime: '10:00', endDate: '', endTime: '11:00', firstDate: '', weekdays: [], ends: 'count', until: '', count: '8',
    delivery: 'in-person', line1: '', line2: '', city: '', postcode: '', spaces: '', visibility: 'public', individuallyBookable: true, parentRef: '',
    offers: [], addOns: [],
  };
}

export function draftOfDate(d: DateView): DateDraft {
  return {
    ...emptyDateDraft(),
    date: d.local.date, startTime: d.local.startTime, endDate: d.local.endDate === d.local.date ? '' : d.local.endDate, endTime: d.local.endTime,
    delivery: d.delivery, line1: d.address?.line1 ?? '', line2: d.address?.line2 ?? '', city: d.address?.city ?? '', postcode: d.address?.postcode ?? '',
    spaces: d.spaces === null ? '' : String(d.spaces), visibility: d.visibility, individuallyBookable: d.individuallyBookable, parentRef: d.parentRef ?? '',
    offers: d.offers.map((o) => ({ id: o.id, name: o.name, price: penceToPounds(o.price), spaces: String(o.spaces), description: o.description ?? '', startAt: o.startAt, endAt: o.endAt })),
    addOns: d.addOns.map((a) => ({ id: a.id, name: a.name, price: penceToPounds(a.price), description: a.description ?? '' })),
  };
}

/** The draft a mode opens with: empty for new dates; the date; a series' first date to come with the series' times. */
export function draftForMode(mode: DatesMode): DateDraft {
  if (mode.kind === 'new') return emptyDateDraft();
  if (mode.kind === 'edit') return draftOfDate(mode.date);
  const first = mode.dates.find((d) => !d.started) ?? mode.dates[0]!;
  return { ...draftOfDate(first), startTime: mode.series.startTime, endTime: mode.series.endTime };
}

/** A number the admin typed, or what they typed (so the server names the problem beside the field). */
export function typedNumber(v: string): number | string | null {
  if (v.trim() === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}
export function typedPence(v: string, empty: number | null): number | string | null {
  if (v.trim() === '') return empty;
  return poundsToPence(v) ?? v;
}

function placeBody(d: DateDraft) {
  return {
    delivery: d.delivery,
    address: d.delivery === 'online' ? null : { line1: d.line1, line2: d.line2, city: d.city, postcode: d.postcode },
    spaces: typedNumber(d.spaces),
    visibility: d.visibility,
    individuallyBookable: d.individuallyBookable,
  };
}

function sellsBody(d: DateDraft) {
  return {
    offers: d.offers.map((o) => ({ id: o.id, name: o.name, description: o.description, price: typedPence(o.price, null), spaces: typedNumber(o.spaces) ?? 1, startAt: o.startAt, endAt: o.endAt })),
    addOns: d.addOns.map((a) => ({ id: a.id, name: a.name, description: a.description, price: typedPence(a.price, 0) })),
  };
}

/** The body that adds one date or a weekly series. */
export function newDatesBody(draft: DateDraft) {
  return draft.repeat === 'single'
    ? { kind: 'single', date: draft.date, startTime: draft.startTime, endDate: draft.endDate || null, endTime: draft.endTime, parentRef: draft.parentRef || null, ...placeBody(draft), ...sellsBody(draft) }
    : {
      kind: 'weekly', firstDate: draft.firstDate, startTime: draft.startTime, endTime: draft.endTime, weekdays: draft.weekdays,
      until: draft.ends === 'until' ? draft.until : null, count: draft.ends === 'count' ? typedNumber(draft.count) : null, ...placeBody(draft), ...sellsBody(draft),
    };
}

/** The body that changes one date. */
export function dateUpdateBody(date: DateView, draft: DateDraft) {
  return { revision: date.revision, date: draft.date, startTime: draft.startTime, endDate: draft.endDate || null, endTime: draft.endTime, ...placeBody(draft), ...sellsBody(draft) };
}

/** The revisions of a series' dates still to come: what a series change or removal applies to. */
export function upcomingRevisions(dates: readonly DateView[]): Record<string, number> {
  return Object.fromEntries(dates.filter((d) => !d.started).map((d) => [d.id, d.revision]));
}

/** The body that changes the dates to come of a series. */
export function seriesUpdateBody(dates: readonly DateView[], draft: DateDraft) {
  return { revisions: upcomingRevisions(dates), startTime: draft.startTime, endTime: draft.endTime, ...placeBody(draft) };
}

/** The notice after dates were added. */
export function addedNotice(dates: readonly DateView[]): string {
  return dates.length === 1 ? `Added ${dates[0]!.label}.` : `Added ${dates.length} dates, from ${dates[0]!.label} to ${dates[dates.length - 1]!.label}.`;
}

/** The dates a weekly series being added would have, once what is typed is complete enough to expand; else null. */
export function weeklyPreview(draft: DateDraft): SeriesDate[] | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.firstDate) || !/^\d\d:\d\d$/.test(draft.startTime) || !/^\d\d:\d\d$/.test(draft.endTime) || draft.weekdays.length === 0) return null;
  const count = draft.ends === 'count' ? Number(draft.count) : null;
  if (draft.ends === 'count' && !(Number.isInteger(count) && count! >= 1)) return null;
  if (draft.ends === 'until' && !/^\d{4}-\d{2}-\d{2}$/.test(draft.until)) return null;
  try {
    return expandWeeklySeries({ firstDate: draft.firstDate, startTime: draft.startTime, endTime: draft.endTime, weekdays: draft.weekdays, until: draft.ends === 'until' ? draft.until : null, count });
  } catch {
    return null;
  }
}

export function timeRange(d: DateView): string {
  return d.local.endDate === d.local.date ? `${d.label}–${d.local.endTime}` : `${d.label} to ${d.local.endDate} ${d.local.endTime}`;
}

export function weekdayList(keys: readonly string[]): string {
  return WEEKDAYS.filter((w) => keys.includes(w.key)).map((w) => `${w.label}s`).join(', ');
}

/** The heading of the form in each mode. */
export function dateFormHeading(mode: DatesMode): string {
  return mode.kind === 'new' ? 'Add dates' : mode.kind === 'edit' ? `Edit ${mode.date.label}` : `Edit the series (${weekdayList(mode.series.weekdays)})`;
}
