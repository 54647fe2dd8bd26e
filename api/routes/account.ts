/**
 * User Settings (spec 2.5 "/profile/settings"): the signed-in user's own account, and nobody else's.
 *
 *   GET    /account                    → Account
 *   PATCH  /account                    {firstName?, lastName?}                  → Account
 *   POST   /account/email              {email}          → 202: a confirmation link goes to the new address
 *   POST   /account/email/confirm      {token}          → Account (the address changes only now)
 *   POST   /account/password           {currentPassword?, newPassword}         → 204, other logins end
 *   DELETE /account                    {password? | email?}                    → 204, the account and its data are gone
 *
 * The current password is needed to change the password or delete the account when one is set, except
 * within 30 minutes of logging in by an e-mailed link (which proves the address just as well; this is how a
 * forgotten password is replaced). An account without a password confirms deletion by typing its address.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import type { Db } from '../../db/client.ts';
import { parseJson } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { validateEmail } from '../../src/domain/email.ts';
import { requestSession, requireUser, forgetRequestSession, forgetSessionsOf } from '../auth/middleware.ts';
import { authProblems } from '../auth/problems.ts';
import { hashPassword, verifyPassword } from '../auth/crypto.ts';
import { consumeToken, deleteOtherSessions, issueToken } from '../auth/sessions.ts';
import { accountOf, findUserByEmail, findUserById, normaliseEmail } from '../auth/users.ts';
import { mainSiteOrigin } from '../shared/origins.ts';
import { changeEmailEmail, changeEmailTakenEmail } from '../auth/emails.ts';
import { queueMail } from '../mail/index.ts';
import { clearSessionCookie } from '../http/cookies.ts';
import { clientIp, emailBucket, ipBucket, refundHits, takeHits } from '../http/rate-limit.ts';
import { rebuildReviewAggregates } from '../../db/queries/review-aggregates.ts';
import type { UserRow } from '../../db/schema/accounts.ts';

const FRESH_LINK_SECONDS = 30 * 60;

async function currentUser(c: Context<AppEnv>): Promise<UserRow> {
  const sessionUser = requireUser(c);
  const user = await findUserById(c.var.deps.db, sessionUser.id);
  if (!user) throw new ProblemError(authProblems.unauthenticated());
  return user;
}

/** True when this session logged in by an e-mailed link within the last 30 minutes. */
async function freshFromEmail(c: Context<AppEnv>): Promise<boolean> {
  const session = await requestSession(c);
  return !!session && session.method === 'magic-link' && c.var.deps.now() - session.createdAt <= FRESH_LINK_SECONDS;
}

function wrongPassword(): ProblemError {
  return new ProblemError(problems.validation([{ key: 'currentPassword', name: 'Current password', message: 'is not right' }]));
}

/**
 * Refuses (with `wrong()`) a password that is missing or not the account's. Tries are counted per user as logins are,
 * and a right password gives its try back.
 */
async function requirePassword(c: Context<AppEnv>, now: number, user: { id: string; hash: string }, given: string | null | undefined, wrong: () => ProblemError): Promise<void> {
  const { db, config } = c.var.deps;
  const rules = [{ bucket: `password:user:${user.id}`, limit: config.RATE_LIMIT_LOGIN_PER_EMAIL, windowSeconds: 900 }];
  await takeHits(db, rules, now);
  if (!given || !(await verifyPassword(given, user.hash))) throw wrong();
  await refundHits(db, rules, now);
}

/** Deletes a user and what is theirs: reviews (with their aggregates), saved courses, sessions, tokens, claims, form answers. */
export async function deleteUserAndData(db: Db, user: UserRow): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const reviewed = await trx.selectFrom('reviews').select('educator_id').distinct().where('reviewer_id', '=', user.student_id).execute();
    await trx.deleteFrom('reviews').where('reviewer_id', '=', user.student_id).execute();
    for (const { educator_id } of reviewed) await rebuildReviewAggregates(trx, { educatorId: educator_id });
    await trx.deleteFrom('student_form_responses').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('auth_tokens').where('email', '=', user.email).execute();
    // saved_courses, sessions, auth_tokens (by user), educator_admins and educator_claims go with the user (on delete cascade).
    await trx.deleteFrom('saved_courses').where('student_id', '=', user.student_id).execute();
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
  });
}

export function accountRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/account', showAccount);
  app.patch('/account', renameAccount);
  app.post('/account/email', requestEmailChange);
  app.post('/account/email/confirm', confirmEmailChange);
  app.post('/account/password', changePassword);
  app.delete('/account', deleteAccount);
  return app;
}

/** GET /account. */
async function showAccount(c: Context<AppEnv>) {
  const user = await currentUser(c);
  return c.json(accountOf(user), 200, { 'cache-control': 'no-store' });
}

/** PATCH /account: the user's first and last name. */
async function renameAccount(c: Context<AppEnv>) {
  const user = await currentUser(c);
  const body = await parseJson(c, z.strictObject({
    firstName: z.string().trim().min(1, 'is required').max(100).optional(),
    lastName: z.string().trim().min(1, 'is required').max(100).optional(),
  }));
  const { db } = c.var.deps;
  await db
    .updateTable('users')
    .set({
      first_name: body.firstName ?? user.first_name,
      last_name: body.lastName ?? user.last_name,
      updated_at: c.var.deps.now(),
    })
    .where('id', '=', user.id)
    .execute();
  forgetSessionsOf(c, user.id);
  return c.json(accountOf((await findUserById(db, user.id))!), 200, { 'cache-control': 'no-store' });
}

/** POST /account/email: a confirmation link to the new address (its owner is told if it is taken). */
async function requestEmailChange(c: Context<AppEnv>) {
  const user = await currentUser(c);
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({ email: z.string().max(254) }));
  const message = validateEmail(body.email.trim());
  if (message) throw new ProblemError(problems.invalidEmail(message));
  const email = normaliseEmail(body.email);
  const rules = [
    { bucket: emailBucket('mail', email), limit: config.RATE_LIMIT_MAIL_PER_EMAIL, windowSeconds: 900, shared: true },
    { bucket: ipBucket('mail', clientIp(c)), limit: config.RATE_LIMIT_MAIL_PER_IP, windowSeconds: 900 },
  ];
  await takeHits(db, rules, now);
  if (email !== user.email) {
    // The same answer whether or not the address is taken; its owner is told instead.
    const taken = await findUserByEmail(db, email);
    await db.transaction().execute(async (tx) => {
      if (taken) {
        await queueMail(tx, changeEmailTakenEmail(email), { now });
      } else {
        const token = await issueToken(tx, { purpose: 'change-email', email, userId: user.id, payload: { from: user.email } }, now);
        await queueMail(tx, changeEmailEmail(email, user.first_name || null, `${mainSiteOrigin(config)}/profile/settings?confirm-email=${encodeURIComponent(token)}`), { now });
      }
    });
  }
  return c.json({ status: 'check-email', email }, 202);
}

/** POST /account/email/confirm: the address changes now. */
async function confirmEmailChange(c: Context<AppEnv>) {
  const user = await currentUser(c);
  const { db } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({ token: z.string().min(1).max(200) }));
  const row = await consumeToken(db, body.token, ['change-email'], now, { userId: user.id });
  if (!row || !row.email || row.user_id !== user.id) throw new ProblemError(authProblems.invalidToken());
  if (await findUserByEmail(db, row.email)) throw new ProblemError(authProblems.conflict('E-mail Address Taken', 'Another account uses this e-mail address now.'));
  await db.updateTable('users').set({ email: row.email, email_confirmed: true, updated_at: now }).where('id', '=', user.id).execute();
  forgetSessionsOf(c, user.id);
  return c.json(accountOf((await findUserById(db, user.id))!), 200, { 'cache-control': 'no-store' });
}

/** POST /account/password: other logins end. */
async function changePassword(c: Context<AppEnv>) {
  const user = await currentUser(c);
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({
    currentPassword: z.string().max(200).optional().nullable(),
    newPassword: z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters'),
  }));
  if (user.password_hash && !(await freshFromEmail(c))) {
    await requirePassword(c, now, { id: user.id, hash: user.password_hash }, body.currentPassword, wrongPassword);
  }
  const hash = await hashPassword(body.newPassword, config.SCRYPT_LOG_N);
  await db.updateTable('users').set({ password_hash: hash, updated_at: now }).where('id', '=', user.id).execute();
  // Every other login of this account ends; this one stays.
  const session = await requestSession(c);
  await deleteOtherSessions(db, user.id, session?.familyId ?? null);
  forgetSessionsOf(c, user.id);
  return c.body(null, 204);
}

/** DELETE /account: the account and its data are gone. */
async function deleteAccount(c: Context<AppEnv>) {
  const user = await currentUser(c);
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({ password: z.string().max(200).optional().nullable(), email: z.string().max(254).optional().nullable() }));
  if (!(await freshFromEmail(c))) {
    if (user.password_hash) {
      await requirePassword(c, now, { id: user.id, hash: user.password_hash }, body.password,
        () => new ProblemError(problems.validation([{ key: 'password', name: 'Password', message: 'is not right' }])));
    } else if (!body.email || normaliseEmail(body.email) !== user.email) {
      throw new ProblemError(problems.validation([{ key: 'email', name: 'Email', message: 'must be your e-mail address' }]));
    }
  }
  await deleteUserAndData(db, user);
  forgetSessionsOf(c, user.id);
  clearSessionCookie(c, config);
  forgetRequestSession(c, null);
  return c.body(null, 204);
}
