import { Migrator } from 'kysely';
import { schemaOfDb, type Db } from './client.ts';
import { migrationProvider } from './migrations/index.ts';

/** Brings the schema up to date; throws with the failing migration's error. */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: schemaOfDb(db) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
