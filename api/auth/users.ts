/** Users: lookup, creation, and the SessionUser the rest of the API sees. */
import type { Db } from '../../db/client.ts';
import type { UserRow } from '../../db/schema/accounts.ts';
import type { SessionUser } from '../../src/domain/session-user.ts';
import { newId } from '../shared/ids.ts';

/** E-mail addresses are compared and stored trimmed and in lower case. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', normaliseEmail(email)).executeTakeFirst();
}

export async function findUserById(db: Db, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface NewUserInput {
  email: string;
  firstName?: string;
  lastName?: string;
  passwordHash?: string | null;
  emailConfirmed?: boolean;
}

/**
 * Creates a user, or returns the existing one when the address is already taken
 * (two confirmations of the same address racing each other end with one account).
 */
export async function createUser(db: Db, input: NewUserInput, now: number): Promise<{ user: UserRow; created: boolean }> {
  const email = normaliseEmail(input.email);
  const id = newId('usr');
  const inserted = await db
    .insertInto('users')
    .values({
      id,
      student_id: newId('stu'),
      email,
      email_confirmed: input.emailConfirmed ?? false,
      first_name: (input.firstName ?? '').trim(),
      last_name: (input.lastName ?? '').trim(),
      avatar_url: null,
      password_hash: input.passwordHash ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .executeTakeFirst();
  const user = await findUserByEmail(db, email);
  if (!user) throw new Error('user insert failed');
  return { user, created: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 && user.id === id };
}

export async function educatorIdsOf(db: Db, userId: string): Promise<string[]> {
  const rows = await db.selectFrom('educator_admins').select('educator_id').where('user_id', '=', userId).orderBy('created_at').execute();
  return rows.map((r) => r.educator_id);
}

/** Who a user is, as both the session and the account settings say it. */
function identityOf(user: UserRow) {
  return {
    id: user.id,
    studentId: user.student_id,
    email: user.email,
    emailConfirmed: Boolean(user.email_confirmed),
    firstName: user.first_name,
    lastName: user.last_name,
  };
}

export function toSessionUser(user: UserRow, educatorIds: string[]): SessionUser {
  return { ...identityOf(user), avatarUrl: user.avatar_url, educatorIds };
}

/** The account settings' view of a user (GET /api/account, the account settings page). */
export interface Account extends Omit<SessionUser, 'avatarUrl' | 'educatorIds'> {
  avatar: { url: string | null };
  hasPassword: boolean;
  createdAt: number;
}

export function accountOf(user: UserRow): Account {
  return { ...identityOf(user), avatar: { url: user.avatar_url }, hasPassword: Boolean(user.password_hash), createdAt: Number(user.created_at) };
}
