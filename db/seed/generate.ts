/**
 * The deterministic demo catalogue (pure: no I/O, no clock).
 *
 * - `generateCatalogue({seed, educators, now})` returns every row in memory (fine up to a few
 *   hundred educators).
 * - `generateEducatorBatches(...)` yields one educator with all its rows at a time, so 10,000
 *   educators (~100,000 courses) stream through a loader in modest memory.
 * - `sharedRows(now)` holds the rows that belong to no educator: categories and the system form.
 *
 * Same seed and `now` ⇒ same rows. Each educator draws from its own random stream
 * (seed, educator number), so the first 30 educators are identical whether 30 or 10,000 are made.
 * The first twelve are the hand-designed showcase educators (showcase.ts).
 */
import {
  type CatalogueRows, EducatorBuilder, SYSTEM_FORM_ID, appendRows, educatorIdOf, emptyRows, utcDayStart,
} from './builder.ts';
import { CATEGORIES } from './content.ts';
import { rngFor } from './random.ts';
import { SYSTEM_FIELDS, randomEducator, randomIdentity } from './random-educator.ts';
import { SHOWCASE, SHOWCASE_SLUGS } from './showcase.ts';

export {
  CATALOGUE_TABLES, type CatalogueRows, type CatalogueTable, type Row, countRows, emptyRows,
} from './builder.ts';
export { RACE_OCCURRENCE_ID, SHOWCASE } from './showcase.ts';
export { IMAGE_PATHS } from './content.ts';

export const DEFAULT_SEED = 1;
export const DEFAULT_EDUCATORS = 30;

export interface GenerateOptions {
  seed?: number;
  educators?: number;
  /** Epoch seconds every date is relative to (the CLI passes the start of the current UTC day). */
  now: number;
}

export interface Catalogue extends CatalogueRows {
  seed: number;
  educatorCount: number;
  now: number;
}

export interface EducatorBatch {
  /** 1-based educator number. */
  n: number;
  educatorId: string;
  rows: CatalogueRows;
}

/** The start of the current UTC day: the anchor the CLI uses, so reruns on one day agree. */
export function todayAnchor(date: Date = new Date()): number {
  return utcDayStart(Math.floor(date.getTime() / 1000));
}

/** Rows that belong to no educator: the categories and the system default form. */
export function sharedRows(now: number): CatalogueRows {
  const rows = emptyRows();
  rows.categories.push(...CATEGORIES.map((c) => ({ ...c })));
  rows.forms.push({ id: SYSTEM_FORM_ID, educator_id: null, name: 'Default booking form' });
  SYSTEM_FIELDS.forEach((f, position) => {
    rows.form_fields.push({
      form_id: SYSTEM_FORM_ID, id: f.id, position, label: f.label, description: null, data_type: f.data_type,
      items: null, educator_ref: null, created_at: now - 3000 * 86400, updated_at: now - 3000 * 86400,
    });
    rows.form_validations.push({ form_id: SYSTEM_FORM_ID, field_ref: f.id, condition: 'required', value_json: true });
  });
  return rows;
}

function checkOptions(options: GenerateOptions): { seed: number; educators: number; now: number } {
  const seed = options.seed ?? DEFAULT_SEED;
  const educators = options.educators ?? DEFAULT_EDUCATORS;
  const now = options.now;
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  if (!Number.isInteger(educators) || educators < 0) throw new Error(`educators must be a whole number, got ${educators}`);
  if (!Number.isInteger(now)) throw new Error(`now must be integer epoch seconds, got ${now}`);
  return { seed, educators, now };
}

/** One educator with all of its rows at a time, in order (showcase educators first). */
export function* generateEducatorBatches(options: GenerateOptions): Generator<EducatorBatch> {
  const { seed, educators, now } = checkOptions(options);
  const usedSlugs = new Set<string>(SHOWCASE_SLUGS);
  for (let n = 1; n <= educators; n++) {
    const rng = rngFor(seed, 'educator', n);
    const showcase = SHOWCASE[n - 1];
    let builder: EducatorBuilder;
    if (showcase) {
      builder = new EducatorBuilder(n, rng, now, showcase.vertical, showcase.city);
      showcase.build(builder);
      // Every showcase educator sells gift vouchers (the demo shows the gift checkout on each minisite and embed).
      builder.giftVouchers({ fixedAmounts: [2500, 5000, 10000], customMin: 1000, customMax: 50000, expiryMonths: 24, designColour: '#7a3e9d' });
    } else {
      const identity = randomIdentity(rng, n, (slug) => usedSlugs.has(slug));
      usedSlugs.add(identity.slug);
      builder = new EducatorBuilder(n, rng, now, identity.vertical, identity.city);
      randomEducator(builder, identity);
      // One educator in three sells gift vouchers (no random draw: the rest of the catalogue stays as it was).
      if (n % 3 === 0) builder.giftVouchers({ fixedAmounts: [2000, 4000], customMin: n % 2 === 0 ? 1000 : null, customMax: n % 2 === 0 ? 20000 : null });
    }
    yield { n, educatorId: educatorIdOf(n), rows: builder.rows };
  }
}

/** The whole catalogue in memory. */
export function generateCatalogue(options: GenerateOptions): Catalogue {
  const { seed, educators, now } = checkOptions(options);
  const rows = sharedRows(now);
  for (const batch of generateEducatorBatches({ seed, educators, now })) appendRows(rows, batch.rows);
  return { seed, educatorCount: educators, now, ...rows };
}
