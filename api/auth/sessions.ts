/**
 * Sessions and one-time tokens. The browser (or an embed) holds a random 32-byte secret; the database keeps
 * only its SHA-256 hash, with an expiry. One login is one "family": sessions handed to minisites or embeds
 * join the family of the session they came from, and logging out anywhere ends the whole family.
 */
import type { Db } from '../../db/client.ts';
import type { AuthMethod, AuthTokenRow, SessionKind, TokenPurpose } from '../../db/schema/accounts.ts';
import type { SessionUser } from '../../src/domain/session-user.ts';
import { newId, newSecret, sha256 } from '../shared/ids.ts';
import { toSessionUser } from './users.ts';
import { compiledOnce } from '../../db/compiled.ts';
import type { SessionCache } from './session-cache.ts';

export interface IssuedSession {
  token: string;
  familyId: string;
  expiresAt: number;
}

export async function createSession(
  db: Db,
  input: { userId: string; kind: SessionKind; method: AuthMethod; familyId?: string; ttlSeconds: number },
  now: number,
): Promise<IssuedSession> {
  const token = newSecret();
  const familyId = input.familyId ?? newId('fam');
  const expiresAt = now + input.ttlSeconds;
  await db
    .insertInto('sessions')
    .values({
      token_hash: sha256(token),
      user_id: input.userId,
      kind: input.kind,
      family_id: familyId,
      auth_method: input.method,
      created_at: now,
      expires_at: expiresAt,
    })
    .execute();
  // Now and then, forget expired sessions and tokens (no background job needed).
  if (Math.random() < 0.02) await purgeExpired(db, now);
  return { token, familyId, expiresAt };
}

export interface ResolvedSession {
  user: SessionUser;
  tokenHash: string;
  familyId: string;
  kind: SessionKind;
  method: AuthMethod;
  createdAt: number;
  expiresAt: number;
}

/**
 * One statement for the user and the educators they administer (a row per educator, one row with null for a
 * learner): this runs on every request that carries a session, so a second round trip would cost every page (and
 * it is compiled once, db/compiled.ts).
 */
const sessionRows = compiledOnce((db: Db, tokenHash: string) => db
  .selectFrom('sessions as s')
  .innerJoin('users as u', 'u.id', 's.user_id')
  .leftJoin('educator_admins as ea', 'ea.user_id', 'u.id')
  .selectAll('u')
  .select(['s.family_id', 's.kind', 's.auth_method', 's.created_at as session_created_at', 's.expires_at', 'ea.educator_id as admin_of'])
  .where('s.token_hash', '=', tokenHash)
  .orderBy('ea.created_at')
  .orderBy('ea.educator_id'));

export type SessionRows = Awaited<ReturnType<typeof sessionRows>>;

/** What sessionRows found for a session, from this process's cache when it holds it (api/auth/session-cache.ts). */
async function lookUp(db: Db, tokenHash: string, cache: SessionCache<SessionRows> | undefined): Promise<SessionRows> {
  const cached = cache?.get(tokenHash);
  if (cached) return cached;
  const ticket = cache?.ticket() ?? 0;
  const rows = await sessionRows(db, tokenHash);
  // Only found sessions are kept: an unknown token is nobody's, and nothing would tell of its creation.
  if (cache && rows[0]) cache.store(ticket, tokenHash, rows[0].id, rows);
  return rows;
}

/** The user behind a session secret, or null when it is unknown, expired or of another kind. */
export async function resolveSession(
  db: Db,
  token: string,
  kind: SessionKind,
  now: number,
  cache?: SessionCache<SessionRows>,
): Promise<ResolvedSession | null> {
  if (!token || token.length > 200) return null;
  const tokenHash = sha256(token);
  const rows = await lookUp(db, tokenHash, cache);
  const row = rows[0];
  if (!row || row.kind !== kind || row.expires_at <= now) return null;
  const educatorIds = rows.flatMap((r) => (r.admin_of === null ? [] : [r.admin_of]));
  return {
    user: toSessionUser(row, educatorIds),
    tokenHash,
    familyId: row.family_id,
    kind: row.kind,
    method: row.auth_method,
    createdAt: row.session_created_at,
    expiresAt: row.expires_at,
  };
}

/** Logs out everywhere this login reached (main host, minisites, embeds). */
export async function deleteSessionFamily(db: Db, familyId: string): Promise<void> {
  await db.deleteFrom('sessions').where('family_id', '=', familyId).execute();
}

/** Ends every session of a user except one login family (after a password change). */
export async function deleteOtherSessions(db: Db, userId: string, keepFamilyId: string | null): Promise<void> {
  let q = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (keepFamilyId) q = q.where('family_id', '!=', keepFamilyId);
  await q.execute();
}

export async function purgeExpired(db: Db, now: number): Promise<void> {
  await db.deleteFrom('sessions').where('expires_at', '<=', now).execute();
  await db.deleteFrom('auth_tokens').where('expires_at', '<=', now - 86_400).execute();
}

/** Lifetimes of one-time tokens (seconds). */
export const TOKEN_TTL: Record<TokenPurpose, number> = {
  'magic-link': 30 * 60,
  signup: 24 * 60 * 60,
  handoff: 60,
  'embed-code': 120,
  'change-email': 24 * 60 * 60,
};

export async function issueToken(
  db: Db,
  input: {
    purpose: TokenPurpose;
    email?: string | null;
    userId?: string | null;
    familyId?: string | null;
    stateHash?: string | null;
    payload?: Record<string, unknown>;
  },
  now: number,
): Promise<string> {
  const token = newSecret();
  await db
    .insertInto('auth_tokens')
    .values({
      token_hash: sha256(token),
      purpose: input.purpose,
      email: input.email ?? null,
      user_id: input.userId ?? null,
      family_id: input.familyId ?? null,
      state_hash: input.stateHash ?? null,
      payload: input.payload ?? {},
      created_at: now,
      expires_at: now + TOKEN_TTL[input.purpose],
      used_at: null,
    })
    .execute();
  return token;
}

/**
 * Uses a one-time token: marks it used in the same statement that checks it is unused and unexpired,
 * so two requests racing with the same token cannot both succeed.
 */
export async function consumeToken(
  db: Db,
  token: string,
  purposes: TokenPurpose[],
  now: number,
  only: { userId?: string } = {},
): Promise<AuthTokenRow | null> {
  if (!token || token.length > 200) return null;
  let q = db
    .updateTable('auth_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', sha256(token))
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now);
  // A token meant for one user cannot be used up by another.
  if (only.userId !== undefined) q = q.where('user_id', '=', only.userId);
  const row = await q.returningAll().executeTakeFirst();
  return row ?? null;
}

/** Reads a token without using it (the magic-link page shows whom it logs in). */
export async function peekToken(db: Db, token: string, purposes: TokenPurpose[], now: number): Promise<AuthTokenRow | null> {
  if (!token || token.length > 200) return null;
  const row = await db
    .selectFrom('auth_tokens')
    .selectAll()
    .where('token_hash', '=', sha256(token))
    .where('purpose', 'in', purposes)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return row ?? null;
}
