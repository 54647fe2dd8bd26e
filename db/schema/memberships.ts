/** Tables of memberships (migration 0080): plans, learners' memberships, their payments and credit uses. */
import type { WithDefault } from './columns.ts';
import type { PlanInterval } from '../../src/domain/memberships.ts';

export interface MembershipPlansTable {
  id: string;
  educator_id: string;
  name: string;
  description: WithDefault<string>;
  interval: PlanInterval;
  /** A pass: how many months it lasts (null for month and year plans). */
  pass_months: number | null;
  /** Pence per period (or for the pass). */
  price: number;
  currency: WithDefault<string>;
  /** 0–100: off every eligible course's offers. */
  discount_percent: WithDefault<number>;
  /** Credits given each period; each pays for one space on an eligible course. */
  credits_per_period: WithDefault<number>;
  /** The eligible courses; null: every course of the educator. */
  course_ids: string[] | null;
  position: WithDefault<number>;
  listed: WithDefault<boolean>;
  created_at: number;
  revision: WithDefault<number>;
}

export type MembershipStatus = 'active' | 'past_due' | 'ended';

export interface MembershipsTable {
  id: string;
  plan_id: string;
  educator_id: string;
  user_id: string;
  checkout_id: string | null;
  status: MembershipStatus;
  payment_method: string | null;
  /** The recurring provider's registered name ('test-recurring', 'stripe'). */
  provider: string | null;
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  price: number;
  currency: string;
  /** The instant the first period started: every period boundary is counted from it (api/../memberships.ts). */
  anchor_at: number;
  /** 0 for the first period, +1 at each renewal. */
  period_index: WithDefault<number>;
  current_period_start: number;
  current_period_end: number;
  credits_left: WithDefault<number>;
  cancel_at_period_end: WithDefault<boolean>;
  cancel_requested_at: number | null;
  ended_at: number | null;
  /** 'cancelled' | 'payment_failed' | 'pass_expired' */
  end_reason: string | null;
  renewal_attempts: WithDefault<number>;
  /** When the renewal job next looks at it (period end, or the next retry after a failure); null: never. */
  next_attempt_at: number | null;
  /** A renewal run claimed it (so two workers never charge it twice at once). */
  claimed_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface MembershipPaymentsTable {
  id: string;
  membership_id: string;
  educator_id: string;
  kind: 'join' | 'renewal';
  period_index: number;
  attempt: WithDefault<number>;
  period_start: number;
  period_end: number;
  amount: number;
  currency: string;
  status: 'paid' | 'failed';
  provider: string | null;
  provider_payment_id: string | null;
  receipt_number: string | null;
  failure: string | null;
  created_at: number;
}

export interface MembershipCreditUsesTable {
  id: string;
  membership_id: string;
  period_index: number;
  checkout_id: string;
  booking_id: string | null;
  value: number;
  created_at: number;
}

/** A credit taken off a period while its checkout is at Payment (migration 0180); committed with the booking. */
export interface MembershipCreditHoldsTable {
  id: string;
  membership_id: string;
  checkout_id: string;
  period_index: number;
  status: 'held' | 'committed' | 'released';
  expires_at: number;
  created_at: number;
  updated_at: number;
}

export interface TestClocksTable {
  id: string;
  offset_seconds: number;
}

export interface MembershipTables {
  test_clocks: TestClocksTable;
  membership_plans: MembershipPlansTable;
  memberships: MembershipsTable;
  membership_payments: MembershipPaymentsTable;
  membership_credit_uses: MembershipCreditUsesTable;
  membership_credit_holds: MembershipCreditHoldsTable;
}
