/**
 * The register of a date (docs/admin.md "Registers"): who attends, from each booking's contact details (spec 3
 * "Checkout state": the booker, when attending, then each attendee's form response), and CSV rows for the
 * exports. Pure: no I/O.
 */
import { z } from '../zod.ts';

export type AttendanceStatus = 'attended' | 'no-show';

export const attendanceInputSchema = z.object({
  bookingId: z.string({ error: 'is required' }).min(1, 'is required').max(64, 'must be at most 64 characters'),
  attendee: z.number({ error: 'must be a number' }).int('must be a whole number').min(0, 'must be at least 0').max(999, 'must be at most 999'),
  /** null clears the mark. */
  status: z.enum(['attended', 'no-show'], { error: 'must be attended or no-show' }).nullable(),
});

export interface RegisterAttendee {
  /** The attendee's place in the booking (0: the first listed). */
  attendee: number;
  firstName: string;
  lastName: string;
  email: string;
  /** The booker (who may also attend) or a guest. */
  role: 'booker' | 'guest';
  /** The form answers other than the name and e-mail, as field id → answer text. */
  answers: Record<string, string>;
}

const NAME_FIELDS = new Set(['system_first_name', 'system_last_name', 'system_email']);

function answerText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(answerText).filter(Boolean).join(', ');
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).map(answerText).filter(Boolean).join(', ');
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  return String(v);
}

function attendeeOf(response: Record<string, unknown>, attendee: number, role: RegisterAttendee['role']): RegisterAttendee {
  const answers: Record<string, string> = {};
  for (const [key, value] of Object.entries(response)) if (!NAME_FIELDS.has(key)) answers[key] = answerText(value);
  return {
    attendee, role,
    firstName: answerText(response.system_first_name), lastName: answerText(response.system_last_name), email: answerText(response.system_email),
    answers,
  };
}

const asRecord = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/**
 * The people a booking brings: the booker when attending (or when the course captures no guests), then each
 * attendee; a booking for more spaces than names given lists the rest as the booker's unnamed guests.
 */
export function bookingAttendees(contactDetails: unknown, spaces: number): RegisterAttendee[] {
  const cd = asRecord(contactDetails);
  const booker = asRecord(cd.booker);
  const bookerResponse = asRecord(booker.formResponse);
  const out: RegisterAttendee[] = [];
  if (booker.isAttending !== false) out.push(attendeeOf(bookerResponse, 0, 'booker'));
  const guests = Array.isArray(cd.attendees) ? cd.attendees : [];
  for (const g of guests) out.push(attendeeOf(asRecord(asRecord(g).formResponse), out.length, 'guest'));
  const named = out.length;
  for (let i = named; i < Math.max(1, spaces); i++) {
    out.push({ ...attendeeOf({}, i, 'guest'), firstName: 'Guest of', lastName: [answerText(bookerResponse.system_first_name), answerText(bookerResponse.system_last_name)].filter(Boolean).join(' ') });
  }
  return out;
}

/** One CSV field: quoted when needed, and never read as a formula by a spreadsheet (=, +, -, @, tab, CR). */
export function csvField(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** One CSV line (CRLF, RFC 4180). */
export function csvLine(values: readonly unknown[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/** The answers of a form as one column: "field: answer; field: answer". */
export function answersText(answers: Record<string, string>): string {
  return Object.entries(answers).filter(([, v]) => v !== '').map(([k, v]) => `${k}: ${v}`).join('; ');
}

export const ATTENDEE_CSV_HEADER = ['Booking', 'Attendee', 'First name', 'Last name', 'Email', 'Role', 'Booking status', 'Attendance', 'Answers'] as const;
