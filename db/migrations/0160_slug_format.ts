/**
 * Slugs are folder and file names of the built site and an educator's slug is a host label, so the database
 * refuses any slug that is not one safe path segment (src/domain/slugs.ts: lower-case letters, digits, hyphens
 * and underscores, starting and ending with a letter or digit, at most 200 characters). In the database rather
 * than in this app's code because the educator admin app is a separate program writing the same tables: a slug
 * such as `../other-educator` or `..` is refused whoever writes it.
 *
 * PostgreSQL: a CHECK constraint on each table. SQLite cannot add a CHECK to an existing table without
 * rebuilding it (and its triggers and the search tables that follow it), so BEFORE INSERT / BEFORE UPDATE OF
 * slug triggers raise instead; SQLite has no regular expressions, so the rule is spelt with GLOB (case
 * sensitive, like the rule). Rows written before this migration are checked first on both engines: a database
 * holding a bad slug stops the migration with a message naming it, rather than keep a path the publisher must
 * refuse.
 */
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { SLUG_MAX_LENGTH } from '../../src/domain/slugs.ts';
import { inTransaction } from './0100_checkout_catalogue_versions.ts';

type AnyDb = Kysely<any>;

export const SLUG_TABLES = ['educators', 'courses', 'categories'] as const;

const PG_RULE = `slug ~ '^[a-z0-9]([a-z0-9_-]*[a-z0-9])?$' and length(slug) <= ${SLUG_MAX_LENGTH}`;
/** True when a slug breaks the rule (SQLite; `s` is the column expression). */
const sqliteBroken = (s: string) =>
  `(${s} is null or length(${s}) < 1 or length(${s}) > ${SLUG_MAX_LENGTH} or ${s} glob '*[^a-z0-9_-]*' or ${s} glob '[^a-z0-9]*' or ${s} glob '*[^a-z0-9]')`;

const message = (table: string) => `${table}.slug must be lower-case letters, digits, hyphens and underscores, starting and ending with a letter or digit, at most ${SLUG_MAX_LENGTH} characters`;

export function up(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return inTransaction(db, async (tx) => {
    for (const table of SLUG_TABLES) {
      const bad = postgres
        ? await sql<{ slug: string }>`select slug from ${sql.table(table)} where not (${sql.raw(PG_RULE)}) limit 3`.execute(tx)
        : await sql<{ slug: string }>`select slug from ${sql.table(table)} where ${sql.raw(sqliteBroken('slug'))} limit 3`.execute(tx);
      if (bad.rows.length > 0) {
        throw new Error(`${message(table)}; fix these first: ${bad.rows.map((r) => JSON.stringify(r.slug)).join(', ')}`);
      }
      if (postgres) {
        await sql.raw(`alter table ${table} add constraint ${table}_slug_format check (${PG_RULE})`).execute(tx);
        continue;
      }
      for (const [when, row] of [['insert', 'new'], ['update of slug', 'new']] as const) {
        await sql.raw(`create trigger ${table}_slug_format_${when === 'insert' ? 'insert' : 'update'} before ${when} on ${table}
          when ${sqliteBroken(`${row}.slug`)} begin select raise(abort, '${message(table)}'); end`).execute(tx);
      }
    }
  });
}

export function down(db: AnyDb): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return inTransaction(db, async (tx) => {
    for (const table of SLUG_TABLES) {
      if (postgres) await sql.raw(`alter table ${table} drop constraint if exists ${table}_slug_format`).execute(tx);
      else {
        await sql.raw(`drop trigger if exists ${table}_slug_format_insert`).execute(tx);
        await sql.raw(`drop trigger if exists ${table}_slug_format_update`).execute(tx);
      }
    }
  });
}
