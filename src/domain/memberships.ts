/**
 * Memberships (docs/gifts-and-memberships.md "## Memberships"): an educator's plans and the rules a member's
 * prices, credits and periods follow. Pure: no I/O. Money is integer pence, times epoch seconds; calendar
 * arithmetic is Europe/London's (src/domain/zone.ts), so a period that starts at 09:00 on 31 January ends at
 * 09:00 on the last day of February, and a period across a clock change keeps its wall-clock time.
 */
import { z } from './zod.ts';
import { DEFAULT_TIME_ZONE } from './time.ts';
import { addLocalDays, zonedParts, zonedWallClock } from './zone.ts';
import { formatListedPrice } from './money.ts';
import { mulDivRound } from './checkout/costSummary.ts';
import { USE_CREDIT_TEXT } from './member-credit.ts';
import { checkoutPageHref } from './checkout/page-link.ts';

export const PLAN_INTERVALS = ['month', 'year', 'pass'] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];

/** The smallest price a plan can have: card providers refuse charges below about 30p; 50p keeps clear of it. */
export const MIN_PLAN_PRICE = 50;
export const MAX_PLAN_PRICE = 1_000_000;
export const MAX_CREDITS_PER_PERIOD = 100;
export const MAX_PASS_MONTHS = 24;

/** A plan as an educator defines it (the seed and any editor go through this schema). */
export const planInputSchema = z
  .object({
    name: z.string().trim().min(1).max(80),
    description: z.string().trim().max(1000).default(''),
    interval: z.enum(PLAN_INTERVALS),
    passMonths: z.number().int().min(1).max(MAX_PASS_MONTHS).nullable().default(null),
    price: z.number().int().min(MIN_PLAN_PRICE).max(MAX_PLAN_PRICE),
    currency: z.string().length(3).default('GBP'),
    discountPercent: z.number().int().min(0).max(100).default(0),
    creditsPerPeriod: z.number().int().min(0).max(MAX_CREDITS_PER_PERIOD).default(0),
    /** null: every course of the educator. */
    courseIds: z.array(z.string().min(1).max(200)).min(1).max(500).nullable().default(null),
  })
  .superRefine((plan, ctx) => {
    if (plan.interval === 'pass' && plan.passMonths === null) {
      ctx.addIssue({ code: 'custom', path: ['passMonths'], message: 'is required for a one-off pass' });
    }
    if (plan.interval !== 'pass' && plan.passMonths !== null) {
      ctx.addIssue({ code: 'custom', path: ['passMonths'], message: 'applies only to a one-off pass' });
    }
    if (plan.discountPercent === 0 && plan.creditsPerPeriod === 0) {
      ctx.addIssue({ code: 'custom', path: ['discountPercent'], message: 'a plan needs a percentage off or credits' });
    }
  });
export type PlanInput = z.output<typeof planInputSchema>;

/** What the rules need of a plan (a row of membership_plans, or a parsed input). */
export interface PlanTerms {
  interval: PlanInterval;
  passMonths: number | null;
  price: number;
  currency: string;
  discountPercent: number;
  creditsPerPeriod: number;
  courseIds: readonly string[] | null;
}

/** A plan row's columns as the rules' terms. */
export function planTerms(row: {
  interval: PlanInterval; pass_months: number | null; price: number; currency: string; discount_percent: number;
  credits_per_period: number; course_ids: readonly string[] | null;
}): PlanTerms {
  return {
    interval: row.interval, passMonths: row.pass_months, price: Number(row.price), currency: row.currency,
    discountPercent: Number(row.discount_percent), creditsPerPeriod: Number(row.credits_per_period), courseIds: row.course_ids,
  };
}

/** How many calendar months one period lasts. */
export function periodMonths(plan: Pick<PlanTerms, 'interval' | 'passMonths'>): number {
  if (plan.interval === 'month') return 1;
  if (plan.interval === 'year') return 12;
  return plan.passMonths ?? 1;
}

/** A pass is paid once and ends; month and year plans renew. */
export function renews(plan: Pick<PlanTerms, 'interval'>): boolean {
  return plan.interval !== 'pass';
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The start of period `index` of a membership that started at `anchor`: the anchor's wall-clock time on the
 * anchor's day of the month, `index × months` months later, in `timeZone`. A day the month does not have is its
 * last day (31 January → 28/29 February → 31 March: counted from the anchor, never from the previous boundary,
 * so a short month does not pull every later period earlier).
 */
export function periodBoundary(anchor: number, months: number, index: number, timeZone: string = DEFAULT_TIME_ZONE): number {
  if (index === 0) return anchor;
  const p = zonedParts(anchor, timeZone);
  const monthIndex = p.month - 1 + months * index;
  const year = p.year + Math.floor(monthIndex / 12);
  const month = (((monthIndex % 12) + 12) % 12) + 1;
  const day = Math.min(p.day, daysInMonth(year, month));
  return zonedWallClock({ year, month, day }, p.hour * 3600 + p.minute * 60 + p.second, timeZone);
}

/** Period `index` of a membership: [start, end). */
export function periodOf(anchor: number, plan: Pick<PlanTerms, 'interval' | 'passMonths'>, index: number, timeZone: string = DEFAULT_TIME_ZONE) {
  const months = periodMonths(plan);
  return { start: periodBoundary(anchor, months, index, timeZone), end: periodBoundary(anchor, months, index + 1, timeZone) };
}

/** What the benefit rules need of a membership row. */
export interface MembershipStanding {
  status: 'active' | 'past_due' | 'ended';
  current_period_end: number;
  credits_left: number;
}

/**
 * A member's benefits hold while the membership is active and inside its paid period. A failed renewal
 * (past due) suspends them until a retry succeeds; a cancellation keeps them to the end of the paid period.
 */
export function benefitsActive(m: MembershipStanding, now: number): boolean {
  return m.status === 'active' && now < Number(m.current_period_end);
}

/** Whether a plan's benefits cover a course. */
export function coversCourse(plan: Pick<PlanTerms, 'courseIds'>, courseId: string): boolean {
  return plan.courseIds === null || plan.courseIds.includes(courseId);
}

/** A price with the member's percentage off (the discount rounded half up, as the cost summary's voucher is). */
export function memberUnitPrice(price: number, discountPercent: number): number {
  const pct = Math.min(Math.max(discountPercent, 0), 100);
  return price - mulDivRound(Math.max(price, 0), pct, 100);
}

/** An offer line as the benefit rules see it: unit price, quantity, spaces one unit takes. */
export interface BenefitLine {
  price: number;
  quantity: number;
  spaces: number;
}

export interface MemberBenefit {
  /** Pence one credit pays (0: no credit used). */
  creditValue: number;
  /** Pence the percentage takes off the rest of the offers. */
  discount: number;
}

/**
 * What a member's benefits take off a selection of offers (add-ons and extras are not courses: they are paid in
 * full). A credit pays for one space: one unit of the dearest selected offer that takes exactly one space (an
 * offer for a pair or a group is not one space). The percentage applies to everything the credit does not pay.
 */
export function memberBenefit(lines: ReadonlyArray<BenefitLine>, terms: { discountPercent: number; useCredit: boolean }): MemberBenefit {
  const priced = lines.filter((l) => l.quantity > 0).map((l) => ({ ...l, price: Math.max(0, Math.round(l.price)) }));
  const total = priced.reduce((sum, l) => sum + l.price * l.quantity, 0);
  let creditValue = 0;
  if (terms.useCredit) {
    const single = priced.filter((l) => l.spaces === 1).sort((a, b) => b.price - a.price)[0];
    creditValue = single?.price ?? 0;
  }
  const rest = total - creditValue;
  const discount = rest > 0 ? mulDivRound(rest, Math.min(Math.max(terms.discountPercent, 0), 100), 100) : 0;
  return { creditValue, discount };
}

/** Whether a credit can pay for anything in a selection (an offer that takes one space). */
export function creditApplies(lines: ReadonlyArray<BenefitLine>): boolean {
  return lines.some((l) => l.quantity > 0 && l.spaces === 1);
}

export { USE_CREDIT_TEXT, memberCreditText } from './member-credit.ts';

/**
 * The booking aside's member line for a course, as every visitor sees it (the page is the same for all): what a
 * plan with credits that covers it offers ("Clay Club members book a space with 1 credit"), else "Members from £…"
 * with the lowest paid offer at the best percentage off; null when no plan covers it or nothing costs money.
 * "Use 1 credit" is for a member with credits left (`options.member`; the aside asks once it knows who is there).
 * `plans` are the educator's listed plans.
 */
export function memberAsideText(
  plans: ReadonlyArray<Pick<PlanTerms, 'discountPercent' | 'creditsPerPeriod' | 'courseIds' | 'currency'> & { name?: string }>,
  courseId: string,
  offerPrices: ReadonlyArray<number>,
  options: { member?: { creditsLeft: number; discountPercent: number } | null } = {},
): string | null {
  const covering = plans.filter((p) => coversCourse(p, courseId));
  const paid = offerPrices.filter((p) => p > 0);
  if (!covering.length || !paid.length) return null;
  const currency = covering[0]!.currency;
  if (options.member) {
    if (options.member.creditsLeft > 0) return USE_CREDIT_TEXT;
    if (options.member.discountPercent > 0) return `Members from ${formatListedPrice(memberUnitPrice(Math.min(...paid), options.member.discountPercent), currency)}`;
    return null;
  }
  const withCredits = covering.filter((p) => p.creditsPerPeriod > 0);
  if (withCredits.length === 1 && withCredits[0]!.name) return `${withCredits[0]!.name} members book a space with 1 credit`;
  if (withCredits.length) return 'Members book a space with 1 credit';
  const best = Math.max(...covering.map((p) => p.discountPercent));
  return best > 0 ? `Members from ${formatListedPrice(memberUnitPrice(Math.min(...paid), best), currency)}` : null;
}

/** "£12 / month", "£120.50 / year", "£45 for 3 months": a listed price (src/domain/money.ts formatListedPrice). */
export function planPriceText(plan: Pick<PlanTerms, 'interval' | 'passMonths' | 'price' | 'currency'>): string {
  const price = formatListedPrice(plan.price, plan.currency);
  if (plan.interval === 'month') return `${price} / month`;
  if (plan.interval === 'year') return `${price} / year`;
  const months = plan.passMonths ?? 1;
  return `${price} for ${months} ${months === 1 ? 'month' : 'months'}`;
}

/** The plan's benefits as short lines for its card: "15% off all courses", "4 credits a month". */
export function planBenefitTexts(plan: Pick<PlanTerms, 'interval' | 'passMonths' | 'discountPercent' | 'creditsPerPeriod' | 'courseIds'>): string[] {
  const scope = plan.courseIds === null ? 'all courses' : plan.courseIds.length === 1 ? '1 selected course' : `${plan.courseIds.length} selected courses`;
  const out: string[] = [];
  if (plan.creditsPerPeriod > 0) {
    const n = plan.creditsPerPeriod;
    const credits = `${n} ${n === 1 ? 'credit' : 'credits'}`;
    const when = plan.interval === 'month' ? ' a month' : plan.interval === 'year' ? ' a year' : '';
    out.push(`${credits}${when}, each one space on ${scope}`);
  }
  if (plan.discountPercent > 0) out.push(`${plan.discountPercent}% off ${scope}`);
  return out;
}

/**
 * Failed renewals: retried 1 day and then 3 days after the period end (UK subscription practice gives a few
 * days to fix a card); after the third failed attempt the membership ends. Returns when the next attempt is
 * due after `attempts` failed ones, or null when it ends.
 */
export const RENEWAL_RETRY_DAYS = [1, 3] as const;
export function nextRetryAt(periodEnd: number, failedAttempts: number, timeZone: string = DEFAULT_TIME_ZONE): number | null {
  const days = RENEWAL_RETRY_DAYS[failedAttempts - 1];
  return days === undefined ? null : addLocalDays(periodEnd, days, timeZone);
}

/**
 * The Join link of a plan: the checkout's membership flow in the page's context (the embed's own checkout page,
 * the only one that may be framed), like the course page's booking button.
 */
export function membershipCheckoutHref(context: 'marketplace' | 'minisite' | 'embed', educatorSlug: string, planId: string, parentUrl?: string | null): string {
  return checkoutPageHref(context, 'membership', { educator: educatorSlug, plan: planId }, parentUrl);
}

/** The cost summary line of a credit spent (its text marks the selection as paying with a credit). */
export const MEMBER_CREDIT_TEXT = 'Membership credit (1 space)';

/** The member's benefits as the cost summary's discount lines (negative values), for `computeCostSummary`. */
export function memberDiscountLines(lines: ReadonlyArray<BenefitLine>, terms: { discountPercent: number; useCredit: boolean }): { text: string; value: number }[] {
  const { creditValue, discount } = memberBenefit(lines, terms);
  const out: { text: string; value: number }[] = [];
  if (terms.useCredit && creditApplies(lines)) out.push({ text: MEMBER_CREDIT_TEXT, value: -creditValue });
  if (discount > 0) out.push({ text: `Member price (${terms.discountPercent}% off)`, value: -discount });
  return out;
}

/** Whether a stored cost summary spends a credit. */
export function summarySpendsCredit(summary: { summary_items?: { discountSummary?: ReadonlyArray<{ text: string }> } } | null | undefined): boolean {
  return !!summary?.summary_items?.discountSummary?.some((l) => l.text === MEMBER_CREDIT_TEXT);
}
