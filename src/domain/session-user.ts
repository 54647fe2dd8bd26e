/**
 * The signed-in user as the server sees it: set on every request by the auth middleware (api/auth/middleware.ts),
 * or null, and handed to on-demand pages in Astro.locals (src/lib/page-locals.ts). A type only: pages and the API
 * both read it, so it lives below both.
 */
export interface SessionUser {
  /** The user id (the spec's `id` / `userId`). */
  id: string;
  /** The learner id used for reviews, bookings and saved courses (the spec's `studentId`). */
  studentId: string;
  email: string;
  emailConfirmed: boolean;
  firstName: string;
  lastName: string;
  avatarUrl: string | null;
  /** Ids of the educators this user administers. */
  educatorIds: string[];
}
