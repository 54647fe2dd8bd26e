/**
 * Phone numbers stored before UK numbers were normalised to E.164 kept the national trunk 0 after the
 * country code ('07700 900123' was stored as '+4407700900123'). Drop it, as src/domain/phone.ts now
 * does for new numbers. Plain SQL that SQLite and PostgreSQL read alike.
 */
import { sql, type Kysely } from 'kysely';

type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  for (const table of ['enquiries', 'educator_claims']) {
    await sql`update ${sql.table(table)} set phone = '+44' || substr(phone, 5) where phone like '+440%'`.execute(db);
  }
}

export async function down(): Promise<void> {
  // Nothing to undo: the old form was not a dialable number.
}
