/**
 * PostgreSQL: sessions kept in memory by two server processes (two handles on one database, each with its own cache
 * and listening connection), kept right by the database's notices (db/migrations/0294_session_change_notices.ts,
 * api/auth/session-cache.ts). What one process changes, the other stops serving without being told in-process.
 * PostgreSQL-only (set TEST_DATABASE_URL): SQLite keeps no session cache.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import pg from 'pg';
import { openDb, type Db } from '../../db/client.ts';
import { createUser } from '../../api/auth/users.ts';
import { createSession, deleteSessionFamily, resolveSession, type SessionRows } from '../../api/auth/sessions.ts';
import { listeningSessionCache, type SessionCache } from '../../api/auth/session-cache.ts';
import { createTestDb, databaseUrlOf, type TestDb } from '../helpers/db.ts';
import { educatorRow } from '../api/public-fixtures.ts';
import { uniqueEmail } from '../helpers/auth.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const now = () => Math.floor(Date.now() / 1000);

async function until(what: string, check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((done) => setTimeout(done, 10));
  }
}

describe.skipIf(!pgUrl)('sessions kept in memory by two processes (set TEST_DATABASE_URL to run)', () => {
  let tdb: TestDb;
  let other: Db;
  let mine: SessionCache<SessionRows>;
  let theirs: SessionCache<SessionRows>;

  beforeAll(async () => {
    tdb = await createTestDb();
    other = openDb({ url: databaseUrlOf(tdb), poolSize: 2 });
    mine = listeningSessionCache<SessionRows>(tdb.db)!;
    theirs = listeningSessionCache<SessionRows>(other)!;
    await until('both listen', () => mine.live() && theirs.live());
  });
  afterAll(async () => {
    await mine?.close();
    await theirs?.close();
    await other?.destroy();
    await tdb?.close();
  });

  async function login() {
    const { user } = await createUser(tdb.db, { email: uniqueEmail('cache'), firstName: 'Cas' }, now());
    const issued = await createSession(tdb.db, { userId: user.id, kind: 'cookie', method: 'password', ttlSeconds: 3600 }, now());
    return { user, ...issued };
  }

  it('serves a resolved session from memory: its row gone behind the triggers’ back, it still resolves', async () => {
    const { user, token } = await login();
    expect((await resolveSession(other, token, 'cookie', now(), theirs))?.user.id).toBe(user.id);
    expect(theirs.size()).toBeGreaterThan(0);
    // Without the triggers no notice is sent, so only the cache can still answer.
    await sql`alter table sessions disable trigger user`.execute(tdb.db);
    try {
      await tdb.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
    } finally {
      await sql`alter table sessions enable trigger user`.execute(tdb.db);
    }
    expect((await resolveSession(other, token, 'cookie', now(), theirs))?.user.id).toBe(user.id);
    expect(await resolveSession(other, token, 'cookie', now())).toBeNull();
    // The expiry is still checked on each use.
    const cachedExpiry = (await resolveSession(other, token, 'cookie', now(), theirs))!.expiresAt;
    expect(await resolveSession(other, token, 'cookie', cachedExpiry, theirs)).toBeNull();
    theirs.forgetUser(user.id);
  });

  it('a logout in one process ends the session in the other, which was not told in-process', async () => {
    const { token, familyId } = await login();
    expect(await resolveSession(other, token, 'cookie', now(), theirs)).not.toBeNull();
    await deleteSessionFamily(tdb.db, familyId);
    await until('the other process has forgotten the session', async () => (await resolveSession(other, token, 'cookie', now(), theirs)) === null);
  });

  it('a new educator of the user, and a new name, reach the other process’s session', async () => {
    const { user, token } = await login();
    expect((await resolveSession(other, token, 'cookie', now(), theirs))!.user.educatorIds).toEqual([]);
    const educatorId = `edu_cache_${Date.now().toString(36)}`;
    await tdb.db.insertInto('educators').values(educatorRow({ id: educatorId, slug: `cache-${Date.now().toString(36)}`, name: 'Cache Co' })).execute();
    await tdb.db.insertInto('educator_admins').values({ user_id: user.id, educator_id: educatorId, created_at: now() }).execute();
    await until('the other process sees the new educator', async () =>
      (await resolveSession(other, token, 'cookie', now(), theirs))!.user.educatorIds.includes(educatorId));
    await tdb.db.updateTable('users').set({ first_name: 'Renamed' }).where('id', '=', user.id).execute();
    await until('the other process sees the new name', async () =>
      (await resolveSession(other, token, 'cookie', now(), theirs))!.user.firstName === 'Renamed');
  });

  it('the account deleted (sessions gone by cascade) ends the session in the other process', async () => {
    const { user, token } = await login();
    expect(await resolveSession(other, token, 'cookie', now(), theirs)).not.toBeNull();
    await tdb.db.deleteFrom('users').where('id', '=', user.id).execute();
    await until('the other process has forgotten the session', async () => (await resolveSession(other, token, 'cookie', now(), theirs)) === null);
  });

  it('stops serving from memory while its listening connection is lost, and serves again once it listens', async () => {
    const { token } = await login();
    expect(await resolveSession(other, token, 'cookie', now(), theirs)).not.toBeNull();
    const admin = new pg.Client({ connectionString: tdb.url });
    await admin.connect();
    try {
      await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and query ilike 'listen %'`);
    } finally {
      await admin.end();
    }
    await until('the caches know their connection is lost', () => !mine.live() || !theirs.live());
    await until('both listen again', () => mine.live() && theirs.live());
    expect(await resolveSession(other, token, 'cookie', now(), theirs)).not.toBeNull();
    expect(theirs.size()).toBeGreaterThan(0);
  });
});
