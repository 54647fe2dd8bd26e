/**
 * Creating and dropping whole PostgreSQL databases from an admin connection, for the tests' databases and the benches'
 * scratch ones. Only `pg`, so the benches that copy it into an older checkout (bench:checkout:baseline) can use it.
 */
import pg from 'pg';

/** The URL of database `name` on the admin URL's server. */
export function pgDatabaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs `statement` on the admin URL's database (CREATE and DROP DATABASE cannot run in the one they name). */
export async function onPgServer(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
