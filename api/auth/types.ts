/** The signed-in user as the API sees it (set on every request by the auth middleware, or null). */
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
