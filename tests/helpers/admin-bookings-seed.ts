/**
 * Bookings written straight into the table, many at a time (the bookings list's tests and tests/bench/admin.ts):
 * deterministic from a seed, spread over courses, dates, statuses, payment methods and states, origins and learner
 * names, as a busy educator's would be. The learner columns are filled by the table's own triggers (migration 0270).
 */
import type { Db } from '../../db/client.ts';

export const FIRST_NAMES = ['Ada', 'Grace', 'Alan', 'Katherine', 'Tim', 'Margaret', 'Linus', 'Barbara', 'Dennis', 'Frances', 'Edsger', 'Radia', 'Ken', 'Hedy', 'John', 'Shafi'];
export const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing', 'Johnson', 'Berners-Lee', 'Hamilton', 'Torvalds', 'Liskov', 'Ritchie', 'Allen', 'Dijkstra', 'Perlman', 'Thompson', 'Lamarr', 'Backus', 'Goldwasser'];
const STATUSES = ['confirmed', 'confirmed', 'confirmed', 'confirmed', 'confirmed', 'confirmed', 'cancelled', 'awaiting-approval'] as const;
const METHODS = ['card', 'card', 'card', 'paypal', 'klarna', 'invoice', 'manual', 'gift card'] as const;
const ORIGINS = ['marketplace', 'marketplace', 'landing_page', 'embed'] as const;

/** A small deterministic generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedTarget {
  educatorId: string;
  /** Courses with their dated occurrences (id, start). A booking without a date is made now and then. */
  courses: { id: string; occurrences: { id: string; start: number }[] }[];
}

export interface SeededBooking {
  id: string;
  created_at: number;
  start_datetime: number | null;
  total_cost: number;
  status: string;
  payment_method: string | null;
  payment_state: string;
  origin: string;
  course_id: string;
  occurrence_id: string | null;
  first: string;
  last: string;
  email: string;
  refunded_total: number;
}

/** Inserts `count` bookings for the target in batches; returns what it wrote (for the tests' expectations). */
export async function seedBookings(db: Db, target: SeedTarget, count: number, options: { seed?: number; prefix?: string; now?: number; batch?: number } = {}): Promise<SeededBooking[]> {
  const random = rng(options.seed ?? 1);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const prefix = options.prefix ?? 'BKG-S';
  const out: SeededBooking[] = [];
  const batch = options.batch ?? 500;
  for (let from = 0; from < count; from += batch) {
    const rows = [];
    for (let i = from; i < Math.min(count, from + batch); i++) {
      const course = pick(target.courses);
      const occurrence = course.occurrences.length && random() > 0.03 ? pick(course.occurrences) : null;
      const status = pick(STATUSES);
      const method = pick(METHODS);
      const free = random() < 0.05;
      const total = free ? 0 : 500 + Math.floor(random() * 300) * 50;
      const state = free ? 'free' : method === 'invoice' || method === 'manual' ? (random() < 0.5 ? 'unpaid' : 'paid') : 'paid';
      const first = pick(FIRST_NAMES);
      const last = pick(LAST_NAMES);
      const id = `${prefix}${String(i).padStart(7, '0')}`;
      const email = `${first}.${last}.${i}@example.com`.toLowerCase();
      const created = now - 400 * 86400 + Math.floor(random() * 400 * 86400);
      const refunded = state === 'paid' && status === 'cancelled' && random() < 0.7 ? total : state === 'paid' && random() < 0.02 ? Math.floor(total / 2) : 0;
      const b: SeededBooking = {
        id, created_at: created, start_datetime: occurrence?.start ?? null, total_cost: total, status, payment_method: free ? null : method,
        payment_state: state, origin: pick(ORIGINS), course_id: course.id, occurrence_id: occurrence?.id ?? null, first, last, email, refunded_total: refunded,
      };
      out.push(b);
      rows.push({
        id, checkout_id: `chk_seed_${prefix}${i}`, flow: 'booking', course_id: course.id, educator_id: target.educatorId, user_id: `usr_seed_${i % 5000}`,
        student_id: `stu_seed_${i % 5000}`, origin: b.origin, lines: { offers: [{ offerId: 'off', name: 'Standard', quantity: 1, price: total, spaces: 1 }], addOns: [] },
        contact_details: { booker: { formResponse: { system_first_name: first, system_last_name: last, system_email: email }, isAttending: true }, attendees: [] },
        details: { costSummary: { total_cost: total, platform_fee: total ? Math.round(total * 0.025) + 30 : 0, fees_absorbed: true } },
        total_cost: total, currency: 'GBP', created_at: created, status, occurrence_id: b.occurrence_id, spaces: 1,
        start_datetime: b.start_datetime, end_datetime: b.start_datetime === null ? null : b.start_datetime + 7200,
        payment_method: b.payment_method, payment_state: state, payment_id: null, invoice_details: null, due_date: null, manual_note: null,
        refunded_total: refunded,
      });
    }
    await db.insertInto('bookings').values(rows as never).execute();
  }
  return out;
}
