/**
 * A course's dates in the educator admin (docs/admin.md "Dates"), relative to /admin/educators/{educatorId}:
 *
 *   GET    /courses/{courseId}/dates                    → the course, its dates (with booked and held spaces) and series
 *   POST   /courses/{courseId}/dates                    → one date (optionally a child session) or a weekly series
 *   PUT    /courses/{courseId}/dates/{occurrenceId}     → one date, whole ({revision, …})
 *   DELETE /courses/{courseId}/dates/{occurrenceId}?revision=N → removes a date nobody has booked or holds
 *   PUT    /courses/{courseId}/series/{seriesId}        → every date of the series still to come ({revisions, …})
 *   POST   /courses/{courseId}/series/{seriesId}/remove → removes the series' dates still to come ({revisions})
 *
 * Times are typed as London wall-clock times and stored as epoch seconds (src/domain/admin/dates.ts). Spaces are
 * never set below what is booked and held: the occurrence's row is locked (its revision is claimed first), lapsed
 * holds are counted as free as every reader counts them (db/queries/holds.ts), and the checkout's counter
 * (available_spaces) moves by as much as the capacity. A date with bookings is neither removed nor moved here:
 * cancelling it is done from Bookings, which tells the learners.
 */
import { notifyWaitlist, notifyWaitlistOfDate } from './inbox.ts';
import { Hono, type Context } from 'hono';
import { sql } from 'kysely';
import type { AppEnv } from '../deps.ts';
import type { AddOn as AddOnRow, Occurrence as OccurrenceRow, Offer as OfferRow } from '../../db/schema.ts';
import { parseJson } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { lapsedHeldSpaces } from '../../db/queries/holds.ts';
import { adminEducatorId } from './access.ts';
import { claimRevision, diffFields, listChanges, staleRevision } from './audit.ts';
import { audit, created, deleteRevision, invalid, invalidFields, notYours, pathId, refused, removed, type Trx } from './catalogue-saves.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import {
  DATES_TIME_ZONE, addressParts, availableAfter, bookedDateMessage, dateLabel, dateUpdateSchema, expandWeeklySeries, londonInstant,
  londonWallClock, newDatesSchema, seriesRemovalSchema, seriesUpdateSchema, singleDateInstants, spacesProblem, summariseSeries,
  type AddOnInput, type DateUpdateInput, type NewDatesInput, type OfferInput, type SeriesUpdateInput, type SpacesTaken,
} from '../../src/domain/admin/dates.ts';

type Q = Trx | AppEnv['Variables']['deps']['db'];

interface CourseRow { id: string; name: string; type: string; spaces: number | null; published: boolean; slug: string }

/** Courses whose learners book dates (spec 4 "Flow and course type": class or blended; other types are scheduled). */
function hasDates(type: string): boolean {
  return type !== 'on-demand' && type !== 'on-request';
}

async function ownedCourse(c: Context<AppEnv>, q: Q): Promise<CourseRow> {
  const id = pathId.safeParse(c.req.param('courseId'));
  if (!id.success) throw notYours('No course of yours has this id.');
  const row = await q.selectFrom('courses').select(['id', 'name', 'type', 'spaces', 'published', 'slug'])
    .where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).executeTakeFirst();
  if (!row) throw notYours('No course of yours has this id.');
  return { ...row, spaces: row.spaces === null ? null : Number(row.spaces), published: !!row.published };
}

async function ownedDate(c: Context<AppEnv>, q: Q, course: CourseRow): Promise<OccurrenceRow> {
  const id = pathId.safeParse(c.req.param('occurrenceId'));
  if (!id.success) throw notYours('No date of this course has this id.');
  const row = await q.selectFrom('occurrences').selectAll().where('id', '=', id.data).where('course_id', '=', course.id).executeTakeFirst();
  if (!row) throw notYours('No date of this course has this id.');
  return row;
}

// ---------------------------------------------------------------------------------------------
// Reading

interface Taken { bookings: number; booked: number; held: number; lapsed: number }

/** Per occurrence: bookings (and applications) not cancelled and their spaces, spaces held now, and held but lapsed. */
async function takenSpaces(q: Q, ids: readonly string[], now: number): Promise<Map<string, Taken>> {
  const out = new Map<string, Taken>();
  if (ids.length === 0) return out;
  const entry = (id: string) => {
    let t = out.get(id);
    if (!t) out.set(id, (t = { bookings: 0, booked: 0, held: 0, lapsed: 0 }));
    return t;
  };
  const [bookings, applications, held, lapsed] = await Promise.all([
    q.selectFrom('bookings').select(['occurrence_id', (eb) => eb.fn.sum<number | string>('spaces').as('spaces'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('occurrence_id', 'in', [...ids]).where('status', '<>', 'cancelled').groupBy('occurrence_id').execute(),
    q.selectFrom('booking_applications').select(['occurrence_id', (eb) => eb.fn.sum<number | string>('spaces').as('spaces'), (eb) => eb.fn.countAll<number | string>().as('n')])
      .where('occurrence_id', 'in', [...ids]).groupBy('occurrence_id').execute(),
    q.selectFrom('space_holds').select(['occurrence_id', (eb) => eb.fn.sum<number | string>('spaces').as('spaces')])
      .where('occurrence_id', 'in', [...ids]).where('status', '=', 'held').where('expires_at', '>', now).groupBy('occurrence_id').execute(),
    lapsedHeldSpaces(q, ids, now),
  ]);
  for (const r of [...bookings, ...applications]) {
    if (!r.occurrence_id) continue;
    const t = entry(r.occurrence_id);
    t.booked += Number(r.spaces ?? 0);
    t.bookings += Number(r.n ?? 0);
  }
  for (const r of held) if (r.occurrence_id) entry(r.occurrence_id).held += Number(r.spaces ?? 0);
  for (const [id, spaces] of lapsed) entry(id).lapsed += spaces;
  return out;
}

function capacityOf(row: Pick<OccurrenceRow, 'spaces'>, course: CourseRow): number {
  return row.spaces !== null ? Number(row.spaces) : course.spaces ?? 0;
}

/** What the checkout's counter and the rows say is taken on a date. */
function spacesTaken(row: OccurrenceRow, course: CourseRow, t: Taken | undefined): SpacesTaken {
  const capacity = capacityOf(row, course);
  const available = row.available_spaces === null ? null : Number(row.available_spaces) + (t?.lapsed ?? 0);
  return { booked: t?.booked ?? 0, held: t?.held ?? 0, taken: available === null ? 0 : Math.max(0, capacity - available) };
}

function offerView(o: OfferRow) {
  return {
    id: o.id, name: o.name, description: o.description, price: o.price === null ? null : Number(o.price), spaces: Number(o.spaces ?? 1),
    startAt: o.start_at === null ? null : Number(o.start_at), endAt: o.end_at === null ? null : Number(o.end_at),
  };
}
function addOnView(a: AddOnRow) {
  return { id: a.id, name: a.name, description: a.description, price: Number(a.price ?? 0) };
}

export type DateView = ReturnType<typeof dateView>;

function dateView(row: OccurrenceRow, course: CourseRow, offers: OfferRow[], addOns: AddOnRow[], t: Taken | undefined, now: number) {
  const start = Number(row.start_datetime);
  const end = Number(row.end_datetime);
  const s = londonWallClock(start, row.timezone || DATES_TIME_ZONE);
  const e = londonWallClock(end, row.timezone || DATES_TIME_ZONE);
  const taken = spacesTaken(row, course, t);
  const capacity = capacityOf(row, course);
  return {
    id: row.id,
    revision: Number(row.revision),
    seriesId: row.series_id,
    parentRef: row.parent_ref,
    individuallyBookable: !!row.individually_bookable,
    visibility: row.visibility,
    delivery: row.delivery,
    address: row.address,
    spaces: row.spaces === null ? null : Number(row.spaces),
    capacity,
    available: Math.max(0, capacity - Math.max(taken.taken, taken.booked + taken.held)),
    bookings: t?.bookings ?? 0,
    booked: taken.booked,
    held: taken.held,
    start,
    end,
    timezone: row.timezone,
    local: { date: s.date, startTime: s.time, endDate: e.date, endTime: e.time },
    label: dateLabel(start, row.timezone || DATES_TIME_ZONE),
    started: start <= now,
    offers: offers.map(offerView),
    addOns: addOns.map(addOnView),
  };
}

/** The views of a course's dates (or of `ids`), by start. */
async function dateViews(q: Q, course: CourseRow, now: number, ids?: readonly string[]): Promise<DateView[]> {
  if (ids && ids.length === 0) return [];
  let rows = q.selectFrom('occurrences').selectAll().where('course_id', '=', course.id);
  if (ids) rows = rows.where('id', 'in', [...ids]);
  const occurrences = await rows.orderBy('start_datetime').orderBy('id').execute();
  const occIds = occurrences.map((o) => o.id);
  if (occIds.length === 0) return [];
  const [offers, addOns, taken] = await Promise.all([
    q.selectFrom('offers').selectAll().where('occurrence_id', 'in', occIds).orderBy('position').orderBy('id').execute(),
    q.selectFrom('add_ons').selectAll().where('occurrence_id', 'in', occIds).orderBy('position').orderBy('id').execute(),
    takenSpaces(q, occIds, now),
  ]);
  return occurrences.map((o) => dateView(o, course, offers.filter((x) => x.occurrence_id === o.id), addOns.filter((x) => x.occurrence_id === o.id), taken.get(o.id), now));
}

async function courseOffersCount(q: Q, courseId: string): Promise<number> {
  const row = await q.selectFrom('offers').select((eb) => eb.fn.countAll<number | string>().as('n')).where('course_id', '=', courseId).where('occurrence_id', 'is', null).executeTakeFirst();
  return Number(row?.n ?? 0);
}

// ---------------------------------------------------------------------------------------------
// Writing

/** The audited shape of a date (what the audit log compares before and after). */
function auditShape(v: Pick<DateView, 'start' | 'end' | 'visibility' | 'delivery' | 'address' | 'spaces' | 'individuallyBookable' | 'parentRef' | 'seriesId' | 'offers' | 'addOns'>) {
  return {
    start_datetime: v.start, end_datetime: v.end, visibility: v.visibility, delivery: v.delivery, address: v.address, spaces: v.spaces,
    individually_bookable: v.individuallyBookable, parent_ref: v.parentRef, series_id: v.seriesId,
    offers: v.offers.map((o) => ({ ...o })), add_ons: v.addOns.map((a) => ({ ...a })),
  };
}

/**
 * Makes a date's own offers (or add-ons) the given list: ids kept are updated in place (a learner's selection of
 * them stays good), new ones are added, the rest removed. `positional`: match by position instead of id (a series
 * edit, where each date has its own ids).
 */
async function syncOffers(trx: Trx, courseId: string, occurrenceId: string, input: OfferInput[], existing: OfferRow[], positional = false): Promise<void> {
  const byId = new Map(existing.map((o) => [o.id, o]));
  const ids = input.map((o, i) => (positional ? existing[i]?.id : o.id));
  if (!positional) {
    const stranger = input.findIndex((o) => o.id !== undefined && !byId.has(o.id));
    if (stranger >= 0) throw invalid(`offers.${stranger}.id`, 'is not an offer of this date');
  }
  const keep = new Set(ids.filter((v): v is string => !!v));
  const gone = existing.filter((o) => !keep.has(o.id)).map((o) => o.id);
  if (gone.length) await trx.deleteFrom('offers').where('id', 'in', gone).execute();
  for (const [position, o] of input.entries()) {
    const values = { name: o.name, description: o.description, price: o.price, spaces: o.spaces, start_at: o.startAt, end_at: o.endAt, position };
    const id = ids[position];
    if (id) await trx.updateTable('offers').set(values).where('id', '=', id).execute();
    else await trx.insertInto('offers').values({ id: newId('off'), course_id: courseId, occurrence_id: occurrenceId, ...values }).execute();
  }
}

async function syncAddOns(trx: Trx, courseId: string, occurrenceId: string, input: AddOnInput[], existing: AddOnRow[], positional = false): Promise<void> {
  const byId = new Map(existing.map((a) => [a.id, a]));
  const ids = input.map((a, i) => (positional ? existing[i]?.id : a.id));
  if (!positional) {
    const stranger = input.findIndex((a) => a.id !== undefined && !byId.has(a.id));
    if (stranger >= 0) throw invalid(`addOns.${stranger}.id`, 'is not an add-on of this date');
  }
  const keep = new Set(ids.filter((v): v is string => !!v));
  const gone = existing.filter((a) => !keep.has(a.id)).map((a) => a.id);
  if (gone.length) await trx.deleteFrom('add_ons').where('id', 'in', gone).execute();
  for (const [position, a] of input.entries()) {
    const values = { name: a.name, description: a.description, price: a.price, position };
    const id = ids[position];
    if (id) await trx.updateTable('add_ons').set(values).where('id', '=', id).execute();
    else await trx.insertInto('add_ons').values({ id: newId('add'), course_id: courseId, occurrence_id: occurrenceId, ...values }).execute();
  }
}

/** A date's capacity must be known: its own spaces, else the course's. */
function requireCapacity(spaces: number | null, course: CourseRow): void {
  if (spaces === null && course.spaces === null) throw invalid('spaces', 'is required (the course has no spaces of its own)');
}

/**
 * Moves a date's capacity to `spaces` (null: the course's) if what is booked and held allows it; the checkout's counter
 * moves with it. The row is locked already (its revision was claimed in this transaction).
 */
async function setCapacity(trx: Trx, row: OccurrenceRow, course: CourseRow, spaces: number | null, now: number, key = 'spaces', label?: string): Promise<void> {
  const oldCapacity = capacityOf(row, course);
  const newCapacity = spaces ?? course.spaces ?? 0;
  if (newCapacity < oldCapacity) {
    const taken = (await takenSpaces(trx, [row.id], now)).get(row.id);
    const problem = spacesProblem(newCapacity, spacesTaken(row, course, taken));
    if (problem) throw invalid(key, label ? `${problem} on ${label}` : problem);
  }
  const available = availableAfter({ oldCapacity, oldAvailable: row.available_spaces === null ? null : Number(row.available_spaces), newCapacity });
  const delta = newCapacity - oldCapacity;
  await trx.updateTable('occurrences')
    .set(available === null || delta === 0 ? { spaces } : { spaces, available_spaces: sql<number>`available_spaces + ${delta}` })
    .where('id', '=', row.id).execute();
}

/** Refuses to move a date learners have booked (they would not be told). */
function refuseMovingBooked(row: OccurrenceRow, start: number, end: number, bookings: number): void {
  if (bookings > 0 && (start !== Number(row.start_datetime) || end !== Number(row.end_datetime))) {
    throw refused('Date Has Bookings', `${dateLabel(Number(row.start_datetime))} has ${bookings} ${bookings === 1 ? 'booking' : 'bookings'}, so its time cannot be changed here (the learners would not be told). Cancel it from Bookings and add a new date.`);
  }
}

/** The parent of a child session: a date of the same course that is not itself a child. */
async function checkParent(q: Q, course: CourseRow, parentRef: string): Promise<void> {
  const parent = await q.selectFrom('occurrences').select(['id', 'parent_ref']).where('id', '=', parentRef).where('course_id', '=', course.id).executeTakeFirst();
  if (!parent) throw invalid('parentRef', 'is not a date of this course');
  if (parent.parent_ref) throw invalid('parentRef', 'is itself a session of another date');
}

/** Refuses a stale series edit: every date still to come must be named with the revision the admin saw. */
async function claimSeries(trx: Trx, c: Context<AppEnv>, rows: OccurrenceRow[], revisions: Record<string, number>): Promise<Map<string, number>> {
  const claimed = new Map<string, number>();
  const educatorId = adminEducatorId(c);
  for (const row of rows) {
    const expected = revisions[row.id];
    if (expected === undefined) {
      // A date added to the series since the admin opened it.
      const since = await listChanges(trx, { educatorId, entity: 'occurrence', entityId: row.id });
      throw new ProblemError(staleRevision(since, Number(row.revision)));
    }
    claimed.set(row.id, await claimRevision(trx, { table: 'occurrences', id: row.id, expected, educatorId, entity: 'occurrence' }));
  }
  return claimed;
}

/** Dates that block a removal: bookings (cancel them from Bookings) or spaces held by learners paying now. */
function blockers(rows: OccurrenceRow[], taken: Map<string, Taken>): { booked: OccurrenceRow[]; held: OccurrenceRow[] } {
  return {
    booked: rows.filter((r) => (taken.get(r.id)?.bookings ?? 0) > 0),
    held: rows.filter((r) => (taken.get(r.id)?.held ?? 0) > 0),
  };
}

/** A date's place and how it is sold, as the admin set them (one date, or every date of a series). */
type DatePlace = Pick<DateUpdateInput, 'visibility' | 'delivery' | 'address' | 'individuallyBookable'>;

async function writeDateFields(trx: Trx, id: string, start: number, end: number, input: DatePlace): Promise<void> {
  await trx.updateTable('occurrences').set({
    start_datetime: start, end_datetime: end, visibility: input.visibility, delivery: input.delivery,
    address: input.delivery === 'online' ? null : addressParts(input.address), individually_bookable: input.individuallyBookable,
  }).where('id', '=', id).execute();
}

/** A date's own offers and add-ons as stored, in their order. */
async function ownOffersAndAddOns(trx: Trx, occurrenceId: string): Promise<[OfferRow[], AddOnRow[]]> {
  return Promise.all([
    trx.selectFrom('offers').selectAll().where('occurrence_id', '=', occurrenceId).orderBy('position').orderBy('id').execute(),
    trx.selectFrom('add_ons').selectAll().where('occurrence_id', '=', occurrenceId).orderBy('position').orderBy('id').execute(),
  ]);
}

// ---------------------------------------------------------------------------------------------
// Routes

export function datesAdminRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/courses/:courseId/dates', listDates);
  app.post('/courses/:courseId/dates', addDates);
  app.put('/courses/:courseId/dates/:occurrenceId', updateDate);
  app.delete('/courses/:courseId/dates/:occurrenceId', removeDate);
  app.put('/courses/:courseId/series/:seriesId', updateSeries);
  app.post('/courses/:courseId/series/:seriesId/remove', removeSeries);
  return app;
}

/** GET …/dates: the course, its dates and the series they form. */
async function listDates(c: Context<AppEnv>) {
  const { db, now } = c.var.deps;
  const course = await ownedCourse(c, db);
  const dates = await dateViews(db, course, now());
  const bySeries = new Map<string, DateView[]>();
  for (const d of dates) if (d.seriesId) bySeries.set(d.seriesId, [...(bySeries.get(d.seriesId) ?? []), d]);
  const series = [...bySeries.entries()].map(([id, list]) => summariseSeries(id, list, now())).filter((s) => s !== null);
  return c.json({
    course: { id: course.id, name: course.name, type: course.type, spaces: course.spaces, published: course.published, hasDates: hasDates(course.type), courseOffers: await courseOffersCount(db, course.id) },
    dates,
    series,
    timeZone: DATES_TIME_ZONE,
  });
}

interface NewDatesPlan { instants: { start: number; end: number }[]; seriesId: string | null; parentRef: string | null }

/** The instants of the dates to add (one, or each of a weekly series), refusing any that has started. */
async function planNewDates(trx: Trx, course: CourseRow, input: NewDatesInput, now: number): Promise<NewDatesPlan> {
  if (input.kind === 'single') {
    const times = singleDateInstants(input);
    if (times.start <= now) throw invalid('date', 'must be in the future');
    if (input.parentRef) await checkParent(trx, course, input.parentRef);
    return { instants: [times], seriesId: null, parentRef: input.parentRef ? input.parentRef : null };
  }
  const dates = expandWeeklySeries(input);
  if (dates.length === 0) throw invalid('weekdays', 'none of these days falls between the first and the last date');
  if (dates[0]!.start <= now) throw invalid('firstDate', 'must be in the future (the first date has started)');
  return { instants: dates, seriesId: newId('ser'), parentRef: null };
}

/** Writes the planned dates, each with its own copies of the offers and add-ons; answers their ids. */
async function insertDates(trx: Trx, course: CourseRow, input: NewDatesInput, plan: NewDatesPlan): Promise<string[]> {
  const ids: string[] = [];
  const address = input.delivery === 'online' ? null : addressParts(input.address);
  for (const { start, end } of plan.instants) {
    const id = newId('occ');
    ids.push(id);
    await trx.insertInto('occurrences').values({
      id, course_id: course.id, visibility: input.visibility, start_datetime: start, end_datetime: end, timezone: DATES_TIME_ZONE,
      delivery: input.delivery, address, spaces: input.spaces, available_spaces: input.spaces, parent_ref: plan.parentRef,
      individually_bookable: input.individuallyBookable, series_id: plan.seriesId,
    }).execute();
    await syncOffers(trx, course.id, id, input.offers.map((o) => ({ ...o, id: undefined })), []);
    await syncAddOns(trx, course.id, id, input.addOns.map((a) => ({ ...a, id: undefined })), []);
  }
  return ids;
}

/** POST …/dates: one date (optionally a child session) or a weekly series. */
async function addDates(c: Context<AppEnv>) {
  const { db, now: clock } = c.var.deps;
  const input = await parseJson(c, newDatesSchema);
  const now = clock();
  const result = await db.transaction().execute(async (trx) => {
    const course = await ownedCourse(c, trx);
    if (!hasDates(course.type)) throw refused('Course Has No Dates', `${course.name} is ${course.type === 'on-demand' ? 'an on-demand' : 'an on-request'} course: learners book it without a date.`);
    requireCapacity(input.spaces, course);
    const plan = await planNewDates(trx, course, input, now);
    const ids = await insertDates(trx, course, input, plan);
    const views = await dateViews(trx, course, now, ids);
    for (const v of views) await audit(trx, c, { entity: 'occurrence', entityId: v.id, action: 'create', revision: v.revision, changes: created(auditShape(v)) });
    await notifyWaitlist(trx, course.id, c.var.deps);
    return { dates: views, seriesId: plan.seriesId };
  });
  return c.json(result, 201);
}

/** PUT …/dates/{occurrenceId}: one date, whole. */
async function updateDate(c: Context<AppEnv>) {
  const { db, now: clock } = c.var.deps;
  const input = await parseJson(c, dateUpdateSchema);
  const now = clock();
  const view = await db.transaction().execute(async (trx) => {
    const course = await ownedCourse(c, trx);
    const found = await ownedDate(c, trx, course);
    const revision = await claimRevision(trx, { table: 'occurrences', id: found.id, expected: input.revision, educatorId: adminEducatorId(c), entity: 'occurrence' });
    // Read again under the row's lock: a checkout may have taken spaces since.
    const row = await ownedDate(c, trx, course);
    const [before] = await dateViews(trx, course, now, [row.id]);
    requireCapacity(input.spaces, course);
    const { start, end } = singleDateInstants(input);
    if (start !== Number(row.start_datetime) && start <= now) throw invalid('date', 'must be in the future');
    refuseMovingBooked(row, start, end, before!.bookings);
    await setCapacity(trx, row, course, input.spaces, now);
    await writeDateFields(trx, row.id, start, end, input);
    const [offers, addOns] = await ownOffersAndAddOns(trx, row.id);
    await syncOffers(trx, course.id, row.id, input.offers, offers);
    await syncAddOns(trx, course.id, row.id, input.addOns, addOns);
    const [after] = await dateViews(trx, course, now, [row.id]);
    await audit(trx, c, { entity: 'occurrence', entityId: row.id, action: 'update', revision, changes: diffFields(auditShape(before!), auditShape(after!)) });
    await notifyWaitlistOfDate(trx, row.id, row, c.var.deps);
    return after!;
  });
  return c.json(view);
}

/** DELETE …/dates/{occurrenceId}?revision=N: a date nobody has booked or holds, with its child sessions. */
async function removeDate(c: Context<AppEnv>) {
  const { db, now: clock } = c.var.deps;
  const revision = deleteRevision(c);
  const now = clock();
  await db.transaction().execute(async (trx) => {
    const course = await ownedCourse(c, trx);
    const row = await ownedDate(c, trx, course);
    await claimRevision(trx, { table: 'occurrences', id: row.id, expected: revision, educatorId: adminEducatorId(c), entity: 'occurrence' });
    // Its child sessions go with it: none of them may be booked or held either.
    const children = await trx.selectFrom('occurrences').selectAll().where('parent_ref', '=', row.id).execute();
    const all = [row, ...children];
    const taken = await takenSpaces(trx, all.map((r) => r.id), now);
    const { booked, held } = blockers(all, taken);
    const bookings = booked.reduce((n, r) => n + (taken.get(r.id)?.bookings ?? 0), 0);
    if (bookings > 0) throw refused('Date Has Bookings', bookedDateMessage(bookings));
    if (held.length > 0) {
      throw refused('Spaces Held Now', 'Learners are paying for spaces on this date right now. Make the date private so nobody else starts, then remove it once they have finished (holds last a few minutes).');
    }
    const [before] = await dateViews(trx, course, now, [row.id]);
    await trx.deleteFrom('occurrences').where('parent_ref', '=', row.id).execute();
    await trx.deleteFrom('occurrences').where('id', '=', row.id).execute();
    await audit(trx, c, { entity: 'occurrence', entityId: row.id, action: 'delete', revision: null, changes: removed(auditShape(before!)) });
    for (const child of children) await audit(trx, c, { entity: 'occurrence', entityId: child.id, action: 'delete', changes: { parent_ref: [row.id, null] } });
  });
  return c.body(null, 204);
}

interface MovedDate { row: OccurrenceRow; start: number; end: number }

/**
 * Refuses a series edit that would move a booked date (its learners would not be told) or put a date in the past.
 * `before`: the dates' views before the edit.
 */
function refuseSeriesMoves(moved: MovedDate[], before: DateView[], now: number): void {
  const booked = moved.filter((m) => (before.find((b) => b.id === m.row.id)?.bookings ?? 0) > 0
    && (m.start !== Number(m.row.start_datetime) || m.end !== Number(m.row.end_datetime)));
  if (booked.length) {
    throw refused('Dates Have Bookings', `Learners have booked ${booked.map((m) => dateLabel(Number(m.row.start_datetime))).join('; ')}, so the series' times cannot be changed here (they would not be told). Cancel those dates from Bookings first, or change the other dates one by one.`);
  }
  const past = moved.find((m) => m.start <= now);
  if (past) throw invalid('startTime', `must be in the future on ${dateLabel(past.start)}`);
}

/** Sets every date's capacity, answering one 400 that names each date whose bookings and holds do not fit. */
async function setSeriesCapacity(trx: Trx, moved: MovedDate[], course: CourseRow, spaces: number | null, now: number): Promise<void> {
  const problems: { key: string; message: string }[] = [];
  for (const m of moved) {
    try {
      await setCapacity(trx, m.row, course, spaces, now, 'spaces', dateLabel(Number(m.row.start_datetime)));
    } catch (err) {
      if (err instanceof ProblemError && err.problem.status === 400) problems.push(...((err.problem.properties ?? []) as { key: string; message: string }[]));
      else throw err;
    }
  }
  if (problems.length) throw invalidFields(problems);
}

/** Writes each date's new times and place, and the offers and add-ons when sent (matched by position). */
async function writeSeriesDates(trx: Trx, moved: MovedDate[], course: CourseRow, input: SeriesUpdateInput): Promise<void> {
  for (const m of moved) {
    await writeDateFields(trx, m.row.id, m.start, m.end, input);
    const [offers, addOns] = await ownOffersAndAddOns(trx, m.row.id);
    if (input.offers) await syncOffers(trx, course.id, m.row.id, input.offers, offers, true);
    if (input.addOns) await syncAddOns(trx, course.id, m.row.id, input.addOns, addOns, true);
  }
}

/** PUT …/series/{seriesId}: every date of the series still to come, each on its own day. */
async function updateSeries(c: Context<AppEnv>) {
  const { db, now: clock } = c.var.deps;
  const input = await parseJson(c, seriesUpdateSchema);
  const now = clock();
  const views = await db.transaction().execute(async (trx) => {
    const course = await ownedCourse(c, trx);
    const rows = await upcomingOfSeries(c, trx, course, now);
    const ids = rows.map((r) => r.id);
    const before = await dateViews(trx, course, now, ids);
    const revisions = await claimSeries(trx, c, rows, input.revisions);
    requireCapacity(input.spaces, course);
    const fresh = await trx.selectFrom('occurrences').selectAll().where('id', 'in', ids).orderBy('start_datetime').execute();
    const moved = fresh.map((row) => {
      const day = londonWallClock(Number(row.start_datetime), row.timezone || DATES_TIME_ZONE).date;
      return { row, start: londonInstant(day, input.startTime), end: londonInstant(day, input.endTime) };
    });
    refuseSeriesMoves(moved, before, now);
    await setSeriesCapacity(trx, moved, course, input.spaces, now);
    await writeSeriesDates(trx, moved, course, input);
    const after = await dateViews(trx, course, now, ids);
    for (const a of after) {
      const b = before.find((x) => x.id === a.id)!;
      await audit(trx, c, { entity: 'occurrence', entityId: a.id, action: 'update', revision: revisions.get(a.id), changes: diffFields(auditShape(b), auditShape(a)) });
    }
    for (const row of fresh) await notifyWaitlistOfDate(trx, row.id, row, c.var.deps);
    return after;
  });
  return c.json({ dates: views });
}

/** POST …/series/{seriesId}/remove: the series' dates still to come, when nobody has booked or holds them. */
async function removeSeries(c: Context<AppEnv>) {
  const { db, now: clock } = c.var.deps;
  const input = await parseJson(c, seriesRemovalSchema);
  const now = clock();
  const removedIds = await db.transaction().execute(async (trx) => {
    const course = await ownedCourse(c, trx);
    const rows = await upcomingOfSeries(c, trx, course, now);
    await claimSeries(trx, c, rows, input.revisions);
    const children = await trx.selectFrom('occurrences').selectAll().where('parent_ref', 'in', rows.map((r) => r.id)).execute();
    const taken = await takenSpaces(trx, [...rows, ...children].map((r) => r.id), now);
    const { booked, held } = blockers([...rows, ...children], taken);
    if (booked.length) {
      throw refused('Dates Have Bookings', `Learners have booked ${booked.map((r) => `${dateLabel(Number(r.start_datetime))} (${taken.get(r.id)?.bookings})`).join('; ')}. Cancel those dates from Bookings, which tells the learners and refunds them, then remove the series.`);
    }
    if (held.length) throw refused('Spaces Held Now', `Learners are paying for spaces on ${held.map((r) => dateLabel(Number(r.start_datetime))).join('; ')} right now. Try again once they have finished (holds last a few minutes).`);
    const before = await dateViews(trx, course, now, rows.map((r) => r.id));
    await trx.deleteFrom('occurrences').where('parent_ref', 'in', rows.map((r) => r.id)).execute();
    await trx.deleteFrom('occurrences').where('id', 'in', rows.map((r) => r.id)).execute();
    for (const b of before) await audit(trx, c, { entity: 'occurrence', entityId: b.id, action: 'delete', changes: removed(auditShape(b)) });
    return before.map((b) => b.id);
  });
  return c.json({ removed: removedIds });
}

/** The dates of a series of the course that have not started (404 when there are none). */
async function upcomingOfSeries(c: Context<AppEnv>, q: Q, course: CourseRow, now: number): Promise<OccurrenceRow[]> {
  const id = pathId.safeParse(c.req.param('seriesId'));
  if (!id.success) throw notYours('No series of this course has this id.');
  const rows = await q.selectFrom('occurrences').selectAll().where('series_id', '=', id.data).where('course_id', '=', course.id).orderBy('start_datetime').execute();
  if (rows.length === 0) throw notYours('No series of this course has this id.');
  const upcoming = rows.filter((r) => Number(r.start_datetime) > now);
  if (upcoming.length === 0) throw refused('Series Is Over', 'Every date of this series has started: there is nothing left to change.');
  return upcoming;
}
