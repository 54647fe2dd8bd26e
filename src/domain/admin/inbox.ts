/**
 * The educator's inbox (docs/admin.md "Inbox"): enquiries and waitlist entries (spec 2.9, 2.10), the reply an
 * admin e-mails, and the e-mail a waitlisted learner gets once when dates or spaces become available. Pure.
 */
import { z } from '../zod.ts';
import { text } from './catalogue-input.ts';

export const INBOX_PAGE_SIZE = 30;
export const REPLY_MAX = 5000;

export const inboxQuerySchema = z.object({
  type: z.enum(['message', 'waitlist'], { error: 'must be message or waitlist' }).optional(),
  state: z.enum(['open', 'done', 'all'], { error: 'must be open, done or all' }).default('open'),
  before: z.string().max(120).regex(/^\d{1,12}\.[A-Za-z0-9_-]{1,64}$/, 'is not a cursor').optional(),
});
export const replySchema = z.object({ message: text(REPLY_MAX) });
export const doneSchema = z.object({ done: z.boolean({ error: 'must be true or false' }) });

export function replyEmail(input: { educatorName: string; firstName: string; courseName: string | null; message: string; original: string | null }) {
  const about = input.courseName ? ` about ${input.courseName}` : '';
  const quoted = input.original ? `\n\n--- Your enquiry ---\n${input.original.split('\n').map((l) => `> ${l}`).join('\n')}` : '';
  return {
    subject: `Re: your enquiry to ${input.educatorName}${about}`,
    text: `Hi ${input.firstName},\n\n${input.message}\n\n${input.educatorName}${quoted}\n`,
  };
}

export function waitlistEmail(input: { educatorName: string; firstName: string; courseName: string; courseUrl: string }) {
  return {
    subject: `New dates for ${input.courseName}`,
    text: `Hi ${input.firstName},\n\nYou joined the waitlist for ${input.courseName} with ${input.educatorName}. New dates or spaces are now available:\n\n${input.courseUrl}\n\nSpaces are booked first come, first served.\n`,
  };
}
