/**
 * The Money screen (docs/admin.md "Money"): gift cards sold, members and their renewals, what each payment
 * provider took and gave back, and the platform's fees, over a period. Pure: the server reads the rows and folds
 * them in here, so the screen, the CSV exports and the tests agree on every rule.
 */
import { z } from '../zod.ts';
import { numbersQuerySchema } from './numbers.ts';

export const MONEY_PAGE_SIZE = 50;

/** The period of the figures: the Numbers screen's (whole UTC days, the last 30 by default, at most two years). */
export const moneyQuerySchema = numbersQuerySchema;

const cursor = z.string().max(120).regex(/^\d{1,12}\.[A-Za-z0-9_-]{1,64}$/, 'is not a cursor').optional();
export const giftCardsQuerySchema = z.object({ before: cursor });
export const MEMBER_STATES = ['all', 'active', 'past_due', 'ended', 'chase'] as const;
export type MemberState = (typeof MEMBER_STATES)[number];
export const membersQuerySchema = z.object({
  state: z.enum(MEMBER_STATES, { error: 'must be all, active, past_due, ended or chase' }).default('all'),
  before: cursor,
});

/**
 * A membership to chase: its renewal failed and it is still waiting to be paid (past due), or it ended because the
 * payment never came — the learner may want to join again.
 */
export function needsChasing(m: { status: string; endReason: string | null }): boolean {
  return m.status === 'past_due' || (m.status === 'ended' && m.endReason === 'payment_failed');
}

export const MEMBER_STATUS_TEXT: Record<string, string> = { active: 'Active', past_due: 'Renewal failed', ended: 'Ended' };
export const END_REASON_TEXT: Record<string, string> = { cancelled: 'cancelled', payment_failed: 'payment failed', pass_expired: 'pass ran out' };

/** Provider names as the educator knows them. */
export const PROVIDER_TEXT: Record<string, string> = {
  stripe: 'Stripe', paypal: 'PayPal', test: 'Test card (offline)', 'test-wallet': 'Test wallet (offline)', 'test-recurring': 'Test card (offline)',
};
export const providerText = (p: string): string => PROVIDER_TEXT[p] ?? p;

export interface ProviderFigures {
  provider: string;
  payments: number;
  taken: number;
  refunds: number;
  refunded: number;
  /** What the provider pays out to the educator for the period: taken less refunded. */
  net: number;
}

/** Folds the period's takings and refunds per provider into one row each, largest net first. */
export function providerFigures(taken: { provider: string; count: number; amount: number }[], refunded: { provider: string; count: number; amount: number }[]): ProviderFigures[] {
  const rows = new Map<string, ProviderFigures>();
  const row = (provider: string) => {
    let r = rows.get(provider);
    if (!r) rows.set(provider, r = { provider, payments: 0, taken: 0, refunds: 0, refunded: 0, net: 0 });
    return r;
  };
  for (const t of taken) { const r = row(t.provider); r.payments += Number(t.count); r.taken += Number(t.amount); }
  for (const t of refunded) { const r = row(t.provider); r.refunds += Number(t.count); r.refunded += Number(t.amount); }
  for (const r of rows.values()) r.net = r.taken - r.refunded;
  return [...rows.values()].sort((a, b) => b.net - a.net || a.provider.localeCompare(b.provider));
}

export interface FeeFigures {
  /** Platform fees on what was sold in the period. */
  charged: number;
  /** Of those, the ones learners paid on top (the educator does not absorb the fee). */
  paidByLearners: number;
  /** The ones taken out of the educator's price (absorbed). */
  absorbed: number;
  /** Fees given back with refunds made in the period (spec 1: the platform refunds its fees). */
  refunded: number;
  /** Sales the fees were charged on. */
  sales: number;
}

export const NO_FEES: FeeFigures = { charged: 0, paidByLearners: 0, absorbed: 0, refunded: 0, sales: 0 };

/** Adds one paid sale's cost summary to the fee figures (a summary without a fee adds nothing but the sale). */
export function addFee(f: FeeFigures, summary: { platform_fee?: unknown; fees_absorbed?: unknown } | null): FeeFigures {
  const fee = Math.max(0, Math.round(Number(summary?.platform_fee ?? 0)) || 0);
  const absorbed = summary?.fees_absorbed !== false;
  return {
    ...f,
    sales: f.sales + 1,
    charged: f.charged + fee,
    paidByLearners: f.paidByLearners + (absorbed ? 0 : fee),
    absorbed: f.absorbed + (absorbed ? fee : 0),
  };
}

export const GIFT_CARD_CSV_HEADER = ['Gift card', 'Code ends', 'Sold', 'Amount (pence)', 'Balance (pence)', 'Redeemed (pence)', 'Redemptions', 'Currency', 'Expires', 'Buyer name', 'Buyer email', 'Recipient name', 'Recipient email', 'Sent to recipient'] as const;
export const MEMBER_CSV_HEADER = ['Membership', 'Plan', 'Status', 'Ended because', 'First name', 'Last name', 'Email', 'Price (pence)', 'Currency', 'Joined', 'Current period ends', 'Renews', 'Renewal attempts', 'Last failed payment', 'Failure', 'To chase'] as const;

/** The last four characters of a gift card's code: the code is what spends the card, so the admin shows only its end. */
export const codeEnd = (code: string): string => code.slice(-4);
