import { Migrator } from 'kysely/migration';
import { schemaOfDb, type Db } from './client.ts';
import { migrationProvider } from './migrations/index.ts';

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  // Streams number their migrations in blocks (0040…, 0050…) and land in any order, so a database may have
  // run 0050 before 0040 arrives: run what is missing instead of refusing.
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: schemaOfDb(db), allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
