/**
 * The Numbers dashboard (docs/admin.md "Numbers"): figures from the first-party analytics events the public
 * pages record (profile and course page views, enquiries; api/routes/analytics.ts) and the checkouts (the funnel:
 * started, each step completed, completed), per context and per course, over a period. Pure: the server hands
 * in grouped counts and checkouts a page at a time; `addCheckout` folds each in.
 */
import { z } from '../zod.ts';
import { contextForOrigin } from '../checkout/origins.ts';
import { COURSE_PAGE_VIEW, EDUCATOR_PROFILE_VIEW, ENQUIRY_SUBMITTED } from '../analytics.ts';

export const CONTEXTS = ['marketplace', 'minisite', 'embed'] as const;
export type Context = (typeof CONTEXTS)[number];
/** The funnel's steps in the order a learner meets them (every flow's steps, spec 3 "Flows"). */
export const FUNNEL_STEPS = ['date', 'spaces', 'offers', 'delivery', 'dates', 'message', 'contactDetails', 'payment'] as const;
export const STEP_LABELS: Record<string, string> = {
  started: 'Checkout started', date: 'Date chosen', spaces: 'Spaces chosen', offers: 'Offers chosen', delivery: 'Delivery chosen', dates: 'Dates chosen',
  message: 'Message written', contactDetails: 'Contact details given', payment: 'Payment made', completed: 'Completed',
};
const DAY = 86_400;
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date (YYYY-MM-DD)').refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), 'must be a date (YYYY-MM-DD)');
export const numbersQuerySchema = z.object({ from: isoDay.optional(), to: isoDay.optional() });

/** The period in epoch seconds [from, to): whole UTC days, `to` inclusive; the last 30 days by default; at most 2 years. */
export function numbersPeriod(q: { from?: string; to?: string }, now: number): { from: number; to: number } | { error: string } {
  const to = q.to ? Date.parse(`${q.to}T00:00:00Z`) / 1000 + DAY : Math.floor(now / DAY) * DAY + DAY;
  const from = q.from ? Date.parse(`${q.from}T00:00:00Z`) / 1000 : to - 30 * DAY;
  if (from >= to) return { error: 'from must be on or before to' };
  if (to - from > 731 * DAY) return { error: 'the period must be at most two years' };
  return { from, to };
}

export interface Row { views: number; checkouts: number; completed: number }
export interface Numbers {
  profileViews: number;
  courseViews: number;
  enquiries: number;
  /** Checkouts that reached each step, in order: started, the steps any flow completed, completed. */
  funnel: { step: string; label: string; count: number }[];
  byContext: Array<{ context: Context } & Row & { conversion: number | null }>;
  byCourse: Array<{ courseId: string; courseName: string } & Row & { conversion: number | null }>;
}

export function numbersAccumulator(courseNames: Map<string, string>) {
  let profileViews = 0;
  let enquiries = 0;
  let started = 0;
  let completed = 0;
  const steps = new Map<string, number>();
  const ctx = new Map<Context, Row>(CONTEXTS.map((c) => [c, { views: 0, checkouts: 0, completed: 0 }]));
  const course = new Map<string, Row>();
  const courseRow = (id: string) => {
    let r = course.get(id);
    if (!r) course.set(id, (r = { views: 0, checkouts: 0, completed: 0 }));
    return r;
  };
  const asContext = (c: string): Context => ((CONTEXTS as readonly string[]).includes(c) ? (c as Context) : 'marketplace');
  return {
    /** A grouped count of events. */
    addEvents(name: string, context: string, courseId: string | null, count: number) {
      if (name === EDUCATOR_PROFILE_VIEW) profileViews += count;
      else if (name === ENQUIRY_SUBMITTED) enquiries += count;
      else if (name === COURSE_PAGE_VIEW) {
        ctx.get(asContext(context))!.views += count;
        if (courseId) courseRow(courseId).views += count;
      }
    },
    addCheckout(c: { origin: string; courseId: string | null; stepState: Record<string, { status?: string }> | null; completed: boolean }) {
      started++;
      const row = ctx.get(asContext(contextForOrigin(c.origin)))!;
      row.checkouts++;
      const cr = c.courseId ? courseRow(c.courseId) : null;
      if (cr) cr.checkouts++;
      for (const [step, entry] of Object.entries(c.stepState ?? {})) if (entry?.status === 'complete') steps.set(step, (steps.get(step) ?? 0) + 1);
      if (c.completed) {
        completed++;
        row.completed++;
        if (cr) cr.completed++;
      }
    },
    result(): Numbers {
      const conv = (r: Row) => (r.views > 0 ? r.completed / r.views : null);
      let courseViews = 0;
      for (const r of ctx.values()) courseViews += r.views;
      return {
        profileViews, courseViews, enquiries,
        funnel: [
          { step: 'started', label: STEP_LABELS.started!, count: started },
          ...FUNNEL_STEPS.filter((s) => steps.has(s)).map((s) => ({ step: s, label: STEP_LABELS[s]!, count: steps.get(s)! })),
          { step: 'completed', label: STEP_LABELS.completed!, count: completed },
        ],
        byContext: CONTEXTS.map((c) => ({ context: c, ...ctx.get(c)!, conversion: conv(ctx.get(c)!) })),
        byCourse: [...course.entries()].map(([id, r]) => ({ courseId: id, courseName: courseNames.get(id) ?? id, ...r, conversion: conv(r) }))
          .sort((a, b) => b.views - a.views || a.courseName.localeCompare(b.courseName)),
      };
    },
  };
}
