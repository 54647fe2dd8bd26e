/** The educator's enquiries and waitlist entries as the inbox lists them: newest first, keyset-paged. */
import type { Kysely } from 'kysely';
import type { Database } from '../schema.ts';
import { INBOX_PAGE_SIZE } from '../../src/domain/admin/inbox.ts';
import { parseReviewCursor, reviewCursor } from '../../src/domain/admin/reviews.ts';

export interface InboxItem {
  id: string; type: 'message' | 'waitlist'; createdAt: number; firstName: string; lastName: string; email: string; phone: string;
  message: string | null; enquiryType: string | null; courseName: string | null; context: string;
  readAt: number | null; doneAt: number | null; notifiedAt: number | null; replies: number;
}

const n = (v: number | null) => (v === null ? null : Number(v));

export async function listInbox(db: Kysely<Database>, educatorId: string, q: { type?: 'message' | 'waitlist'; state: 'open' | 'done' | 'all'; before?: string }) {
  let query = db.selectFrom('enquiries as e')
    .select(['e.id', 'e.type', 'e.created_at', 'e.first_name', 'e.last_name', 'e.email', 'e.phone', 'e.message', 'e.enquiry_type', 'e.course_name', 'e.context', 'e.read_at', 'e.done_at', 'e.notified_at'])
    .select((eb) => eb.selectFrom('enquiry_replies as r').select((e) => e.fn.countAll<number>().as('n')).whereRef('r.enquiry_id', '=', 'e.id').as('replies'))
    .where('e.educator_id', '=', educatorId);
  if (q.type) query = query.where('e.type', '=', q.type);
  if (q.state === 'open') query = query.where('e.done_at', 'is', null);
  if (q.state === 'done') query = query.where('e.done_at', 'is not', null);
  if (q.before) {
    const { createdAt, id } = parseReviewCursor(q.before);
    query = query.where((eb) => eb.or([eb('e.created_at', '<', createdAt), eb.and([eb('e.created_at', '=', createdAt), eb('e.id', '<', id)])]));
  }
  const rows = await query.orderBy('e.created_at', 'desc').orderBy('e.id', 'desc').limit(INBOX_PAGE_SIZE + 1).execute();
  const page = rows.slice(0, INBOX_PAGE_SIZE);
  const last = page[page.length - 1];
  const items: InboxItem[] = page.map((r) => ({
    id: r.id, type: r.type, createdAt: Number(r.created_at), firstName: r.first_name, lastName: r.last_name, email: r.email, phone: r.phone,
    message: r.message, enquiryType: r.enquiry_type, courseName: r.course_name, context: r.context,
    readAt: n(r.read_at), doneAt: n(r.done_at), notifiedAt: n(r.notified_at), replies: Number(r.replies ?? 0),
  }));
  return { items, next: rows.length > INBOX_PAGE_SIZE && last ? reviewCursor(Number(last.created_at), last.id) : null };
}
