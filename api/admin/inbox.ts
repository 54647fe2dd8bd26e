/**
 * The educator's inbox (docs/admin.md "Inbox"), relative to /admin/educators/{educatorId}:
 *
 *   GET /inbox?type=message|waitlist&state=open|done|all&before=CURSOR → enquiries and waitlist entries, newest first
 *   GET /inbox/{enquiryId}          → one, with the replies sent (opening it marks it read)
 *   POST /inbox/{enquiryId}/reply   → {message}: e-mailed to the learner through the outbox, in the transaction
 *                                     that records the reply
 *   PUT /inbox/{enquiryId}/done     → {done: true | false}
 *
 * `notifyWaitlist(trx, courseId, deps)` e-mails the course's waitlisted learners, oldest entry first, once each
 * (`enquiries.notified_at`, claimed by a conditional update in the caller's transaction, so two writers cannot
 * both send): the admin's dates API calls it when a date is added, and `notifyWaitlistOfDate` when spaces free up
 * on a date (a cancellation, more spaces, a date made public).
 */
import { Hono, type Context } from 'hono';
import type { Kysely } from 'kysely';
import type { AppEnv, Deps } from '../deps.ts';
import type { Database } from '../../db/schema.ts';
import { parseJson, parseQuery } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { queueMail } from '../mail/index.ts';
import { adminEducatorId } from './access.ts';
import { audit, notYours, pathId, type Trx } from './catalogue-saves.ts';
import { listInbox } from '../../db/queries/admin-inbox.ts';
import { doneSchema, inboxQuerySchema, replyEmail, replySchema, waitlistEmail } from '../../src/domain/admin/inbox.ts';
import { coursePageUrl } from '../../src/domain/links.ts';

async function ownedEnquiry(c: Context<AppEnv>, q: Trx | Deps['db']) {
  const id = pathId.safeParse(c.req.param('enquiryId'));
  if (!id.success) throw notYours('No enquiry of yours has this id.');
  const row = await q.selectFrom('enquiries').selectAll().where('id', '=', id.data).where('educator_id', '=', adminEducatorId(c)).executeTakeFirst();
  if (!row) throw notYours('No enquiry of yours has this id.');
  return row;
}

/**
 * E-mails each waitlisted learner of the course not yet told, oldest entry first, when the course has a public
 * date to come with spaces. Each entry is claimed (notified_at set where still null) before its e-mail is queued,
 * in the caller's transaction: an entry is told once, however often dates are added. Returns how many were told.
 */
export async function notifyWaitlist(trx: Kysely<Database>, courseId: string, deps: Pick<Deps, 'now' | 'config'>): Promise<number> {
  const now = deps.now();
  const course = await trx.selectFrom('courses as c').innerJoin('educators as e', 'e.id', 'c.educator_id')
    .select(['c.id', 'c.name', 'c.slug', 'e.slug as educator_slug', 'e.name as educator_name']).where('c.id', '=', courseId).executeTakeFirst();
  if (!course) return 0;
  const open = await trx.selectFrom('occurrences').select('id').where('course_id', '=', courseId).where('visibility', '=', 'public')
    .where('start_datetime', '>', now).where((eb) => eb.or([eb('available_spaces', 'is', null), eb('available_spaces', '>', 0)])).executeTakeFirst();
  if (!open) return 0;
  const entries = await trx.selectFrom('enquiries').select(['id', 'first_name', 'email'])
    .where('course_id', '=', courseId).where('type', '=', 'waitlist').where('notified_at', 'is', null)
    .orderBy('created_at').orderBy('id').execute();
  const courseUrl = coursePageUrl('marketplace', deps.config.PUBLIC_HOST, course.educator_slug, course.slug, deps.config.PUBLIC_PROTOCOL);
  let told = 0;
  for (const entry of entries) {
    const claimed = await trx.updateTable('enquiries').set({ notified_at: now }).where('id', '=', entry.id).where('notified_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows ?? 0) !== 1) continue;
    const mail = waitlistEmail({ educatorName: course.educator_name, firstName: entry.first_name, courseName: course.name, courseUrl });
    await queueMail(trx, { to: entry.email, subject: mail.subject, text: mail.text, tag: 'waitlist-available' }, { now });
    told++;
  }
  return told;
}

/** How a date stood before a change that may have freed spaces on it. */
export interface DateBefore { visibility: string; available_spaces: number | null }

/**
 * Spaces may have freed up on a date (a booking cancelled by the educator or the learner gave its spaces back, an
 * admin raised the date's spaces or made it public): when the date is now open to learners — public, still to come,
 * with spaces — and has more room than before, the course's waitlist is told (notifyWaitlist: once each, in order),
 * in the caller's transaction. A hold that lapses at Payment is deliberately not a reason: holds last minutes and
 * the learner usually comes back to pay, and an entry is told only once, so it would be spent on spaces that are
 * gone again by the time the e-mail is read. Returns how many were told.
 */
export async function notifyWaitlistOfDate(trx: Kysely<Database>, occurrenceId: string, before: DateBefore, deps: Pick<Deps, 'now' | 'config'>): Promise<number> {
  const occ = await trx.selectFrom('occurrences').select(['course_id', 'visibility', 'start_datetime', 'available_spaces']).where('id', '=', occurrenceId).executeTakeFirst();
  if (!occ || occ.visibility !== 'public' || Number(occ.start_datetime) <= deps.now()) return 0;
  const room = (v: number | null) => (v === null ? Infinity : Number(v));
  if (room(occ.available_spaces) <= 0) return 0;
  const wasOpen = before.visibility === 'public' && room(before.available_spaces) > 0;
  if (wasOpen && room(occ.available_spaces) <= room(before.available_spaces)) return 0;
  return notifyWaitlist(trx, occ.course_id, deps);
}

export function inboxAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/inbox', async (c) => {
    const q = parseQuery(c, inboxQuerySchema);
    return c.json(await listInbox(c.var.deps.db, adminEducatorId(c), q));
  });

  app.get('/inbox/:enquiryId', async (c) => {
    const { db, now } = c.var.deps;
    const row = await ownedEnquiry(c, db);
    if (row.read_at === null) await db.updateTable('enquiries').set({ read_at: now() }).where('id', '=', row.id).where('read_at', 'is', null).execute();
    const replies = await db.selectFrom('enquiry_replies').select(['id', 'message', 'created_at', 'user_id']).where('enquiry_id', '=', row.id).orderBy('created_at').orderBy('id').execute();
    return c.json({
      id: row.id, type: row.type, createdAt: Number(row.created_at), firstName: row.first_name, lastName: row.last_name, email: row.email, phone: row.phone,
      message: row.message, enquiryType: row.enquiry_type, courseName: row.course_name, context: row.context,
      readAt: row.read_at === null ? now() : Number(row.read_at), doneAt: row.done_at === null ? null : Number(row.done_at), notifiedAt: row.notified_at === null ? null : Number(row.notified_at),
      replies: replies.map((r) => ({ id: r.id, message: r.message, createdAt: Number(r.created_at) })),
    });
  });

  app.post('/inbox/:enquiryId/reply', async (c) => {
    const { message } = await parseJson(c, replySchema);
    const { db, now: clock } = c.var.deps;
    const now = clock();
    const reply = await db.transaction().execute(async (trx) => {
      const row = await ownedEnquiry(c, trx);
      const educator = await trx.selectFrom('educators').select(['name']).where('id', '=', row.educator_id).executeTakeFirstOrThrow();
      const mail = replyEmail({ educatorName: educator.name, firstName: row.first_name, courseName: row.course_name, message, original: row.message });
      const outboxId = await queueMail(trx, { to: row.email, subject: mail.subject, text: mail.text, replyTo: c.var.user?.email, tag: 'enquiry-reply' }, { now });
      const id = newId('rpl');
      await trx.insertInto('enquiry_replies').values({ id, enquiry_id: row.id, educator_id: row.educator_id, user_id: c.var.user?.id ?? null, message, outbox_id: outboxId, created_at: now }).execute();
      if (row.read_at === null) await trx.updateTable('enquiries').set({ read_at: now }).where('id', '=', row.id).execute();
      await audit(trx, c, { entity: 'enquiry', entityId: row.id, action: 'reply', changes: { reply: [null, message] } });
      return { id, enquiryId: row.id, message, createdAt: now };
    });
    return c.json(reply, 201);
  });

  app.put('/inbox/:enquiryId/done', async (c) => {
    const { done } = await parseJson(c, doneSchema);
    const now = c.var.deps.now();
    const result = await c.var.deps.db.transaction().execute(async (trx) => {
      const row = await ownedEnquiry(c, trx);
      const doneAt = done ? (row.done_at === null ? now : Number(row.done_at)) : null;
      await trx.updateTable('enquiries').set({ done_at: doneAt, read_at: row.read_at ?? now }).where('id', '=', row.id).execute();
      await audit(trx, c, { entity: 'enquiry', entityId: row.id, action: done ? 'done' : 'reopen', changes: { done: [row.done_at !== null, done] } });
      return { id: row.id, doneAt };
    });
    return c.json(result);
  });

  return app;
}
