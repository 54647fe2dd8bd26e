/**
 * A message to every learner of a date or of a course at once (docs/admin.md "Messages"): a room change, a
 * reminder. Pure: the input's rules and the e-mail each learner gets.
 */
import { z } from '../zod.ts';
import { text } from './catalogue-input.ts';

export const MESSAGE_SUBJECT_MAX = 150;
export const MESSAGE_MAX = 5000;

export const learnerMessageSchema = z.object({
  subject: text(MESSAGE_SUBJECT_MAX).refine((s) => !/[\r\n]/.test(s), 'must be one line'),
  message: text(MESSAGE_MAX),
});
export type LearnerMessageInput = z.infer<typeof learnerMessageSchema>;

/**
 * The e-mail one learner gets. Its subject ends with the booking's reference in brackets, as every e-mail about a
 * booking does, which is how the booking's page lists it among the e-mails sent.
 */
export function learnerMessageEmail(input: { educatorName: string; firstName: string; courseName: string; when: string | null; subject: string; message: string; bookingId: string; bookingUrl: string }) {
  const about = input.when ? `${input.courseName}, ${input.when} (UK time)` : input.courseName;
  return {
    subject: `${input.subject} (${input.bookingId})`,
    text: `Hi ${input.firstName || 'there'},\n\n${input.message}\n\n${input.educatorName}\n\n---\nYou are getting this because you booked ${about} with ${input.educatorName}.\nYour booking: ${input.bookingUrl}\n`,
  };
}
