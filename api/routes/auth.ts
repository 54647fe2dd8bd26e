/**
 * Sign-up, log-in and log-out, under /api/auth:
 *
 * (GET /identity lives in api/routes/identity.ts.)
 *
 *   POST /auth/signup               {email, password, firstName, lastName, redirect?}  → 202 {status:'check-email'}
 *   POST /auth/magic-link           {email, firstName?, lastName?, redirect?}         → 202 {status:'check-email'}
 *   POST /auth/magic-link/verify    {token}                → 200 {identity, redirect} + session cookie
 *   POST /auth/login                {email, password}      → 200 {identity} + session cookie | 401 invalid-credentials
 *   POST /auth/logout                                      → 204, ends the whole login (every host, every embed)
 *   GET  /auth/handoff/start?return=   (minisite host)     → 302 to the main host (hand-off mode only)
 *   GET  /auth/handoff?return=&state=  (main host)         → 302 back with a one-time token
 *   GET  /auth/handoff/accept?token=&return= (minisite)    → session cookie for the minisite, 302 to return
 *   POST /auth/embed/code              (main host, signed in) → {code}: a one-time code for an embed
 *   POST /auth/embed/exchange       {code}                 → {token, expiresAt, identity}: the embed's bearer token
 *
 * No answer tells whether an address has an account: sign-up and magic-link requests always answer 202 and
 * send either a confirmation or a log-in e-mail; a failed login has one message for both causes and costs
 * the same scrypt time. Sign-up creates the account only when the e-mailed link is used, so nobody can
 * pre-register someone else's address with their own password.
 *
 * The password typed at sign-up is chosen by whoever controls the inbox: it is applied only when the link is
 * followed in the browser that typed it (a nonce cookie set by POST /auth/signup, whose hash the link's token
 * carries). Followed anywhere else (the owner of an address someone else signed up), the link confirms the
 * address and logs in without a password (`passwordApplied: false, setPassword: true`): the login page then
 * takes the owner to their settings to choose one.
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson, parseQuery } from '../http/parse.ts';
import { problemResponse, toProblem } from '../http/errors.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { validateEmail } from '../../src/domain/email.ts';
import { authProblems } from '../auth/problems.ts';
import { hashPassword, verifyDummyPassword, verifyPassword } from '../auth/crypto.ts';
import { newSecret, sha256 } from '../shared/ids.ts';
import { TOKEN_TTL, createSession, consumeToken, deleteSessionFamily, issueToken } from '../auth/sessions.ts';
import { createUser, educatorIdsOf, findUserByEmail, findUserById, normaliseEmail, toSessionUser } from '../auth/users.ts';
import { forgetRequestSession, forgetSessionsOf, requestSession, requireUser } from '../auth/middleware.ts';
import { identityOf } from '../auth/identity.ts';
import { adminOrigin, mainSiteOrigin, minisiteSiteOrigin, originOf, ownSiteOf } from '../shared/origins.ts';
import { usesHandoff } from '../auth/site.ts';
import { accountExistsEmail, magicLinkEmail, signupEmail } from '../auth/emails.ts';
import { queueMail } from '../mail/index.ts';
import {
  clearHandoffStateCookie,
  clearSessionCookie,
  clearSignupNonceCookie,
  readHandoffStateCookie,
  readSignupNonceCookie,
  setHandoffStateCookie,
  setSessionCookie,
  setSignupNonceCookie,
} from '../http/cookies.ts';
import { clientIp, emailBucket, emailIpBucket, ipBucket, refundHits, takeHits, type RateRule } from '../http/rate-limit.ts';
import type { Config } from '../config.ts';
import type { AuthMethod, UserRow } from '../../db/schema/accounts.ts';
import type { MailMessage } from '../mail/index.ts';
import { loggerFor } from '../log.ts';

const WINDOW = 15 * 60;
const EMBED_SESSION_SECONDS = 24 * 60 * 60;

const emailField = z.string().max(254);
const nameField = z.string().trim().max(100);
const passwordField = z.string().min(8, 'must be at least 8 characters').max(200, 'must be at most 200 characters');
const redirectField = z.string().max(2000).optional().nullable();

function assertValidEmail(email: string): string {
  const message = validateEmail(email.trim());
  if (message) throw new ProblemError(problems.invalidEmail(message));
  return normaliseEmail(email);
}

/** A redirect kept with a link: only to one of our own sites, never the bare site root (spec 5). */
export function keepRedirect(value: string | null | undefined, config: Config): string | null {
  if (!value || !ownSiteOf(value, config)) return null;
  const url = new URL(value);
  if (url.pathname === '/' && url.search === '') return null;
  return url.toString();
}

function mailRules(c: Context<AppEnv>, email: string): RateRule[] {
  const config = c.var.deps.config;
  return [
    { bucket: emailBucket('mail', email), limit: config.RATE_LIMIT_MAIL_PER_EMAIL, windowSeconds: WINDOW, shared: true },
    { bucket: ipBucket('mail', clientIp(c)), limit: config.RATE_LIMIT_MAIL_PER_IP, windowSeconds: WINDOW },
  ];
}

/**
 * Failed logins: per address from this client (the limit that stops a guesser), per client, and per
 * address from everywhere (a looser ceiling, counted only for attempts this client may make). Once others have
 * spent that ceiling, a clean client's password is still checked, so someone else's failures never lock the owner
 * out (api/http/rate-limit.ts).
 */
function loginRules(c: Context<AppEnv>, email: string): RateRule[] {
  const config = c.var.deps.config;
  const ip = clientIp(c);
  return [
    { bucket: emailIpBucket('login', email, ip), limit: config.RATE_LIMIT_LOGIN_PER_EMAIL, windowSeconds: WINDOW },
    { bucket: ipBucket('login', ip), limit: config.RATE_LIMIT_LOGIN_PER_IP, windowSeconds: WINDOW },
    { bucket: emailBucket('login', email), limit: config.RATE_LIMIT_LOGIN_PER_EMAIL_ALL_IPS, windowSeconds: WINDOW, shared: true, openToCleanClients: true },
  ];
}

/** The /login page that completes an e-mailed link (it asks for a click, so mail scanners cannot use the link). */
function linkUrl(config: Config, token: string): string {
  return `${mainSiteOrigin(config)}/login?token=${encodeURIComponent(token)}`;
}

/** Starts a login on this host: a session, its cookie, and this request now counts as signed in. */
async function startCookieSession(c: Context<AppEnv>, userId: string, method: AuthMethod, familyId?: string) {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  // A new login replaces whatever session this browser had on this host.
  const previous = await requestSession(c);
  if (previous && previous.kind === 'cookie' && previous.familyId !== familyId) {
    await deleteSessionFamily(db, previous.familyId);
    forgetSessionsOf(c, previous.user.id);
  }
  const ttl = config.SESSION_TTL_DAYS * 86_400;
  const issued = await createSession(db, { userId, kind: 'cookie', method, familyId, ttlSeconds: ttl }, now);
  setSessionCookie(c, config, issued.token, ttl);
  const user = await findUserById(db, userId);
  if (!user) throw new ProblemError(authProblems.unauthenticated());
  const sessionUser = toSessionUser(user, await educatorIdsOf(db, user.id));
  forgetRequestSession(c, {
    user: sessionUser, tokenHash: sha256(issued.token), familyId: issued.familyId, kind: 'cookie', method,
    createdAt: now, expiresAt: issued.expiresAt,
  });
  return sessionUser;
}

/** Same answers as the app's error handler, plus Retry-After on 429. */
function authErrors(err: Error, c: Context<AppEnv>): Response {
  const problem = toProblem(err);
  if (problem.status >= 500) loggerFor(c.var.deps.config).error('request failed', { requestId: c.var.requestId, path: c.req.path, error: err });
  const res = problemResponse(c, problem, c.var.deps.config.ERRORS_HOST);
  if (problem.status === 429 && typeof problem.retryAfter === 'number') res.headers.set('retry-after', String(problem.retryAfter));
  return res;
}

/** What a sign-up link carries until it is followed (the account is created only then). */
interface SignupPayload {
  firstName: string;
  lastName: string;
  passwordHash: string | null;
  passwordNonceHash?: string;
}

/**
 * The e-mailed link of a sign-up or magic-link request, queued with its token in one transaction (the outbox
 * worker sends it; the request never waits for SMTP): a log-in link for an address that has an account, in the
 * words `existingEmail` gives, else a sign-up link carrying `signup`. Either way the request answers the same.
 */
async function queueLinkEmail(c: Context<AppEnv>, now: number, input: {
  email: string;
  existing: UserRow | undefined;
  redirect: string | null;
  existingEmail: (to: string, firstName: string | null, url: string) => MailMessage;
  signup: SignupPayload;
  signupName: string | null;
}): Promise<void> {
  const { db, config } = c.var.deps;
  const { email, existing, redirect } = input;
  await db.transaction().execute(async (tx) => {
    if (existing) {
      const token = await issueToken(tx, { purpose: 'magic-link', email, userId: existing.id, payload: { redirect } }, now);
      await queueMail(tx, input.existingEmail(email, existing.first_name || null, linkUrl(config, token)), { now });
    } else {
      const token = await issueToken(tx, { purpose: 'signup', email, payload: { ...input.signup, redirect } }, now);
      await queueMail(tx, signupEmail(email, input.signupName, linkUrl(config, token)), { now });
    }
  });
}

/** POST /auth/signup */
async function signup(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({
    email: emailField,
    password: passwordField,
    firstName: nameField.min(1, 'is required'),
    lastName: nameField.min(1, 'is required'),
    redirect: redirectField,
  }));
  const email = assertValidEmail(body.email);
  await takeHits(db, mailRules(c, email), now);
  // Hash in every case, so both answers take the same time.
  const passwordHash = await hashPassword(body.password, config.SCRYPT_LOG_N);
  const redirect = keepRedirect(body.redirect, config);
  const existing = await findUserByEmail(db, email);
  // One nonce per browser (kept if it already has one, so each of its sign-up links works). Set whether or
  // not the address has an account, so the answer does not tell.
  const current = readSignupNonceCookie(c);
  const nonce = current && /^[A-Za-z0-9_-]{43}$/.test(current) ? current : newSecret();
  await queueLinkEmail(c, now, {
    email, existing, redirect, existingEmail: accountExistsEmail, signupName: body.firstName,
    signup: { firstName: body.firstName, lastName: body.lastName, passwordHash, passwordNonceHash: sha256(nonce) },
  });
  setSignupNonceCookie(c, config, nonce, TOKEN_TTL.signup);
  return c.json({ status: 'check-email', email }, 202);
}

/** POST /auth/magic-link */
async function magicLink(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({
    email: emailField,
    firstName: nameField.optional(),
    lastName: nameField.optional(),
    redirect: redirectField,
  }));
  const email = assertValidEmail(body.email);
  await takeHits(db, mailRules(c, email), now);
  const redirect = keepRedirect(body.redirect, config);
  const existing = await findUserByEmail(db, email);
  await queueLinkEmail(c, now, {
    email, existing, redirect, existingEmail: magicLinkEmail, signupName: body.firstName || null,
    signup: { firstName: body.firstName ?? '', lastName: body.lastName ?? '', passwordHash: null },
  });
  return c.json({ status: 'check-email', email }, 202);
}

/**
 * A followed sign-up link creates the account (with the typed password only in the browser that typed it: see the
 * header of this file); returns the user and what the login page is to say about the password.
 */
async function acceptSignupLink(c: Context<AppEnv>, now: number, email: string, payload: SignupPayload) {
  const { db, config } = c.var.deps;
  const nonce = readSignupNonceCookie(c);
  let passwordApplied = !!payload.passwordHash && typeof payload.passwordNonceHash === 'string' && !!nonce && sha256(nonce) === payload.passwordNonceHash;
  const { user, created } = await createUser(db, {
    email, firstName: payload.firstName, lastName: payload.lastName,
    passwordHash: passwordApplied ? payload.passwordHash! : null, emailConfirmed: true,
  }, now);
  if (!created) passwordApplied = false;
  // A password was typed at sign-up but not applied here: the learner is asked to choose one.
  const setPassword = created && !!payload.passwordHash && !passwordApplied;
  if (passwordApplied) clearSignupNonceCookie(c, config);
  // The address already had an account (created meanwhile): the link proves the address, nothing else changes.
  if (!created && !user.email_confirmed) {
    await db.updateTable('users').set({ email_confirmed: true, updated_at: now }).where('id', '=', user.id).execute();
    forgetSessionsOf(c, user.id);
  }
  return { userId: user.id, passwordApplied, setPassword };
}

/** POST /auth/magic-link/verify */
async function verifyMagicLink(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({ token: z.string().min(1).max(200) }));
  const row = await consumeToken(db, body.token, ['magic-link', 'signup'], now);
  if (!row || !row.email) throw new ProblemError(authProblems.invalidToken());
  let outcome = { userId: '', passwordApplied: false, setPassword: false };
  if (row.purpose === 'signup') {
    outcome = await acceptSignupLink(c, now, row.email, row.payload as unknown as SignupPayload);
  } else {
    const user = row.user_id ? await findUserById(db, row.user_id) : undefined;
    if (!user || user.email !== row.email) throw new ProblemError(authProblems.invalidToken());
    outcome.userId = user.id;
    if (!user.email_confirmed) {
      await db.updateTable('users').set({ email_confirmed: true, updated_at: now }).where('id', '=', user.id).execute();
      forgetSessionsOf(c, user.id);
    }
  }
  const user = await startCookieSession(c, outcome.userId, 'magic-link');
  const redirect = typeof row.payload.redirect === 'string' ? keepRedirect(row.payload.redirect, config) : null;
  const { passwordApplied, setPassword } = outcome;
  return c.json({ identity: await identityOf(db, user, c.var.site, config), redirect, passwordApplied, setPassword }, 200, { 'cache-control': 'no-store' });
}

/** POST /auth/login */
async function login(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({ email: emailField, password: z.string().min(1).max(200) }));
  const email = normaliseEmail(body.email);
  const rules = loginRules(c, email);
  // The attempt is counted before the password is checked (one atomic step per bucket), and given back
  // when it was right: only failures count, and parallel guesses cannot all slip past the limit.
  const attempt = await takeHits(db, rules, now);
  const user = await findUserByEmail(db, email);
  const ok = user?.password_hash
    ? await verifyPassword(body.password, user.password_hash)
    : await verifyDummyPassword(body.password, config.SCRYPT_LOG_N);
  if (!ok || !user) {
    attempt.refuseIfLimited();
    throw new ProblemError(authProblems.invalidCredentials());
  }
  await refundHits(db, rules, now);
  const sessionUser = await startCookieSession(c, user.id, 'password');
  return c.json({ identity: await identityOf(db, sessionUser, c.var.site, config) }, 200, { 'cache-control': 'no-store' });
}

/** POST /auth/logout */
async function logout(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const session = await requestSession(c);
  if (session) {
    await deleteSessionFamily(db, session.familyId);
    forgetSessionsOf(c, session.user.id);
  }
  clearSessionCookie(c, config);
  forgetRequestSession(c, null);
  return c.body(null, 204, { 'cache-control': 'no-store' });
}

// ── Hand-off: a minisite gets its own first-party session from the main host (hand-off mode only). ──

const returnQuery = z.object({ return: z.string().max(2000) });

/** Step 1, on the minisite: remember a state nonce in a host-only cookie, then go to the main host. */
async function handoffStart(c: Context<AppEnv>): Promise<Response> {
  const config = c.var.deps.config;
  const { return: target } = parseQuery(c, returnQuery);
  const site = c.var.site;
  // The admin host shows minisite pages in its course previews (src/pages/admin-app/courses/[courseId]/preview.astro),
  // whose hand-off script sends them here: it has its own session, there is nothing to hand off.
  if (site.admin) return c.redirect(originOf(target) === adminOrigin(config) ? target : adminOrigin(config), 302);
  const own = ownSiteOf(target, config);
  // Only a minisite sends itself here, and only to come back to one of its own pages.
  if (!site.minisiteSlug || !own || own.kind !== 'minisite' || own.slug !== site.minisiteSlug) {
    return c.redirect(own ? target : mainSiteOrigin(config), 302);
  }
  if (!usesHandoff(config)) return c.redirect(target, 302);
  const state = newSecret();
  setHandoffStateCookie(c, config, state);
  const next = new URL(`${mainSiteOrigin(config)}/api/auth/handoff`);
  next.searchParams.set('return', target);
  next.searchParams.set('state', state);
  return c.redirect(next.toString(), 302);
}

/** Step 2, on the main host: a one-time token for the signed-in user, bound to the state, sent back. */
async function handoff(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const q = parseQuery(c, returnQuery.extend({ state: z.string().min(20).max(200) }));
  const own = ownSiteOf(q.return, config);
  if (!own || own.kind !== 'minisite') return c.redirect(mainSiteOrigin(config), 302);
  const accept = new URL(`${minisiteSiteOrigin(config, own.slug)}/api/auth/handoff/accept`);
  accept.searchParams.set('return', q.return);
  const session = await requestSession(c);
  if (session && session.kind === 'cookie') {
    const token = await issueToken(db, {
      purpose: 'handoff', userId: session.user.id, familyId: session.familyId, stateHash: sha256(q.state),
    }, now);
    accept.searchParams.set('token', token);
  }
  c.header('cache-control', 'no-store');
  return c.redirect(accept.toString(), 302);
}

/** Step 3, on the minisite: the token, checked against this browser's state cookie, becomes a session. */
async function handoffAccept(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const q = parseQuery(c, returnQuery.extend({ token: z.string().max(200).optional() }));
  const site = c.var.site;
  const own = ownSiteOf(q.return, config);
  const back = own && own.kind === 'minisite' && own.slug === site.minisiteSlug ? q.return : '/';
  const state = readHandoffStateCookie(c);
  clearHandoffStateCookie(c, config);
  if (q.token && state && site.minisiteSlug) {
    const row = await consumeToken(db, q.token, ['handoff'], now);
    if (row && row.user_id && row.family_id && row.state_hash === sha256(state)) {
      // The login must still be alive on the main host.
      const alive = await db.selectFrom('sessions').select('token_hash').where('family_id', '=', row.family_id).where('expires_at', '>', now).executeTakeFirst();
      if (alive) await startCookieSession(c, row.user_id, 'handoff', row.family_id);
    }
  }
  return c.redirect(back, 302);
}

// ── Embed: no third-party cookies; a first-party window mints a one-time code, the embed trades it for a bearer token. ──

/** POST /auth/embed/code (main host, signed in) */
async function embedCode(c: Context<AppEnv>): Promise<Response> {
  const { db } = c.var.deps;
  const user = requireUser(c);
  const session = await requestSession(c);
  if (!session || session.kind !== 'cookie') throw new ProblemError(authProblems.unauthenticated());
  const code = await issueToken(db, { purpose: 'embed-code', userId: user.id, familyId: session.familyId }, c.var.deps.now());
  return c.json({ code }, 200, { 'cache-control': 'no-store' });
}

/** POST /auth/embed/exchange */
async function embedExchange(c: Context<AppEnv>): Promise<Response> {
  const { db, config } = c.var.deps;
  const now = c.var.deps.now();
  const body = await parseJson(c, z.object({ code: z.string().min(1).max(200) }));
  const row = await consumeToken(db, body.code, ['embed-code'], now);
  if (!row || !row.user_id || !row.family_id) throw new ProblemError(authProblems.invalidToken());
  const ttl = Math.min(EMBED_SESSION_SECONDS, config.SESSION_TTL_DAYS * 86_400);
  const issued = await createSession(db, { userId: row.user_id, kind: 'bearer', method: 'embed', familyId: row.family_id, ttlSeconds: ttl }, now);
  const user = await findUserById(db, row.user_id);
  if (!user) throw new ProblemError(authProblems.invalidToken());
  const sessionUser = toSessionUser(user, await educatorIdsOf(db, user.id));
  return c.json(
    { token: issued.token, expiresAt: issued.expiresAt, identity: await identityOf(db, sessionUser, c.var.site, config) },
    200,
    { 'cache-control': 'no-store' },
  );
}

export function authRoutes() {
  const app = new Hono<AppEnv>();
  app.onError(authErrors);
  app.post('/auth/signup', signup);
  app.post('/auth/magic-link', magicLink);
  app.post('/auth/magic-link/verify', verifyMagicLink);
  app.post('/auth/login', login);
  app.post('/auth/logout', logout);
  app.get('/auth/handoff/start', handoffStart);
  app.get('/auth/handoff', handoff);
  app.get('/auth/handoff/accept', handoffAccept);
  app.post('/auth/embed/code', embedCode);
  app.post('/auth/embed/exchange', embedExchange);
  return app;
}
