/**
 * The built-in test provider (DESIGN §6): stands in for a card provider's servers, with its state in
 * the database (table test_payments) so that any API process sees the same payments.
 *
 * Test cards:
 * - 4242424242424242 succeeds;
 * - 4000000000000002 is declined (card_error 'Your card was declined.');
 * - 4000002500003155 needs a 3-D Secure style redirect: the payment becomes `requires_action` with a
 *   redirect to /api/test-payments/{id}/authorize on our own server, which completes it (or fails it
 *   with ?result=fail) and returns to the checkout with payment_intent_client_secret and redirect_status.
 * Any other number is refused as invalid card details (validation_error).
 */
import { createHash } from 'node:crypto';
import { randomBytesPooled } from '../auth/crypto.ts';
import type { Db } from '../../db/client.ts';
import type { TestPaymentRow } from '../../db/schema/checkout.ts';
import type { PaymentError, PaymentProvider, PaymentStatus, ProviderAdapter, ProviderPayment, RecurringCharge, RecurringProvider } from './types.ts';

export const TEST_CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002',
  threeDSecure: '4000002500003155',
} as const;

export const DECLINED_MESSAGE = 'Your card was declined.';

export interface TestProviderOptions {
  /** Clock in epoch seconds. */
  now(): number;
}

export type ConfirmResult =
  | { ok: true; payment: ProviderPayment }
  | { ok: false; payment: ProviderPayment; error: PaymentError };

function token(bytes = 12): string {
  return randomBytesPooled(bytes).toString('base64url');
}

export const TEST_CARD_PROVIDER = 'test';

export class TestPaymentProvider implements PaymentProvider {
  readonly name = TEST_CARD_PROVIDER;
  readonly displayName = 'Test card';

  constructor(private readonly db: Db, private readonly options: TestProviderOptions) {}

  async createPayment(amount: number, currency: string, metadata: Record<string, string>): Promise<ProviderPayment> {
    if (!Number.isInteger(amount) || amount <= 0) throw new Error('Test payments need a positive integer amount');
    const id = `tpi_${token()}`;
    const now = this.options.now();
    const row = {
      id,
      client_secret: `${id}_secret_${token(16)}`,
      amount,
      currency: currency.toUpperCase(),
      status: 'requires_payment_method',
      metadata,
      payment_error: null,
      return_url: null,
      card_last4: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto('test_payments').values(row).execute();
    return toPayment({ ...row });
  }

  async retrievePayment(id: string): Promise<ProviderPayment | null> {
    const row = await this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPayment(row) : null;
  }

  async cancelPayment(id: string): Promise<void> {
    await this.db
      .updateTable('test_payments')
      .set({ status: 'canceled', updated_at: this.options.now() })
      .where('id', '=', id)
      .where('status', 'in', ['requires_payment_method', 'requires_confirmation', 'requires_action'])
      .execute();
  }

  async refundPayment(id: string): Promise<void> {
    await this.db
      .updateTable('test_payments')
      .set({ status: 'refunded', updated_at: this.options.now() })
      .where('id', '=', id)
      .where('status', 'in', ['succeeded', 'requires_capture'])
      .execute();
  }

  /**
   * What the card element does in the browser: confirm with a card number and the payment's client secret (null,
   * as for no such payment, when it is not this payment's). Each transition is a conditional update, so two
   * confirmations of one payment cannot both succeed. `redirectBase` is our own origin (the authorisation page lives
   * there); `returnUrl` gives, from the payment's metadata, where the authorisation page sends the browser afterwards.
   */
  async confirm(id: string, input: {
    cardNumber: string; clientSecret: string; returnUrl: (metadata: Record<string, string>) => string | null; redirectBase: string;
  }): Promise<ConfirmResult | null> {
    const row = await this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.client_secret !== input.clientSecret) return null;
    const card = input.cardNumber.replace(/[\s-]/g, '');
    const now = this.options.now();
    const confirmable = ['requires_payment_method', 'requires_confirmation'];
    if (!confirmable.includes(row.status)) {
      if (row.status === 'succeeded' || row.status === 'requires_action') return { ok: true, payment: toPayment(row, input.redirectBase) };
      const error: PaymentError = { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This payment is ${row.status}.` };
      return { ok: false, payment: toPayment(row, input.redirectBase), error };
    }
    let status: PaymentStatus;
    let error: PaymentError | null = null;
    if (card === TEST_CARDS.success) status = 'succeeded';
    else if (card === TEST_CARDS.threeDSecure) status = 'requires_action';
    else if (card === TEST_CARDS.declined) {
      status = 'requires_payment_method';
      error = { type: 'card_error', code: 'card_declined', message: DECLINED_MESSAGE };
    } else {
      status = 'requires_payment_method';
      error = { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' };
    }
    const updated = await this.db
      .updateTable('test_payments')
      .set({
        status,
        payment_error: error ? { ...error } : null,
        card_last4: card.slice(-4) || null,
        return_url: input.returnUrl((row.metadata ?? {}) as Record<string, string>) ?? row.return_url,
        updated_at: now,
      })
      .where('id', '=', id)
      .where('status', 'in', confirmable)
      .returningAll()
      .executeTakeFirst();
    if (!updated) {
      // Someone else confirmed it meanwhile: report its state.
      const current = await this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return isOk(current.status) ? { ok: true, payment: toPayment(current, input.redirectBase) } : {
        ok: false, payment: toPayment(current, input.redirectBase), error: { type: 'api_error', message: 'Payment is being processed.' },
      };
    }
    if (error) return { ok: false, payment: toPayment(updated, input.redirectBase), error };
    return { ok: true, payment: toPayment(updated, input.redirectBase) };
  }

  /** The 3-D Secure page's answer: completes (or fails) a payment that requires action. */
  async authorize(id: string, succeed: boolean): Promise<TestPaymentRow | null> {
    const now = this.options.now();
    await this.db
      .updateTable('test_payments')
      .set(succeed
        ? { status: 'succeeded', payment_error: null, updated_at: now }
        : {
            status: 'requires_payment_method',
            payment_error: { type: 'invalid_request_error', code: 'payment_intent_authentication_failure', message: 'Authentication failed.' },
            updated_at: now,
          })
      .where('id', '=', id)
      .where('status', '=', 'requires_action')
      .execute();
    const row = await this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
    return row ?? null;
  }
}

function isOk(status: string): boolean {
  return status === 'succeeded' || status === 'requires_action';
}

export function testAuthorizeUrl(id: string, redirectBase = ''): string {
  return `${redirectBase.replace(/\/$/, '')}/api/test-payments/${encodeURIComponent(id)}/authorize`;
}

export function toPayment(row: Pick<TestPaymentRow, 'id' | 'client_secret' | 'status' | 'amount' | 'currency' | 'metadata' | 'payment_error'>, redirectBase = ''): ProviderPayment {
  return {
    id: row.id,
    clientSecret: row.client_secret,
    status: row.status as PaymentStatus,
    amount: Number(row.amount),
    currency: row.currency,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    lastError: (row.payment_error as PaymentError | null) ?? null,
    nextAction: row.status === 'requires_action' ? { type: 'redirect', url: testAuthorizeUrl(row.id, redirectBase) } : null,
  };
}

/**
 * Renewals with the test provider: the card that paid the first period is kept as the customer
 * ('tcus_{last 4 digits}'); a renewal with 4242… succeeds, any other card is declined. Tests change the card on
 * file (/api/test-payments/memberships/{id}/card) to make the next renewal fail.
 */
export class TestRecurringProvider implements RecurringProvider {
  constructor(private readonly db: Db, private readonly now: () => number) {}

  async customerFromPayment(paymentId: string): Promise<string | null> {
    const row = await this.db.selectFrom('test_payments').select(['card_last4', 'status']).where('id', '=', paymentId).executeTakeFirst();
    return row?.card_last4 ? `tcus_${row.card_last4}` : null;
  }

  async chargeRenewal(input: { customerId: string; amount: number; currency: string; idempotencyKey: string; metadata: Record<string, string> }): Promise<RecurringCharge> {
    const id = `tpi_${createHash('sha256').update(input.idempotencyKey).digest('base64url').slice(0, 16)}`;
    const existing = await this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
    if (existing) return { ok: existing.status === 'succeeded', paymentId: id, failure: existing.status === 'succeeded' ? null : DECLINED_MESSAGE };
    const ok = input.customerId === `tcus_${TEST_CARDS.success.slice(-4)}`;
    const now = this.now();
    await this.db.insertInto('test_payments').values({
      id, client_secret: `${id}_secret_${token(16)}`, amount: input.amount, currency: input.currency.toUpperCase(),
      status: ok ? 'succeeded' : 'requires_payment_method', metadata: input.metadata,
      payment_error: ok ? null : { type: 'card_error', code: 'card_declined', message: DECLINED_MESSAGE },
      return_url: null, card_last4: input.customerId.replace(/^tcus_/, '').slice(-4) || null, created_at: now, updated_at: now,
    }).execute();
    return { ok, paymentId: id, failure: ok ? null : DECLINED_MESSAGE };
  }
}

/** The test card provider's registration: card and pay-later, only in PAYMENTS_MODE=test. */
export const testCardAdapter: ProviderAdapter = {
  name: TEST_CARD_PROVIDER,
  displayName: 'Test card',
  methods: ['card', 'klarna'],
  mode: 'test',
  configured: () => true,
  create: (deps) => new TestPaymentProvider(deps.db, { now: () => deps.now() }),
  browser: () => ({ provider: 'test' }),
  recurring: (deps) => new TestRecurringProvider(deps.db, () => deps.now()),
};
