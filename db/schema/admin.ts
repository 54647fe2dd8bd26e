/** Tables of the educator admin (migration 0230). */

export interface AuditLogTable {
  id: string;
  educator_id: string;
  /** The admin who made the change (null: the system, e.g. a scheduled job). */
  user_id: string | null;
  /** 'educator', 'course', 'occurrence', 'form', 'offer'… */
  entity: string;
  entity_id: string;
  /** 'create', 'update', 'delete', 'publish', 'unpublish', 'cancel'… */
  action: string;
  /** The entity's revision after the change, for entities that have one. */
  revision: number | null;
  /** Each changed field's value before and after. */
  changes: Record<string, [unknown, unknown]>;
  created_at: number;
}

/** A slug an educator has left: its old URLs redirect to the current ones (migration 0240). */
export interface EducatorOldSlugsTable {
  slug: string;
  educator_id: string;
  created_at: number;
}

export interface AdminTables {
  audit_log: AuditLogTable;
  educator_old_slugs: EducatorOldSlugsTable;
  review_reports: ReviewReportsTable;
  attendance: AttendanceTable;
  enquiry_replies: EnquiryRepliesTable;
  learner_messages: LearnerMessagesTable;
  learner_message_recipients: LearnerMessageRecipientsTable;
  learner_message_order_recipients: LearnerMessageOrderRecipientsTable;
}

/** An educator's report of an abusive review, for the platform team (migration 0280). */
export interface ReviewReportsTable {
  id: string;
  review_id: string;
  educator_id: string;
  user_id: string | null;
  reason: string;
  created_at: number;
  resolved_at: number | null;
}

/** The register of a date: one row per marked attendee of a booking (migration 0280). */
export interface AttendanceTable {
  booking_id: string;
  /** The attendee's place in the booking (0: the first), as the register lists them. */
  attendee: number;
  educator_id: string;
  occurrence_id: string;
  status: 'attended' | 'no-show';
  marked_at: number;
  marked_by: string | null;
}

/** An educator's reply to an enquiry, e-mailed through the outbox (migration 0280). */
export interface EnquiryRepliesTable {
  id: string;
  enquiry_id: string;
  educator_id: string;
  user_id: string | null;
  message: string;
  outbox_id: string;
  created_at: number;
}

/** A message the educator sent to every learner of a date (occurrence_id) or of a course at once (migration 0290). */
export interface LearnerMessagesTable {
  id: string;
  educator_id: string;
  course_id: string;
  occurrence_id: string | null;
  subject: string;
  message: string;
  /** How many e-mails it went out as (one per learner). */
  recipients: number;
  created_by: string | null;
  created_at: number;
}

/** A booking a learner message went to, and the outbox e-mail that carried it. */
export interface LearnerMessageRecipientsTable {
  message_id: string;
  booking_id: string;
  email: string;
  outbox_id: string;
}

/** An order (an on-demand course's purchase) a course's message went to, and the outbox e-mail that carried it. */
export interface LearnerMessageOrderRecipientsTable {
  message_id: string;
  order_id: string;
  email: string;
  outbox_id: string;
}
