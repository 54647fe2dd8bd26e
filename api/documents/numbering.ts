/**
 * Sequential invoice numbers. Every booking or order that costs something gets one number,
 * INV-000001, INV-000002, … from its educator's own gap-free sequence (the educator is the seller named on
 * the document; HMRC expects each seller's invoice numbers to follow on from the previous one). The number
 * is issued in the transaction that records the booking / order (api/checkout/outcomes.ts), or lazily, in a
 * transaction, on the first download of a document that has none; it is stored, so every re-download shows it.
 *
 * Why it stays sequential under concurrency, on both databases:
 * - the counter row is created with `insert … on conflict do nothing` (a write: on SQLite it takes the
 *   database's write lock at once, so a transaction never upgrades from a stale read snapshot);
 * - on PostgreSQL the counter row is then locked (`select … for update`): a second transaction issuing a
 *   number for the same educator waits there until the first commits or rolls back;
 * - the document is looked up again under that lock, so two first downloads of one booking issue it once;
 * - the number comes from `update document_counters set value = value + 1 where scope = ? returning value`,
 *   in the same transaction as the document row. A rollback undoes both: no gaps, no duplicates
 *   (and the unique (educator_id, seq) constraint would refuse a duplicate anyway).
 * On SQLite every transaction starts with BEGIN IMMEDIATE through one write queue (db/sqlite-driver.ts), and
 * another process's write lock is waited for asynchronously, then answered 503.
 */
import { sql } from 'kysely';
import type { Db, Dialect } from '../../db/client.ts';
import type { DocumentOutcomeKind, InvoiceDocumentRow } from '../../db/schema/documents.ts';
import { writeLater } from '../../db/client.ts';

type Q = Db;

export const INVOICE_PREFIX = 'INV-';

/** 1 → 'INV-000001' (more digits once past 999999). */
export function formatInvoiceNumber(seq: number): string {
  return `${INVOICE_PREFIX}${String(seq).padStart(6, '0')}`;
}

export function invoiceScope(educatorId: string): string {
  return `invoice:${educatorId}`;
}

export async function findInvoiceDocument(q: Q, kind: DocumentOutcomeKind, outcomeId: string): Promise<InvoiceDocumentRow | undefined> {
  return q
    .selectFrom('invoice_documents')
    .selectAll()
    .where('outcome_kind', '=', kind)
    .where('outcome_id', '=', outcomeId)
    .executeTakeFirst();
}

export interface IssueInput {
  kind: DocumentOutcomeKind;
  outcomeId: string;
  educatorId: string;
  /** The date printed on the document. */
  issuedAt: number;
  now: number;
}

/**
 * Issues the document's number, or returns the one it already has. Must run inside a transaction
 * (`q` is the transaction); see the file comment for the locking.
 */
export async function issueInvoiceNumber(q: Q, dialect: Dialect, input: IssueInput): Promise<InvoiceDocumentRow> {
  const scope = invoiceScope(input.educatorId);
  await q
    .insertInto('document_counters')
    .values({ scope, value: 0 })
    .onConflict((oc) => oc.column('scope').doNothing())
    .execute();
  if (dialect === 'postgres') {
    await q.selectFrom('document_counters').select('value').where('scope', '=', scope).forUpdate().execute();
  }
  const existing = await findInvoiceDocument(q, input.kind, input.outcomeId);
  if (existing) return existing;
  const counter = await q
    .updateTable('document_counters')
    .set({ value: sql<number>`value + 1` })
    .where('scope', '=', scope)
    .returning('value')
    .executeTakeFirstOrThrow();
  return insertDocument(q, input, Number(counter.value));
}

/**
 * The number of an outcome recorded in this very transaction (so it has none yet): one upsert that creates or
 * raises the counter and returns the new value, then the document row. The counter row stays locked from that
 * statement to the commit, so the checkout runs this last (saveRow, api/checkout/engine/persist.ts): the other bookings of the
 * same educator wait for two statements, not for the whole outcome. A rollback undoes both, as above.
 */
export async function issueNewInvoiceNumber(q: Q, input: IssueInput): Promise<InvoiceDocumentRow> {
  const counter = await q
    .insertInto('document_counters')
    .values({ scope: invoiceScope(input.educatorId), value: 1 })
    .onConflict((oc) => oc.column('scope').doUpdateSet({ value: sql<number>`document_counters.value + 1` }))
    .returning('value')
    .executeTakeFirstOrThrow();
  return insertDocument(q, input, Number(counter.value));
}

/**
 * issueNewInvoiceNumber for a transaction that does not read the number (a checkout's outcome): on PostgreSQL one
 * statement, the counter's upsert feeding the document's insert, held and sent with the COMMIT (writeLater), so the
 * counter's row is locked for the commit alone and the number costs no round trip. The number is written as
 * formatInvoiceNumber writes it (`tests/api/documents-invoices.test.ts` holds the two to each other). SQLite: as
 * issueNewInvoiceNumber.
 */
export async function issueNewInvoiceNumberUnread(q: Q, dialect: Dialect, input: IssueInput): Promise<void> {
  if (dialect !== 'postgres') {
    await issueNewInvoiceNumber(q, input);
    return;
  }
  const both = sql`with counter as (
      insert into document_counters (scope, value) values (${invoiceScope(input.educatorId)}, 1)
      on conflict (scope) do update set value = document_counters.value + 1 returning value)
    insert into invoice_documents (outcome_kind, outcome_id, educator_id, seq, invoice_number, issued_at, created_at)
    select ${input.kind}, ${input.outcomeId}, ${input.educatorId}, value,
      ${INVOICE_PREFIX} || case when value < 1000000 then lpad(value::text, 6, '0') else value::text end, ${input.issuedAt}, ${input.now}
    from counter`;
  await writeLater(q, { compile: () => both.compile(q) });
}

async function insertDocument(q: Q, input: IssueInput, seq: number): Promise<InvoiceDocumentRow> {
  const row: InvoiceDocumentRow = {
    outcome_kind: input.kind,
    outcome_id: input.outcomeId,
    educator_id: input.educatorId,
    seq,
    invoice_number: formatInvoiceNumber(seq),
    issued_at: input.issuedAt,
    created_at: input.now,
  };
  await writeLater(q, q.insertInto('invoice_documents').values(row));
  return row;
}

/** The document's number: the stored one, or a new one issued in its own transaction (first download). */
export async function ensureInvoiceNumber(db: Db, dialect: Dialect, input: IssueInput): Promise<InvoiceDocumentRow> {
  const stored = await findInvoiceDocument(db, input.kind, input.outcomeId);
  if (stored) return stored;
  return db.transaction().execute((tx) => issueInvoiceNumber(tx, dialect, input));
}
