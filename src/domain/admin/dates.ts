/**
 * A course's dates as the educator admin enters them (docs/admin.md "Dates"): single dates and weekly series, typed
 * as London wall-clock times and stored as epoch seconds. Every conversion goes through src/domain/zone.ts, so a
 * 10:00 class stays at 10:00 London time on both sides of the last Sundays of March and October (09:00 UTC in
 * summer, 10:00 UTC in winter) — never "first start + n × 7 × 86400".
 *
 * Pure: no I/O. The server validates with these schemas and the island shows the same messages beside each field.
 */
import { z } from '../zod.ts';
import { DEFAULT_TIME_ZONE } from '../time.ts';
import { addCalendarDays, calendarWeekday, isoDate, zonedParts, zonedWallClock, type CalendarDate } from '../zone.ts';
import { REQUIRED, clockTime, epochSeconds, isoDay, optionalText, pence, refId, text, wholeNumber } from './catalogue-input.ts';

/** The zone dates are entered in (spec 9: Europe/London). */
export const DATES_TIME_ZONE = DEFAULT_TIME_ZONE;

/** Weekdays as the form offers them, Monday first (spec 9: the week starts on Monday), with Date#getDay's number. */
export const WEEKDAYS = [
  { key: 'monday', label: 'Monday', short: 'Mon', day: 1 },
  { key: 'tuesday', label: 'Tuesday', short: 'Tue', day: 2 },
  { key: 'wednesday', label: 'Wednesday', short: 'Wed', day: 3 },
  { key: 'thursday', label: 'Thursday', short: 'Thu', day: 4 },
  { key: 'friday', label: 'Friday', short: 'Fri', day: 5 },
  { key: 'saturday', label: 'Saturday', short: 'Sat', day: 6 },
  { key: 'sunday', label: 'Sunday', short: 'Sun', day: 0 },
] as const;
export type WeekdayKey = (typeof WEEKDAYS)[number]['key'];
const WEEKDAY_KEYS = WEEKDAYS.map((w) => w.key) as [WeekdayKey, ...WeekdayKey[]];

/** At most this many dates in one series, and a series spans at most two years. */
export const MAX_SERIES_DATES = 200;
export const MAX_SERIES_DAYS = 731;

export const VISIBILITIES = ['public', 'private'] as const;
export const DELIVERIES = ['in-person', 'online', 'hybrid'] as const;
export type Delivery = (typeof DELIVERIES)[number];

/** 'YYYY-MM-DD' → a calendar date (the string is assumed valid: see isoDay). */
export function calendarDate(day: string): CalendarDate {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  return { year, month, day: date };
}

/** 'HH:MM' → seconds from midnight. */
export function clockSeconds(time: string): number {
  const [h, m] = time.split(':').map(Number) as [number, number];
  return h * 3600 + m * 60;
}

/** The instant of a London wall-clock time on a day ('2027-03-29', '10:00' → 2027-03-29T09:00:00Z). */
export function londonInstant(day: string, time: string, timeZone: string = DATES_TIME_ZONE): number {
  return zonedWallClock(calendarDate(day), clockSeconds(time), timeZone);
}

/** An instant as the form shows it: the London day and wall-clock time. */
export function londonWallClock(epoch: number, timeZone: string = DATES_TIME_ZONE): { date: string; time: string } {
  const p = zonedParts(epoch, timeZone);
  return { date: isoDate(p), time: `${String(p.hour).padStart(2, '0')}:${String(p.minute).padStart(2, '0')}` };
}

export interface SeriesRule {
  /** The first day the series may fall on ('YYYY-MM-DD'). */
  firstDate: string;
  /** London wall-clock times of each date ('HH:MM'); the end is on the same day, after the start. */
  startTime: string;
  endTime: string;
  weekdays: readonly WeekdayKey[];
  /** The last day it may fall on (inclusive), or */
  until?: string | null;
  /** how many dates it has. */
  count?: number | null;
}

export interface SeriesDate {
  /** The London day ('YYYY-MM-DD'). */
  date: string;
  start: number;
  end: number;
}

/**
 * The dates of a weekly series: every chosen weekday from `firstDate`, until `until` (inclusive) or for `count`
 * dates, at most MAX_SERIES_DATES and MAX_SERIES_DAYS. Each date's start and end are its own day's London wall-clock
 * times, so the UTC instants move by an hour across a clock change while the local times stay put.
 */
export function expandWeeklySeries(rule: SeriesRule, timeZone: string = DATES_TIME_ZONE): SeriesDate[] {
  const days = new Set<number>(rule.weekdays.map((k) => WEEKDAYS.find((w) => w.key === k)!.day));
  if (days.size === 0) return [];
  const first = calendarDate(rule.firstDate);
  const last = rule.until ? rule.until : null;
  const wanted = rule.count ?? MAX_SERIES_DATES;
  const startSeconds = clockSeconds(rule.startTime);
  const endSeconds = clockSeconds(rule.endTime);
  const out: SeriesDate[] = [];
  for (let i = 0; i < MAX_SERIES_DAYS && out.length < Math.min(wanted, MAX_SERIES_DATES); i++) {
    const day = addCalendarDays(first, i);
    const iso = isoDate(day);
    if (last && iso > last) break;
    if (!days.has(calendarWeekday(day))) continue;
    out.push({ date: iso, start: zonedWallClock(day, startSeconds, timeZone), end: zonedWallClock(day, endSeconds, timeZone) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// What the admin sends

/** An address as parts (spec 3: an object whose values are joined to form the location text). */
export const addressSchema = z.object({
  line1: optionalText(200),
  line2: optionalText(200),
  city: optionalText(100),
  postcode: optionalText(20),
});
export type AddressInput = z.output<typeof addressSchema>;

/** The parts that hold something, in order (null when none do). */
export function addressParts(address: AddressInput | null | undefined): Record<string, string> | null {
  if (!address) return null;
  const out: Record<string, string> = {};
  for (const key of ['line1', 'line2', 'city', 'postcode'] as const) if (address[key]) out[key] = address[key]!;
  return Object.keys(out).length ? out : null;
}

/** Spec 3 "Offer": a date's own offer (none: the date sells the course's offers). */
export const offerInputSchema = z
  .object({
    id: refId.optional(),
    name: text(120),
    description: optionalText(1000),
    /** Pence; 0 or null is Free. */
    price: pence().nullable().default(null),
    /** Spaces one unit takes. */
    spaces: wholeNumber(1, 100).default(1),
    /** The sale window (epoch seconds). */
    startAt: epochSeconds.nullable().default(null),
    endAt: epochSeconds.nullable().default(null),
  })
  .superRefine((o, ctx) => {
    if (o.startAt !== null && o.endAt !== null && o.endAt <= o.startAt) ctx.addIssue({ code: 'custom', path: ['endAt'], message: 'must be after the sale start' });
  });
export type OfferInput = z.output<typeof offerInputSchema>;

/** Spec 3 "Add-on". */
export const addOnInputSchema = z.object({
  id: refId.optional(),
  name: text(120),
  description: optionalText(1000),
  price: pence().default(0),
});
export type AddOnInput = z.output<typeof addOnInputSchema>;

const place = {
  visibility: z.enum(VISIBILITIES, { error: 'must be public or private' }).default('public'),
  delivery: z.enum(DELIVERIES, { error: 'must be in-person, online or hybrid' }),
  address: addressSchema.nullable().default(null),
  /** Capacity; null: the course's spaces. */
  spaces: wholeNumber(1, 10_000).nullable().default(null),
  individuallyBookable: z.boolean().default(true),
};
const sells = {
  offers: z.array(offerInputSchema).max(20, 'must be at most 20').default([]),
  addOns: z.array(addOnInputSchema).max(20, 'must be at most 20').default([]),
};

/** A place needs an address when learners come to it. */
function checkPlace(d: { delivery: Delivery; address: AddressInput | null }, ctx: z.RefinementCtx): void {
  if (d.delivery !== 'online' && !addressParts(d.address)) ctx.addIssue({ code: 'custom', path: ['address', 'line1'], message: 'is required for in-person and hybrid dates' });
}

const validClock = (v: unknown): v is string => clockTime.safeParse(v).success;
const validDay = (v: unknown): v is string => isoDay.safeParse(v).success;

function checkTimes(d: { startTime: string; endTime: string }, ctx: z.RefinementCtx, sameDay: boolean): void {
  if (sameDay && validClock(d.startTime) && validClock(d.endTime) && clockSeconds(d.endTime) <= clockSeconds(d.startTime)) {
    ctx.addIssue({ code: 'custom', path: ['endTime'], message: 'must be after the start time' });
  }
}

/** One date: its day and London times (the end may be on a later day: endDate). */
const singleShape = {
  date: isoDay,
  startTime: clockTime,
  endDate: isoDay.nullish().transform((v) => v ?? null),
  endTime: clockTime,
  ...place,
};

function checkSingle(d: { date: string; startTime: string; endDate: string | null; endTime: string; delivery: Delivery; address: AddressInput | null }, ctx: z.RefinementCtx): void {
  checkPlace(d, ctx);
  const endDay = d.endDate ?? d.date;
  if (!validDay(d.date) || !validDay(endDay)) return;
  if (endDay < d.date) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'must not be before the start date' });
  else checkTimes(d, ctx, endDay === d.date);
}

export const singleDateSchema = z
  .object({ kind: z.literal('single'), ...singleShape, ...sells, parentRef: refId.nullish().transform((v) => v ?? null) })
  .superRefine(checkSingle);

export const weeklySeriesSchema = z
  .object({
    kind: z.literal('weekly'),
    firstDate: isoDay,
    startTime: clockTime,
    endTime: clockTime,
    weekdays: z.array(z.enum(WEEKDAY_KEYS, { error: 'must be a day of the week' }), { error: REQUIRED }).min(1, 'choose at least one day'),
    until: isoDay.nullish().transform((v) => v ?? null),
    count: wholeNumber(1, MAX_SERIES_DATES).nullish().transform((v) => v ?? null),
    ...place,
    ...sells,
  })
  .superRefine((d, ctx) => {
    checkPlace(d, ctx);
    checkTimes(d, ctx, true);
    if (d.until === null && d.count === null) ctx.addIssue({ code: 'custom', path: ['until'], message: 'choose an end date or a number of dates' });
    if (d.until !== null && d.count !== null) ctx.addIssue({ code: 'custom', path: ['count'], message: 'choose an end date or a number of dates, not both' });
    if (!validDay(d.firstDate) || (d.until !== null && !validDay(d.until))) return;
    if (d.until !== null && d.until < d.firstDate) ctx.addIssue({ code: 'custom', path: ['until'], message: 'must not be before the first date' });
    if (d.until !== null && d.until > isoDate(addCalendarDays(calendarDate(d.firstDate), MAX_SERIES_DAYS - 1))) {
      ctx.addIssue({ code: 'custom', path: ['until'], message: 'must be within two years of the first date' });
    }
  });

/** POST …/dates: one date, or a weekly series. */
export const newDatesSchema = z.discriminatedUnion('kind', [singleDateSchema, weeklySeriesSchema], { error: 'must be a single date or a weekly series' });
export type NewDatesInput = z.output<typeof newDatesSchema>;

/** PUT …/dates/{id}: one date, whole (its parent is kept). */
export const dateUpdateSchema = z
  .object({ revision: wholeNumber(1, Number.MAX_SAFE_INTEGER), ...singleShape, ...sells })
  .superRefine(checkSingle);
export type DateUpdateInput = z.output<typeof dateUpdateSchema>;

/**
 * PUT …/series/{seriesId}: what changes on every date of the series that has not started, each on its own day.
 * `revisions`: each date's revision as the admin saw it (a date changed meanwhile answers 409). Offers and add-ons
 * are replaced only when sent.
 */
export const seriesUpdateSchema = z
  .object({
    revisions: z.record(refId, wholeNumber(1, Number.MAX_SAFE_INTEGER), { error: REQUIRED }),
    startTime: clockTime,
    endTime: clockTime,
    ...place,
    offers: z.array(offerInputSchema).max(20, 'must be at most 20').optional(),
    addOns: z.array(addOnInputSchema).max(20, 'must be at most 20').optional(),
  })
  .superRefine((d, ctx) => {
    checkPlace(d, ctx);
    checkTimes(d, ctx, true);
  });
export type SeriesUpdateInput = z.output<typeof seriesUpdateSchema>;

/** DELETE …/series/{seriesId}: the revisions of the dates still to come, as the admin saw them. */
export const seriesRemovalSchema = z.object({ revisions: z.record(refId, wholeNumber(1, Number.MAX_SAFE_INTEGER), { error: REQUIRED }) });

/** The instants of one date as entered. */
export function singleDateInstants(d: { date: string; startTime: string; endDate: string | null; endTime: string }, timeZone: string = DATES_TIME_ZONE): { start: number; end: number } {
  return { start: londonInstant(d.date, d.startTime, timeZone), end: londonInstant(d.endDate ?? d.date, d.endTime, timeZone) };
}

// ---------------------------------------------------------------------------------------------
// Spaces already taken

export interface SpacesTaken {
  /** Spaces of bookings (and applications) that are not cancelled. */
  booked: number;
  /** Spaces held by learners at Payment now (holds that have not lapsed). */
  held: number;
  /** What the checkout's counter says is gone: capacity − available_spaces (covers both, however they were made). */
  taken: number;
}

/** The fewest spaces a date may be given: what is booked and held now. */
export function fewestSpaces(t: SpacesTaken): number {
  return Math.max(t.taken, t.booked + t.held, 0);
}

/** Why `spaces` is too few, or null when it is enough. */
export function spacesProblem(spaces: number, t: SpacesTaken): string | null {
  const least = fewestSpaces(t);
  if (spaces >= least) return null;
  const parts = [`${t.booked} booked`];
  if (t.held > 0) parts.push(`${t.held} held by learners paying now`);
  return `must be at least ${least}: ${parts.join(' and ')}`;
}

/**
 * The checkout's counter (occurrences.available_spaces) after a capacity change: it moves by as much as the capacity
 * did, so whatever is booked or held stays taken (a hold that lapsed and is given back later still adds up). null
 * stays null: the checkout sets it from the capacity at the first hold.
 */
export function availableAfter(input: { oldCapacity: number; oldAvailable: number | null; newCapacity: number }): number | null {
  return input.oldAvailable === null ? null : input.oldAvailable + input.newCapacity - input.oldCapacity;
}

/** A date as messages name it: 'Sun 28 Mar 2027, 10:00' (London). */
export function dateLabel(epoch: number, timeZone: string = DATES_TIME_ZONE): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(new Date(epoch * 1000));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('weekday')} ${get('day')} ${get('month')} ${get('year')}, ${get('hour')}:${get('minute')}`;
}

export interface SeriesSummary {
  id: string;
  /** Dates of the series, and those not started yet. */
  count: number;
  upcoming: number;
  /** Weekdays it falls on (Monday first) and its London times, read from its dates. */
  weekdays: WeekdayKey[];
  startTime: string;
  endTime: string;
  firstDate: string;
  lastDate: string;
}

/** What a series is, read back from its dates (each an ordinary occurrence): its weekdays, times and span. */
export function summariseSeries(id: string, dates: ReadonlyArray<{ start: number; end: number }>, now: number, timeZone: string = DATES_TIME_ZONE): SeriesSummary | null {
  if (dates.length === 0) return null;
  const sorted = [...dates].sort((a, b) => a.start - b.start);
  const days = new Set(sorted.map((d) => calendarWeekday(zonedParts(d.start, timeZone))));
  const reference = sorted.find((d) => d.start > now) ?? sorted[sorted.length - 1]!;
  return {
    id,
    count: sorted.length,
    upcoming: sorted.filter((d) => d.start > now).length,
    weekdays: WEEKDAYS.filter((w) => days.has(w.day)).map((w) => w.key),
    startTime: londonWallClock(reference.start, timeZone).time,
    endTime: londonWallClock(reference.end, timeZone).time,
    firstDate: londonWallClock(sorted[0]!.start, timeZone).date,
    lastDate: londonWallClock(sorted[sorted.length - 1]!.start, timeZone).date,
  };
}

/** The message of a refused removal of a date that learners have booked. */
export function bookedDateMessage(bookings: number): string {
  return `This date has ${bookings} ${bookings === 1 ? 'booking' : 'bookings'}. Cancel it from Bookings, which tells the learners and refunds them.`;
}

export { REQUIRED };
