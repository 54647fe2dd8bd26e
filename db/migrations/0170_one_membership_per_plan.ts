/**
 * One membership per learner and plan while it runs (active or past due), held by the database: two checkouts of
 * one plan paid at the same moment each check "not a member yet" before either has written, so only a unique index
 * stops the second. Partial unique indexes read the same on SQLite and PostgreSQL. Any duplicates already recorded
 * are ended first (the oldest of each pair is kept), or the index could not be built.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  await sql`
    update memberships set status = 'ended', end_reason = 'duplicate', ended_at = ${now}, next_attempt_at = null,
      claimed_at = null, credits_left = 0, updated_at = ${now}
    where status <> 'ended' and exists (
      select 1 from memberships older
      where older.user_id = memberships.user_id and older.plan_id = memberships.plan_id and older.status <> 'ended'
        and (older.created_at < memberships.created_at or (older.created_at = memberships.created_at and older.id < memberships.id))
    )`.execute(db);
  await sql`create unique index memberships_one_running_per_plan on memberships (user_id, plan_id) where status <> 'ended'`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await sql`drop index if exists memberships_one_running_per_plan`.execute(db);
}
