/**
 * One codec for both dialects, so the rest of the code never thinks about storage:
 * - objects and arrays bound as parameters are stored as JSON text;
 * - on SQLite, booleans are bound as 1/0 (better-sqlite3 refuses JS booleans);
 * - on read, JSON columns are parsed and SQLite's 0/1 booleans become true/false.
 * The column names listed here mean the same thing in every table.
 */
import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
  type PrimitiveValueListNode,
} from 'kysely';

export const JSON_COLUMNS = new Set([
  'address', 'feature_flags', 'third_party_codes', 'vat_settings', 'links', 'working_hours',
  'enquiry_types', 'delivery_modes', 'img_urls', 'autoimg', 'faq_ids', 'sections', 'duration_pricing',
  'educator_travel_settings', 'student_travel_settings', 'items', 'breakdown', 'value_json', 'data',
  'state', 'step_state', 'utms', 'payload', 'contact_details', 'details', 'lines', 'manual',
  'properties', 'times', 'geoloc', 'form_response',
  'cost_summary', 'metadata', 'payment_error', 'invoice_details',
  'course_ids',
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

class ParamTransformer extends OperationNodeTransformer {
  constructor(private readonly sqlite: boolean) {
    super();
  }
  private encode(v: unknown): unknown {
    if (isPlainJson(v)) return JSON.stringify(v);
    if (this.sqlite && typeof v === 'boolean') return v ? 1 : 0;
    return v;
  }
  protected override transformValue(node: ValueNode): ValueNode {
    return { ...super.transformValue(node), value: this.encode(node.value) };
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    return { ...super.transformPrimitiveValueList(node), values: node.values.map((v) => this.encode(v)) };
  }
}

export class CodecPlugin implements KyselyPlugin {
  private readonly transformer: ParamTransformer;
  constructor(private readonly sqlite: boolean) {
    this.transformer = new ParamTransformer(sqlite);
  }
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.transformer.transformNode(args.node);
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
