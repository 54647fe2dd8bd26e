/**
 * Messages to every learner of a date or of a course at once (docs/admin.md "Messages"), relative to
 * /admin/educators/{educatorId}:
 *
 *   GET  /registers/{occurrenceId}/messages, GET /courses/{courseId}/messages → the messages sent, newest first
 *   POST /registers/{occurrenceId}/messages, POST /courses/{courseId}/messages {subject, message}
 *        → one e-mail per learner (bookings not cancelled; a course's: those of its dates still to come, and its
 *          orders: an on-demand course's learners), queued in
 *          the outbox in the transaction that records the message and which bookings it went to, with its audit entry
 */
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { newId } from '../shared/ids.ts';
import { queueMails, type MailMessage } from '../mail/index.ts';
import { mainSiteOrigin } from '../shared/origins.ts';
import { adminEducatorId } from './access.ts';
import { audit, notYours, pathId, refused, type Trx } from './catalogue-saves.ts';
import { ownedOccurrence } from '../../db/queries/admin-registers.ts';
import { messageOrderRecipientsPage, messageRecipientsPage, sentMessages } from '../../db/queries/admin-messages.ts';
import { learnerMessageEmail, learnerMessageSchema, type LearnerMessageInput } from '../../src/domain/admin/messages.ts';
import { bookingAttendees } from '../../src/domain/admin/registers.ts';
import { formatOccurrenceRange } from '../../src/lib/format.ts';

const PAGE = 500;

interface Target { courseId: string; courseName: string; occurrenceId: string | null }

async function targetOf(c: Context<AppEnv>): Promise<Target> {
  const educatorId = adminEducatorId(c);
  const occurrence = c.req.param('occurrenceId');
  if (occurrence !== undefined) {
    const id = pathId.safeParse(occurrence);
    const row = id.success ? await ownedOccurrence(c.var.deps.db, educatorId, id.data) : undefined;
    if (!row) throw notYours('No date of yours has this id.');
    return { courseId: row.course_id, courseName: row.course_name, occurrenceId: row.id };
  }
  const id = pathId.safeParse(c.req.param('courseId'));
  const row = id.success ? await c.var.deps.db.selectFrom('courses').select(['id', 'name']).where('id', '=', id.data).where('educator_id', '=', educatorId).executeTakeFirst() : undefined;
  if (!row) throw notYours('No course of yours has this id.');
  return { courseId: row.id, courseName: row.name, occurrenceId: null };
}

/** A booking or an order a message goes to: its learner's e-mail and answers, and when its date is, if it has one. */
interface Recipient { id: string; email: string | null; contact: unknown; start: number | null; end: number | null }

interface Sending {
  trx: Trx;
  c: Context<AppEnv>;
  target: Target;
  input: LearnerMessageInput;
  educator: { name: string; email: string | null };
  now: number;
  /** Learner e-mail → the outbox e-mail that carried the message to them (one per learner). */
  seen: Map<string, string>;
}

/**
 * Queues one e-mail for each learner of `rows` not written to yet (by booker e-mail, so a learner with two bookings,
 * or a booking and an order, is written to once), and answers every row the message reached with its e-mail's id.
 */
async function queuePage(s: Sending, rows: Recipient[]): Promise<{ id: string; email: string; outboxId: string }[]> {
  const fresh: { email: string; mail: MailMessage }[] = [];
  const freshEmails = new Set<string>();
  const reached: { id: string; email: string }[] = [];
  for (const r of rows) {
    if (!r.email) continue;
    reached.push({ id: r.id, email: r.email });
    if (s.seen.has(r.email) || freshEmails.has(r.email)) continue;
    freshEmails.add(r.email);
    const when = r.start !== null && r.end !== null ? formatOccurrenceRange(r.start, r.end, 'Europe/London') : null;
    const mail = learnerMessageEmail({
      educatorName: s.educator.name, firstName: bookingAttendees(r.contact, 1)[0]?.firstName ?? '', courseName: s.target.courseName, when,
      subject: s.input.subject, message: s.input.message, bookingId: r.id, bookingUrl: `${mainSiteOrigin(s.c.var.deps.config)}/profile`,
    });
    fresh.push({ email: r.email, mail: { to: r.email, subject: mail.subject, text: mail.text, replyTo: s.educator.email ?? s.c.var.user?.email, tag: 'learner-message' } });
  }
  const ids = await queueMails(s.trx, fresh.map((f) => f.mail), { now: s.now });
  fresh.forEach((f, i) => s.seen.set(f.email, ids[i]!));
  return reached.map((r) => ({ ...r, outboxId: s.seen.get(r.email)! }));
}

/** Every page of a recipient list, `PAGE` rows at a time in id order. */
async function eachPage<R extends { id: string }>(read: (after: string | null) => Promise<R[]>, use: (rows: R[]) => Promise<void>): Promise<void> {
  for (let after: string | null = null; ;) {
    const rows = await read(after);
    await use(rows);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/**
 * Records the message and queues its e-mails, a page at a time, in `trx`: to the bookings of the date, or of the
 * course's dates still to come, and — for a course — to its orders (an on-demand course's learners); every booking and
 * order it reached recorded with the e-mail that carried it. Returns how many e-mails were queued.
 */
async function sendToLearners(trx: Trx, c: Context<AppEnv>, target: Target, input: LearnerMessageInput, messageId: string): Promise<number> {
  const now = c.var.deps.now();
  const educatorId = adminEducatorId(c);
  const educator = await trx.selectFrom('educators').select(['name', 'email']).where('id', '=', educatorId).executeTakeFirstOrThrow();
  const s: Sending = { trx, c, target, input, educator, now, seen: new Map() };
  const dates = target.occurrenceId ? { occurrenceId: target.occurrenceId } : { courseId: target.courseId, now };
  await eachPage((after) => messageRecipientsPage(trx, educatorId, dates, after, PAGE), async (rows) => {
    const reached = await queuePage(s, rows.map((b) => ({
      id: b.id, email: b.learner_email, contact: b.contact_details, start: num(b.occurrence_start ?? b.start_datetime), end: num(b.occurrence_end ?? b.end_datetime),
    })));
    if (reached.length) {
      await trx.insertInto('learner_message_recipients')
        .values(reached.map((r) => ({ message_id: messageId, booking_id: r.id, email: r.email, outbox_id: r.outboxId }))).execute();
    }
  });
  if (!target.occurrenceId) {
    await eachPage((after) => messageOrderRecipientsPage(trx, educatorId, target.courseId, after, PAGE), async (rows) => {
      const reached = await queuePage(s, rows.map((o) => ({ id: o.id, email: o.learner_email, contact: o.contact_details, start: null, end: null })));
      if (reached.length) {
        await trx.insertInto('learner_message_order_recipients')
          .values(reached.map((r) => ({ message_id: messageId, order_id: r.id, email: r.email, outbox_id: r.outboxId }))).execute();
      }
    });
  }
  return s.seen.size;
}

export function messagesAdminRoutes() {
  const app = new Hono<AppEnv>();

  const list = async (c: Context<AppEnv>) => {
    const target = await targetOf(c);
    const messages = await sentMessages(c.var.deps.db, adminEducatorId(c), target.occurrenceId ? { occurrenceId: target.occurrenceId } : { courseId: target.courseId });
    return c.json({ messages });
  };

  const send = async (c: Context<AppEnv>) => {
    const input = await parseJson(c, learnerMessageSchema);
    const target = await targetOf(c);
    const now = c.var.deps.now();
    const result = await c.var.deps.db.transaction().execute(async (trx) => {
      const id = newId('lmsg');
      await trx.insertInto('learner_messages').values({
        id, educator_id: adminEducatorId(c), course_id: target.courseId, occurrence_id: target.occurrenceId, subject: input.subject, message: input.message,
        recipients: 0, created_by: c.var.user?.id ?? null, created_at: now,
      }).execute();
      const sent = await sendToLearners(trx, c, target, input, id);
      if (sent === 0) {
        // Nothing is recorded for nobody: the throw rolls the message back.
        throw refused('Nobody To Message', target.occurrenceId ? 'This date has no bookings to message.' : 'This course has no bookings on dates still to come to message.');
      }
      await trx.updateTable('learner_messages').set({ recipients: sent }).where('id', '=', id).execute();
      await audit(trx, c, {
        entity: target.occurrenceId ? 'occurrence' : 'course', entityId: target.occurrenceId ?? target.courseId, action: 'message',
        changes: { subject: [null, input.subject], message: [null, input.message], recipients: [null, sent] },
      });
      return { id, subject: input.subject, message: input.message, recipients: sent, createdAt: now };
    });
    return c.json(result, 201);
  };

  app.get('/registers/:occurrenceId/messages', list);
  app.post('/registers/:occurrenceId/messages', send);
  app.get('/courses/:courseId/messages', list);
  app.post('/courses/:courseId/messages', send);
  return app;
}
