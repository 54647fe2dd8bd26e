/**
 * Tables of the accounts area (migration 0003): users, sessions, one-time tokens (magic links,
 * session hand-off, embed codes, e-mail changes), rate limits, saved courses, educator admins,
 * claim requests and the mail outbox. Times are epoch seconds.
 * Secrets (session tokens, one-time tokens) are never stored: only their SHA-256 hashes.
 */
import type { Selectable } from 'kysely';
import type { WithDefault } from './columns.ts';

export interface UsersTable {
  /** The spec's `id` / `userId`. */
  id: string;
  /** The spec's `studentId`: the learner id used by reviews (reviewer_id), saved courses and bookings. */
  student_id: string;
  /** Lower-cased, trimmed; unique. */
  email: string;
  email_confirmed: WithDefault<boolean>;
  first_name: WithDefault<string>;
  last_name: WithDefault<string>;
  avatar_url: string | null;
  /** 'scrypt$<log2 N>$<r>$<p>$<salt b64url>$<hash b64url>', or null for magic-link-only accounts. */
  password_hash: string | null;
  created_at: number;
  updated_at: number;
}

export type SessionKind = 'cookie' | 'bearer';
export type AuthMethod = 'password' | 'magic-link' | 'handoff' | 'embed';

export interface SessionsTable {
  /** SHA-256 (hex) of the secret token the browser holds. */
  token_hash: string;
  user_id: string;
  /** cookie: a browser cookie on one host (or the parent domain); bearer: an embed's token. */
  kind: SessionKind;
  /** One login = one family: hand-off and embed sessions join the family of the session they came from, and log out together. */
  family_id: string;
  auth_method: AuthMethod;
  created_at: number;
  expires_at: number;
}

export type TokenPurpose = 'magic-link' | 'signup' | 'handoff' | 'embed-code' | 'change-email';

export interface AuthTokensTable {
  /** SHA-256 (hex) of the one-time token. */
  token_hash: string;
  purpose: TokenPurpose;
  /** The address a magic link / sign-up / e-mail change was sent to (lower case). */
  email: string | null;
  user_id: string | null;
  /** hand-off / embed-code: the session family the new session joins. */
  family_id: string | null;
  /** hand-off: SHA-256 of the state cookie of the browser that asked (binds the token to that browser). */
  state_hash: string | null;
  /** Purpose-specific data: sign-up names and password hash, redirect, new e-mail… */
  payload: Record<string, unknown>;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface RateLimitsTable {
  /** e.g. 'login:ip:127.0.0.1', 'mail:email:<sha256>'. */
  bucket: string;
  /** Start of the fixed window (epoch seconds). */
  window_start: number;
  hits: number;
}

export interface SavedCoursesTable {
  student_id: string;
  course_id: string;
  created_at: number;
}

export interface EducatorAdminsTable {
  user_id: string;
  educator_id: string;
  created_at: number;
}

export type ClaimStatus = 'pending' | 'approved' | 'rejected';

export interface EducatorClaimsTable {
  id: string;
  educator_id: string;
  user_id: string;
  /** What the claimant wrote about their relation to the business. */
  message: WithDefault<string>;
  phone: string | null;
  status: WithDefault<ClaimStatus>;
  created_at: number;
}

/** What happened to an outbox message: waiting (or retrying), handed to the transport, or given up on. */
export type OutboxStatus = 'pending' | 'sent' | 'dead';

/**
 * Every e-mail the product sends: queued in the transaction of what caused it (api/mail/index.ts queueMail),
 * sent by the outbox worker (api/mail/worker.ts).
 */
export interface OutboxMessagesTable {
  id: string;
  to_address: string;
  from_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  /** What the message is for (magic-link, signup, booking-confirmation…), for tests and operators. */
  tag: string | null;
  /** The .eml file written under OUTBOX_DIR, when one was written. */
  eml_file: string | null;
  created_at: number;
  status: WithDefault<OutboxStatus>;
  /** Delivery attempts made so far. */
  attempts: WithDefault<number>;
  /** Not sent before this time (epoch seconds): a scheduled message. */
  send_after: WithDefault<number>;
  /** When the worker may next try (send_after at first, then each retry's backoff). */
  next_attempt_at: WithDefault<number>;
  /** The worker process sending it, until lease_until: no other worker takes it meanwhile. */
  lease_owner: string | null;
  lease_until: number | null;
  last_error: string | null;
  sent_at: number | null;
  reply_to: string | null;
  /** JSON: [{ filename, contentType, base64 }]. */
  attachments: string | null;
}

export interface AccountTables {
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  rate_limits: RateLimitsTable;
  saved_courses: SavedCoursesTable;
  educator_admins: EducatorAdminsTable;
  educator_claims: EducatorClaimsTable;
  outbox_messages: OutboxMessagesTable;
}

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type AuthTokenRow = Selectable<AuthTokensTable>;
export type OutboxMessageRow = Selectable<OutboxMessagesTable>;
