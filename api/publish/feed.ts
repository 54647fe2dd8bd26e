/**
 * The publisher's side of the change feed (db/migrations/0030_page_changes.ts): claiming rows under a lease — on
 * PostgreSQL with FOR UPDATE SKIP LOCKED — leaving out educators another publisher holds, so two processes never
 * render one educator at once (the later one could otherwise overwrite fresher pages with older ones); keeping the
 * lease while a pass runs; deleting the rows once published; giving failed ones back after a back-off.
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.ts';

export interface ClaimedRow {
  id: number;
  educator_id: string | null;
  educator_slug: string | null;
  course_id: string | null;
  category_id: string | null;
}

export interface FeedOptions {
  db: Db;
  dialect: Dialect;
  /** Who claims: one publisher process. */
  owner: string;
  /** Epoch seconds. */
  now(): number;
  leaseSeconds: number;
  /** Rows claimed per pass. */
  maxRows: number;
  /** Rows younger than this wait for their siblings before a pass claims them (ms). */
  batchMs: number;
}

const MAX_BACKOFF_SECONDS = 300;
/** The advisory lock key that serialises claims on PostgreSQL. */
const PUBLISH_CLAIM_LOCK = 7_305_011;

export function changeFeed(options: FeedOptions) {
  const { db, dialect, owner, leaseSeconds, maxRows } = options;
  return {
    /** The free rows, oldest first, leaving out educators another publisher holds. */
    async claim(): Promise<ClaimedRow[]> {
      const now = options.now();
      const until = now + leaseSeconds;
      const lock = dialect === 'postgres' ? sql`for update skip locked` : sql``;
      // Claims take turns (SQLite's writer lock does this by itself), so "educators another publisher holds"
      // is read after the previous claim has committed.
      const result = await db.transaction().execute(async (trx) => {
        if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PUBLISH_CLAIM_LOCK})`.execute(trx);
        return sql<ClaimedRow>`
        update page_changes set claimed_by = ${owner}, claimed_until = ${until}, attempts = attempts + 1
        where id in (
          select p.id from page_changes p
          where (p.claimed_until is null or p.claimed_until < ${now})
            and (p.educator_id is null or p.educator_id not in (
              select h.educator_id from page_changes h
              where h.claimed_until >= ${now} and h.claimed_by <> ${owner} and h.educator_id is not null))
          order by p.id
          limit ${maxRows}
          ${lock}
        )
        returning id, educator_id, educator_slug, course_id, category_id`.execute(trx);
      });
      return result.rows.map((r) => ({ ...r, id: Number(r.id) }));
    },

    /** Keeps the lease while a long pass runs. */
    async renew(ids: number[]): Promise<void> {
      if (ids.length === 0) return;
      await db.updateTable('page_changes').set({ claimed_until: options.now() + leaseSeconds })
        .where('claimed_by', '=', owner).where('id', 'in', ids).execute();
    },

    /** Deletes published rows. */
    async finish(ids: number[]): Promise<void> {
      for (let i = 0; i < ids.length; i += 500) {
        await db.deleteFrom('page_changes').where('claimed_by', '=', owner).where('id', 'in', ids.slice(i, i + 500)).execute();
      }
    },

    /** Gives rows back to be tried again after a back-off that grows with their attempts (5 s, 10 s, … 5 min). */
    async release(ids: number[]): Promise<void> {
      const now = options.now();
      for (let i = 0; i < ids.length; i += 500) {
        const rows = await db.selectFrom('page_changes').select(['id', 'attempts']).where('id', 'in', ids.slice(i, i + 500)).execute();
        for (const row of rows) {
          const wait = Math.min(MAX_BACKOFF_SECONDS, 5 * 2 ** Math.min(10, Math.max(0, Number(row.attempts) - 1)));
          await db.updateTable('page_changes').set({ claimed_by: null, claimed_until: now + wait })
            .where('id', '=', row.id).where('claimed_by', '=', owner).execute();
        }
      }
    },

    /** Whether the oldest free row is older than the batching window (seconds resolution, so at least 1 s). */
    async dueRows(): Promise<'none' | 'wait' | 'due'> {
      const now = options.now();
      const row = await db.selectFrom('page_changes').select(['created_at'])
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', now)]))
        .orderBy('id', 'desc').limit(1).executeTakeFirst();
      if (!row) return 'none';
      return Number(row.created_at) * 1000 + options.batchMs <= Date.now() ? 'due' : 'wait';
    },
  };
}

export type ChangeFeed = ReturnType<typeof changeFeed>;
