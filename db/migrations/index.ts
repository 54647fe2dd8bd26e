/** Every migration, in order. Kept as an explicit list so bundlers and tsx agree on it. */
import type { Migration, MigrationProvider } from 'kysely';
import * as m0001 from './0001_catalogue.ts';

export const migrations: Record<string, Migration> = {
  '0001_catalogue': m0001,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
