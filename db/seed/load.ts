/**
 * Loads the demo catalogue into a database (SQLite or PostgreSQL).
 *
 * Rows stream from generateEducatorBatches() and are written a group of educators at a time, each
 * group in one transaction, table by table in foreign-key order, as multi-row INSERTs sized by
 * column count to stay under SQLite's 32,766 and PostgreSQL's 65,535 bound parameters. The INSERTs
 * are compiled here rather than by kysely's builder (a 30,000-value builder tree costs more to
 * build and transform than to run); values are encoded exactly as db/codec.ts does — objects and
 * arrays as JSON text, booleans as 1/0 on SQLite — and value_json always as JSON text.
 * Review aggregates are then rebuilt set-based and catalogue_meta records how the catalogue was made.
 */
import { CompiledQuery, type Kysely, PostgresAdapter, sql } from 'kysely';
import type { Database } from '../schema.ts';
import { rebuildReviewAggregates } from '../queries/review-aggregates.ts';
import { clearSearchIndex, optimizeSearchIndex, pauseSearchIndex, resumeSearchIndex } from '../queries/search.ts';
import { CATALOGUE_TABLES, type CatalogueRows, type CatalogueTable, appendRows, countRows, emptyRows } from './builder.ts';
import { DEFAULT_EDUCATORS, DEFAULT_SEED, generateEducatorBatches, sharedRows, todayAnchor } from './generate.ts';

type AnyDb = Kysely<Database>;

/** SQLite's default SQLITE_MAX_VARIABLE_NUMBER (since 3.32) and PostgreSQL's protocol limit. */
export const MAX_PARAMETERS = { sqlite: 32766, postgres: 65535 } as const;

export interface LoadProgress {
  educators: number;
  total: number;
  rows: number;
  seconds: number;
}

export interface LoadOptions {
  seed?: number;
  educators?: number;
  /** Epoch seconds all dates are relative to; defaults to the start of the current UTC day. */
  now?: number;
  onProgress?: (progress: LoadProgress) => void;
  /** Educators written per transaction (default 250). */
  educatorsPerTransaction?: number;
}

export interface LoadResult {
  seed: number;
  educators: number;
  now: number;
  counts: Record<CatalogueTable | 'review_aggregates', number>;
  rows: number;
  seconds: number;
}

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

function encoder(postgres: boolean) {
  return (column: string, value: unknown): unknown => {
    if (value === undefined) return null;
    if (column === 'value_json') return JSON.stringify(value);
    if (value !== null && typeof value === 'object') return JSON.stringify(value);
    if (!postgres && typeof value === 'boolean') return value ? 1 : 0;
    return value;
  };
}

const quote = (identifier: string): string => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Inserts rows (all with the same columns) in as few statements as the parameter limit allows.
 * Returns the number of statements run.
 */
export async function insertRows(db: AnyDb, table: string, rows: readonly Record<string, unknown>[]): Promise<number> {
  if (rows.length === 0) return 0;
  const postgres = isPostgres(db);
  const columns = Object.keys(rows[0]);
  const limit = postgres ? MAX_PARAMETERS.postgres : MAX_PARAMETERS.sqlite;
  const perStatement = Math.max(1, Math.floor(limit / columns.length));
  const encode = encoder(postgres);
  const head = `insert into ${quote(table)} (${columns.map(quote).join(', ')}) values `;
  let statements = 0;
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    const tuples: string[] = [];
    for (const row of chunk) {
      const marks: string[] = [];
      for (const column of columns) {
        if (!(column in row)) throw new Error(`${table}: row is missing column ${column}`);
        params.push(encode(column, row[column]));
        marks.push(postgres ? `$${params.length}` : '?');
      }
      tuples.push(`(${marks.join(', ')})`);
    }
    await db.executeQuery(CompiledQuery.raw(head + tuples.join(', '), params));
    statements++;
  }
  return statements;
}

async function insertAll(db: AnyDb, rows: CatalogueRows): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of CATALOGUE_TABLES) {
      await insertRows(trx, table, rows[table] as unknown as Record<string, unknown>[]);
    }
  });
}

/** True when the catalogue has no educators. */
export async function isCatalogueEmpty(db: AnyDb): Promise<boolean> {
  const row = await db.selectFrom('educators').select('id').limit(1).executeTakeFirst();
  return row === undefined;
}

/** Catalogue tables in the order they are emptied (children first). */
export const RESET_ORDER = [
  'catalogue_meta', 'review_aggregates', ...[...CATALOGUE_TABLES].reverse(),
] as const;

/**
 * Foreign-key columns inside the catalogue that lead no index. Deleting a parent row makes the
 * database look for children through them (SQLite scans; PostgreSQL's RI trigger scans the heap,
 * dead rows of the same transaction included), which is quadratic over a 10,000-educator
 * catalogue. The reset indexes them for its own duration.
 */
export const RESET_TEMP_INDEXES: [table: string, column: string][] = [
  ['occurrences', 'parent_ref'], ['offers', 'occurrence_id'], ['add_ons', 'occurrence_id'],
  ['collection_courses', 'course_id'], ['vouchers', 'course_id'], ['payment_options', 'course_id'],
  ['lessons', 'educator_id'], ['faqs', 'educator_id'], ['forms', 'educator_id'],
];

/**
 * Empties the catalogue tables, children first, with foreign keys enforced, so rows of other
 * areas that reference the catalogue (saved courses, checkouts, …) follow their own ON DELETE
 * rules. Rows in the search index (course_search) go with their courses.
 */
export async function resetCatalogue(db: AnyDb): Promise<void> {
  const indexName = (table: string, column: string) => `seed_reset_${table}_${column}`;
  for (const [table, column] of RESET_TEMP_INDEXES) {
    await sql`create index if not exists ${sql.id(indexName(table, column))} on ${sql.table(table)} (${sql.ref(column)})`.execute(db);
  }
  try {
    await db.transaction().execute(async (trx) => {
      // Emptying the search index in one go spares a delete per course in its FTS5 tables (SQLite);
      // loading the catalogue refills it.
      await clearSearchIndex(trx);
      for (const table of RESET_ORDER) {
        // Children of the occurrence series first, then the rest.
        if (table === 'occurrences') await trx.deleteFrom('occurrences').where('parent_ref', 'is not', null).execute();
        await trx.deleteFrom(table).execute();
        if (table === 'catalogue_meta') await pausePageChanges(trx);
      }
      await resumePageChanges(trx);
    });
  } finally {
    for (const [table, column] of RESET_TEMP_INDEXES) {
      await sql`drop index if exists ${sql.id(indexName(table, column))}`.execute(db);
    }
  }
}

/** Generates the catalogue and writes it, then the review aggregates and catalogue_meta. */
export async function loadCatalogue(db: AnyDb, options: LoadOptions = {}): Promise<LoadResult> {
  const started = performance.now();
  await pausePageChanges(db);
  await pauseSearchIndex(db);
  try {
    return await load(db, options, started);
  } finally {
    // Written already when the load succeeded; else what was loaded is indexed all the same.
    await resumeSearchIndex(db);
    await resumePageChanges(db);
  }
}

/**
 * A bulk load is published by the full build that follows it, so the change feed's triggers stay silent
 * meanwhile (db/migrations/0030_page_changes.ts) and the feed is emptied afterwards.
 */
async function pausePageChanges(db: AnyDb): Promise<void> {
  await db.deleteFrom('catalogue_meta').where('key', '=', 'page_changes_paused').execute();
  await db.insertInto('catalogue_meta').values({ key: 'page_changes_paused', value: '1' }).execute();
}

async function resumePageChanges(db: AnyDb): Promise<void> {
  await db.deleteFrom('catalogue_meta').where('key', '=', 'page_changes_paused').execute();
  await db.deleteFrom('page_changes').execute();
}

async function load(db: AnyDb, options: LoadOptions, started: number): Promise<LoadResult> {
  const seed = options.seed ?? DEFAULT_SEED;
  const educators = options.educators ?? DEFAULT_EDUCATORS;
  const now = options.now ?? todayAnchor();
  const perTransaction = Math.max(1, options.educatorsPerTransaction ?? 250);
  const counts = Object.fromEntries([...CATALOGUE_TABLES, 'review_aggregates'].map((t) => [t, 0])) as LoadResult['counts'];
  const tally = (rows: CatalogueRows) => {
    for (const t of CATALOGUE_TABLES) counts[t] += rows[t].length;
  };
  const seconds = () => (performance.now() - started) / 1000;

  const shared = sharedRows(now);
  await insertAll(db, shared);
  tally(shared);
  let written = countRows(shared);

  let pending = emptyRows();
  let pendingEducators = 0;
  let done = 0;
  const flush = async () => {
    if (pendingEducators === 0) return;
    await insertAll(db, pending);
    tally(pending);
    written += countRows(pending);
    done += pendingEducators;
    pending = emptyRows();
    pendingEducators = 0;
    options.onProgress?.({ educators: done, total: educators, rows: written, seconds: seconds() });
  };
  for (const batch of generateEducatorBatches({ seed, educators, now })) {
    appendRows(pending, batch.rows);
    if (++pendingEducators >= perTransaction) await flush();
  }
  await flush();

  await rebuildReviewAggregates(db);
  await resumeSearchIndex(db);
  // One FTS5 segment per table after a bulk load (SQLite), fresh planner statistics (PostgreSQL).
  await optimizeSearchIndex(db);
  const aggregates = await db.selectFrom('review_aggregates').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
  counts.review_aggregates = Number(aggregates.n);

  const meta: Record<string, string> = {
    seed: String(seed),
    educators: String(educators),
    now: String(now),
    generated_at: String(Math.floor(Date.now() / 1000)),
  };
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('catalogue_meta').where('key', 'in', Object.keys(meta)).execute();
    await trx.insertInto('catalogue_meta').values(Object.entries(meta).map(([key, value]) => ({ key, value }))).execute();
  });

  return { seed, educators, now, counts, rows: written + counts.review_aggregates, seconds: seconds() };
}
