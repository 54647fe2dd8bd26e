/**
 * review_aggregates: count, average rating and per-part breakdown averages of the non-archived
 * reviews of each educator (all of its reviews) and each course (reviews with that course_id).
 *
 * Rebuilt set-based (one INSERT … SELECT … GROUP BY per subject type), so a whole catalogue of
 * 10,000 educators takes one statement each for educators and courses. Subjects without reviews get
 * no row (readers left-join and treat a missing row as count 0). A breakdown average is null when
 * no review of the subject rated that part.
 *
 * Works on SQLite and PostgreSQL: the only dialect difference is reading a number out of the
 * breakdown JSON text.
 */
import { type Expression, type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import type { Database } from '../schema.ts';

export const BREAKDOWN_KEYS = ['material', 'facilitator', 'organiser', 'resources', 'delivery', 'communication'] as const;
export type BreakdownKey = (typeof BREAKDOWN_KEYS)[number];

export interface RebuildScope {
  /** The educator's aggregate and the aggregates of all of its courses. */
  educatorId?: string;
  /** That course's aggregate. */
  courseId?: string;
}

type AnyDb = Kysely<Database>;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** avg() of one breakdown part, read from the JSON text column. Keys come from BREAKDOWN_KEYS only. */
function breakdownAverage(postgres: boolean, key: BreakdownKey): RawBuilder<number | null> {
  return postgres
    ? sql<number | null>`avg((breakdown::jsonb ->> ${sql.lit(key)})::double precision)`
    : sql<number | null>`avg(json_extract(breakdown, ${sql.lit(`$.${key}`)}))`;
}

const COLUMNS = ['subject_type', 'subject_id', 'count', 'rating', ...BREAKDOWN_KEYS] as const;

function aggregateQuery(
  db: AnyDb,
  subject: 'educator' | 'course',
  filter: ((column: 'educator_id' | 'course_id') => Expression<boolean> | null) | null,
) {
  const postgres = isPostgres(db);
  const key = subject === 'educator' ? 'educator_id' : 'course_id';
  let query = db
    .selectFrom('reviews')
    .select([
      sql.lit(subject).as('subject_type'),
      sql.ref<string>(key).as('subject_id'),
      sql<number>`count(*)`.as('count'),
      sql<number>`avg(rating)`.as('rating'),
      ...BREAKDOWN_KEYS.map((k) => breakdownAverage(postgres, k).as(k)),
    ])
    .where('archived_at', 'is', null)
    .groupBy(key);
  if (subject === 'course') query = query.where('course_id', 'is not', null);
  const condition = filter?.(key);
  if (condition) query = query.where(condition);
  return query;
}

async function rebuildIn(db: AnyDb, scope: RebuildScope): Promise<void> {
  const { educatorId, courseId } = scope;
  const insert = (subject: 'educator' | 'course', filter: Parameters<typeof aggregateQuery>[2]) =>
    db.insertInto('review_aggregates').columns(COLUMNS).expression(aggregateQuery(db, subject, filter)).execute();

  if (educatorId === undefined && courseId === undefined) {
    await db.deleteFrom('review_aggregates').execute();
    await insert('educator', null);
    await insert('course', null);
    return;
  }
  if (educatorId !== undefined) {
    const courseIds = db.selectFrom('courses').select('id').where('educator_id', '=', educatorId);
    await db.deleteFrom('review_aggregates').where('subject_type', '=', 'educator').where('subject_id', '=', educatorId).execute();
    await db.deleteFrom('review_aggregates').where('subject_type', '=', 'course').where('subject_id', 'in', courseIds).execute();
    await insert('educator', () => sql<boolean>`educator_id = ${educatorId}`);
    await insert('course', () => sql<boolean>`course_id in (${courseIds})`);
  }
  if (courseId !== undefined) {
    await db.deleteFrom('review_aggregates').where('subject_type', '=', 'course').where('subject_id', '=', courseId).execute();
    await insert('course', () => sql<boolean>`course_id = ${courseId}`);
  }
}

/**
 * Recomputes review aggregates: everything when no scope is given, otherwise only the given
 * educator (with its courses) and/or course. Runs in a transaction (or in the caller's).
 */
export async function rebuildReviewAggregates(db: AnyDb, scope: RebuildScope = {}): Promise<void> {
  if (db.isTransaction) {
    await rebuildIn(db, scope);
  } else {
    await db.transaction().execute((trx) => rebuildIn(trx, scope));
  }
}
