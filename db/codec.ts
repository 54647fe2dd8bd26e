/**
 * One codec for both dialects, so the rest of the code never thinks about storage:
 * - objects and arrays bound as parameters are stored as JSON text;
 * - on SQLite, booleans are bound as 1/0 (better-sqlite3 refuses JS booleans);
 * - on read, JSON columns are parsed and SQLite's 0/1 booleans become true/false.
 * The column names listed here mean the same thing in every table.
 */
import {
  OperatorNode,
  PostgresDialect,
  PostgresQueryCompiler,
  SqliteQueryCompiler,
  ValueNode,
  type BinaryOperationNode,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryCompiler,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

export const JSON_COLUMNS = new Set([
  'address', 'feature_flags', 'third_party_codes', 'vat_settings', 'links', 'working_hours',
  'enquiry_types', 'delivery_modes', 'img_urls', 'autoimg', 'faq_ids', 'sections', 'duration_pricing',
  'educator_travel_settings', 'student_travel_settings', 'items', 'breakdown', 'value_json', 'data',
  'state', 'step_state', 'utms', 'payload', 'contact_details', 'details', 'lines', 'manual',
  'properties', 'times', 'geoloc', 'form_response',
  'cost_summary', 'metadata', 'payment_error', 'invoice_details',
  'course_ids', 'changes',
]);

export const BOOLEAN_COLUMNS = new Set([
  'published', 'claimed', 'can_be_contacted', 'whitelabelling_enabled', 'capture_guests',
  'approval_required', 'individually_bookable', 'verified', 'available_for_online_delivery',
  'available_for_in_person_delivery', 'card_enabled', 'paypal_enabled', 'klarna_enabled',
  'invoice_enabled', 'manual_enabled', 'restricted', 'embedded', 'email_confirmed', 'paid',
  'marketing_consent', 'terms_accepted', 'is_attending', 'fees_absorbed', 'is_system', 'enabled',
  'listed', 'cancel_at_period_end',
]);

function isPlainJson(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !(v instanceof Date) && !ArrayBuffer.isView(v);
}

/** A bound parameter as the database stores it. */
function encodeParameter(v: unknown, sqlite: boolean): unknown {
  if (isPlainJson(v)) return JSON.stringify(v);
  if (sqlite && typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/**
 * Comparisons whose bound value SQLite 3.54's planner reads: for an `=` or `IS` term that a join's candidate loop
 * does not take from an index, it looks at the bound value (is it 0 or 1?) to guess how many rows the term keeps,
 * and marks the statement to be prepared again when that value changes. better-sqlite3 clears a statement's
 * bindings after every run, and SQLite expires a marked statement whenever its bindings are cleared, so every
 * later run prepared the whole statement again (and better-sqlite3 13 rebuilt its row constructor): the session
 * lookup and the checkout's read, both joins, cost three times what they did under SQLite 3.53.
 */
const VALUE_READ_BY_PLANNER = new Set(['=', '==', 'is']);

/*
 * Parameters are encoded as the query compiler collects them, not by a plugin rewriting each query's tree: a
 * plugin's transformQuery copies (and freezes) every node of every query, which on a checkout cost as much CPU
 * as SQLite running its statements. Every bound value, whether from the query builder, a value list or a `sql`
 * template, reaches the compiler through addParameter.
 */
export class SqliteCodecQueryCompiler extends SqliteQueryCompiler {
  protected override addParameter(parameter: unknown): void {
    super.addParameter(encodeParameter(parameter, true));
  }
  // `+?` is SQLite's no-op unary plus (same value, type and affinity; the index is still used), which the planner
  // does not look through: the statement is planned once, as SQLite 3.53 planned it, and never prepared again.
  protected override visitBinaryOperation(node: BinaryOperationNode): void {
    const { leftOperand, operator, rightOperand } = node;
    if (!OperatorNode.is(operator) || !VALUE_READ_BY_PLANNER.has(operator.operator) || !ValueNode.is(rightOperand) || rightOperand.immediate) {
      super.visitBinaryOperation(node);
      return;
    }
    this.visitNode(leftOperand);
    this.append(' ');
    this.visitNode(operator);
    this.append(' +');
    this.visitNode(rightOperand);
  }
  // Inline values (column defaults, literals): SQLite has stored booleans as 1/0 since before it knew TRUE.
  protected override appendImmediateValue(value: unknown): void {
    super.appendImmediateValue(typeof value === 'boolean' ? Number(value) : value);
  }
}

export class PostgresCodecQueryCompiler extends PostgresQueryCompiler {
  protected override addParameter(parameter: unknown): void {
    super.addParameter(encodeParameter(parameter, false));
  }
}

export class CodecPostgresDialect extends PostgresDialect {
  override createQueryCompiler(): QueryCompiler {
    return new PostgresCodecQueryCompiler();
  }
}

/** Reads: JSON columns parsed, SQLite's 0/1 booleans made true/false. Writes are encoded by the compilers above. */
export class CodecPlugin implements KyselyPlugin {
  constructor(private readonly sqlite: boolean) {}
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const rows = args.result.rows;
    if (!rows || rows.length === 0) return args.result;
    for (const row of rows) decodeRow(row, this.sqlite);
    return args.result;
  }
}

export function decodeRow(row: UnknownRow, sqlite: boolean): UnknownRow {
  for (const key of Object.keys(row)) {
    const v = row[key];
    if (typeof v === 'string' && JSON_COLUMNS.has(key) && (v.startsWith('{') || v.startsWith('['))) {
      try {
        row[key] = JSON.parse(v);
      } catch {
        /* not JSON after all: keep the text */
      }
    } else if (sqlite && typeof v === 'number' && BOOLEAN_COLUMNS.has(key)) {
      row[key] = v !== 0;
    }
  }
  return row;
}
