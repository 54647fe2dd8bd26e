/**
 * Column shapes every table module uses (a leaf: db/schema.ts gathers the table modules, which import only this).
 */
import type { ColumnType } from 'kysely';

/** A column the database fills when an insert leaves it out. */
export type WithDefault<T> = ColumnType<T, T | undefined, T>;
