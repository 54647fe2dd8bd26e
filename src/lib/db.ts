/**
 * The database handle used while rendering pages (at build time and for on-demand pages).
 * Uses the same DATABASE_URL as the server.
 */
import { openDb, type Db } from '../../db/client.ts';

let db: Db | undefined;

export function pageDb(): Db {
  db ??= openDb({ url: process.env.DATABASE_URL || undefined });
  return db;
}
