/**
 * The catalogues checkouts sell from, kept in memory: every checkout action used to read the course, its
 * educator, offers, add-ons and fee settings and the occurrence's own offers and add-ons afresh — eight
 * statements, each a round trip on PostgreSQL, for rows that change a few times a week.
 *
 * An entry is good while its educator's catalogue version (migration 0100, raised by triggers on every write
 * to those tables, whoever writes) is the one it was read at. The version is always read BEFORE the rows it
 * stamps, so an entry can only be older than its stamp says if a write came in between — and then the stamp is
 * already behind the table and the next read reloads. The checkout engine reads the version with the checkout
 * row itself (api/checkout/engine/persist.ts), so a hit costs no statement at all; elsewhere it costs one.
 *
 * Entries are frozen: they are shared by every request of the process, and a caller that changed one would
 * change every later checkout's prices. Occurrences are not kept (their spaces move with every hold).
 */
import type { Db } from '../../db/client.ts';
import type { Occurrence } from '../../db/schema.ts';
import {
  catalogueVersion, courseStamp, loadCourseCatalogue, loadEducatorCatalogue, loadOccurrenceOffers, loadOccurrenceRow, loadOwnedForm,
  loadPaymentOptions, occurrenceOfCatalogue, withOccurrenceOffers, type CatalogueStamp, type CheckoutCatalogue, type CourseCatalogue,
  type LoadedForm, type OccurrenceCatalogue, type OccurrenceOffers, type Q, type ResolvedPaymentOptions,
} from '../../db/queries/checkout.ts';
import { deepFreeze } from '../shared/freeze.ts';

/** Entries kept per database handle, least recently used dropped first (a course catalogue is a few KB). */
export const CATALOGUE_CACHE_SIZE = 5000;

interface Entry {
  educatorId: string;
  version: number;
  value: object;
}

export class CatalogueCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly size = CATALOGUE_CACHE_SIZE) {}

  /** A course's catalogue (null: no such course). `known`: the version already read, for the checkout's educator. */
  course(q: Q, courseId: string, known?: CatalogueStamp): Promise<CourseCatalogue | null> {
    return this.through(q, `course:${courseId}`, known, () => courseStamp(q, courseId), () => loadCourseCatalogue(q, courseId), (v) => v.educator.id);
  }

  /** The catalogue of a flow that sells from the educator (null: no such educator). */
  educator(q: Q, educatorId: string, known?: CatalogueStamp): Promise<CheckoutCatalogue | null> {
    return this.ofEducator(q, `educator:${educatorId}`, educatorId, known, () => loadEducatorCatalogue(q, educatorId), (v) => v.educator.id);
  }

  /**
   * An occurrence of the catalogue's course, read afresh, with its offers and add-ons (kept) or the course's.
   * `read`: the row of `occurrenceId` the caller has just read with its checkout (null: there is none).
   */
  async occurrence(q: Q, occurrenceId: string, catalogue: CheckoutCatalogue, known?: CatalogueStamp, read?: Occurrence | null): Promise<OccurrenceCatalogue | null> {
    const occurrence = read !== undefined ? occurrenceOfCatalogue(read, catalogue) : await loadOccurrenceRow(q, occurrenceId, catalogue);
    if (!occurrence) return null;
    const own = await this.ofEducator<OccurrenceOffers>(q, `occurrence:${occurrenceId}`, catalogue.educator.id, known,
      () => loadOccurrenceOffers(q, occurrenceId));
    return withOccurrenceOffers(occurrence, own ?? { offers: [], addOns: [] }, catalogue);
  }

  /**
   * A form as a checkout of `educatorId` uses it (null: no such form). Kept when it is the educator's own or a
   * system form (migration 0120); another educator's form is read every time.
   */
  async form(q: Q, formId: string | null | undefined, educatorId: string, known?: CatalogueStamp): Promise<LoadedForm | null> {
    const owned = await this.ofEducator(q, `form:${educatorId}:${formId ?? ''}`, educatorId, known,
      () => loadOwnedForm(q, formId), (v) => v.educatorId ?? educatorId);
    return owned?.form ?? null;
  }

  /** The payment options a checkout of the educator's course (or of the educator, `courseId` null) offers. */
  async paymentOptions(q: Q, educatorId: string, courseId: string | null, known?: CatalogueStamp): Promise<ResolvedPaymentOptions> {
    const options = await this.ofEducator(q, `payment-options:${educatorId}:${courseId ?? ''}`, educatorId, known,
      () => loadPaymentOptions(q, educatorId, courseId));
    return options!;
  }

  /**
   * An entry good while `educatorId`'s catalogue version is the one it was read at: `known` when it is that
   * educator's (read with the checkout), else read. `educatorOf`: whose catalogue the value turned out to be.
   */
  private ofEducator<T extends object>(
    q: Q, key: string, educatorId: string, known: CatalogueStamp | undefined, load: () => Promise<T | null>,
    educatorOf: (value: T) => string = () => educatorId,
  ): Promise<T | null> {
    return this.through(q, key, known?.educatorId === educatorId ? known : undefined,
      async () => ({ educatorId, version: await catalogueVersion(q, educatorId) }), load, educatorOf);
  }

  /** Forgets everything (tests that write the catalogue behind the triggers' back, e.g. with them dropped). */
  clear(): void {
    this.entries.clear();
  }

  private async through<T extends object>(
    q: Q, key: string, known: CatalogueStamp | undefined,
    stampOf: () => Promise<CatalogueStamp | null>, load: () => Promise<T | null>, educatorOf: (value: T) => string,
  ): Promise<T | null> {
    const hit = this.entries.get(key);
    let current: CatalogueStamp | undefined;
    if (hit) {
      current = known?.educatorId === hit.educatorId ? known : { educatorId: hit.educatorId, version: await catalogueVersion(q, hit.educatorId) };
      if (current.version === hit.version) {
        this.entries.delete(key);
        this.entries.set(key, hit);
        return hit.value as T;
      }
      this.entries.delete(key);
    }
    const stamp = known ?? current ?? (await stampOf());
    if (!stamp) return null;
    const value = await load();
    // A course read under another educator's stamp (it moved since the checkout began) is used but not kept.
    if (value && educatorOf(value) === stamp.educatorId) {
      this.entries.set(key, { educatorId: stamp.educatorId, version: stamp.version, value: deepFreeze(value) });
      if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value as string);
    }
    return value;
  }
}

const caches = new WeakMap<Db, CatalogueCache>();

/** The cache of one database handle (each test's database has its own; a process serving one has one). */
export function catalogueCache(db: Db): CatalogueCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = new CatalogueCache();
    caches.set(db, cache);
  }
  return cache;
}
