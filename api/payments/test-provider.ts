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
import { randomBytesPooled } from '../shared/ids.ts';
import type { Db } from '../../db/client.ts';
import type { TestPaymentRow } from '../../db/schema/checkout.ts';
import type {
  PaymentError, PaymentProvider, PaymentStatus, ProviderAdapter, ProviderPayment, ProviderRefund, RecurringCharge, RecurringProvider, RefundRequest,
} from './types.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';

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
    const row = await insertTestPayment(this.db, {
      id, clientSecret: `${id}_secret_${token(16)}`, amount, currency, status: 'requires_payment_method', metadata, now: this.options.now(),
    });
    return toPayment(row);
  }

  async retrievePayment(id: string): Promise<ProviderPayment | null> {
    const row = await this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPayment(row) : null;
  }

  async cancelPayment(id: string): Promise<void> {
    await cancelTestPayment(this.db, id, this.options.now(), ['requires_payment_method', 'requires_confirmation', 'requires_action']);
  }

  async refundPayment(id: string): Promise<void> {
    await refundAllTestPayment(this.db, id, this.options.now(), ['succeeded', 'requires_capture']);
  }

  async refund(paymentId: string, request: RefundRequest): Promise<ProviderRefund> {
    return refundTestPayment(this.db, paymentId, request, this.options.now());
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
    const card = input.cardNumber.replace(/[\s-]/g, '');
    const now = this.options.now();
    const { status, error } = cardOutcome(card);
    // One statement when the payment is this secret's and may be confirmed (the card element's every first try).
    const updated = await this.db
      .updateTable('test_payments')
      .set({ status, payment_error: error ? { ...error } : null, card_last4: card.slice(-4) || null, updated_at: now })
      .where('id', '=', id)
      .where('client_secret', '=', input.clientSecret)
      .where('status', 'in', CONFIRMABLE)
      .returningAll()
      .executeTakeFirst();
    if (updated) {
      // Only the authorisation page sends the browser on, to where the payment's checkout is.
      if (status === 'requires_action') {
        updated.return_url = input.returnUrl((updated.metadata ?? {}) as Record<string, string>) ?? updated.return_url;
        await this.db.updateTable('test_payments').set({ return_url: updated.return_url }).where('id', '=', id).execute();
      }
      if (error) return { ok: false, payment: toPayment(updated, input.redirectBase), error };
      return { ok: true, payment: toPayment(updated, input.redirectBase) };
    }
    const row = await this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || row.client_secret !== input.clientSecret) return null;
    // Confirmed already (a second tap, or a confirmation racing this one): its state.
    if (row.status === 'succeeded' || row.status === 'requires_action') return { ok: true, payment: toPayment(row, input.redirectBase) };
    if (!(CONFIRMABLE as string[]).includes(row.status)) {
      const unexpected: PaymentError = { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: `This payment is ${row.status}.` };
      return { ok: false, payment: toPayment(row, input.redirectBase), error: unexpected };
    }
    // Confirmable again by now: another confirmation has just been refused meanwhile.
    return { ok: false, payment: toPayment(row, input.redirectBase), error: { type: 'api_error', message: 'Payment is being processed.' } };
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

const CONFIRMABLE: PaymentStatus[] = ['requires_payment_method', 'requires_confirmation'];

/** What a test card number does to a payment (TEST_CARDS): succeed, ask for 3-D Secure, or be refused. */
function cardOutcome(card: string): { status: PaymentStatus; error: PaymentError | null } {
  if (card === TEST_CARDS.success) return { status: 'succeeded', error: null };
  if (card === TEST_CARDS.threeDSecure) return { status: 'requires_action', error: null };
  if (card === TEST_CARDS.declined) return { status: 'requires_payment_method', error: { type: 'card_error', code: 'card_declined', message: DECLINED_MESSAGE } };
  return { status: 'requires_payment_method', error: { type: 'validation_error', code: 'invalid_number', message: 'Your card number is invalid.' } };
}

/** A new payment of the built-in test providers (the test card's and the test wallet's share one table). */
export async function insertTestPayment(db: Db, input: {
  id: string; clientSecret: string; amount: number; currency: string; status: PaymentStatus; metadata: Record<string, string>; now: number;
}): Promise<TestPaymentRow> {
  const row = {
    id: input.id,
    client_secret: input.clientSecret,
    amount: input.amount,
    currency: input.currency.toUpperCase(),
    status: input.status,
    metadata: input.metadata,
    payment_error: null,
    return_url: null,
    card_last4: null,
    created_at: input.now,
    updated_at: input.now,
  };
  await db.insertInto('test_payments').values(row).execute();
  return row;
}

/** Cancels a test payment still in one of the states `from` (a settled one stays as it is). */
export async function cancelTestPayment(db: Db, id: string, now: number, from: PaymentStatus[]): Promise<void> {
  await db.updateTable('test_payments').set({ status: 'canceled', updated_at: now }).where('id', '=', id).where('status', 'in', from).execute();
}

/** The test provider's refusal, in the card provider's words (spec 8). */
function refused(message: string, code = 'charge_already_refunded'): ProblemError {
  return new ProblemError(problems.cardProvider({ type: 'invalid_request_error', code, message }));
}

/**
 * A refund of a test payment (card or wallet: one table), once per idempotency key, as a provider keeps one refund per
 * key: a key seen before answers with its refund. Never more than what is left of the payment; a payment refunded in
 * full becomes `refunded`. Each refund is a row of test_refunds, so tests count what the provider did.
 */
export async function refundTestPayment(db: Db, paymentId: string, request: RefundRequest, now: number): Promise<ProviderRefund> {
  const byKey = () => db.selectFrom('test_refunds').selectAll().where('idempotency_key', '=', request.idempotencyKey).executeTakeFirst();
  const seen = await byKey();
  if (seen) {
    if (seen.payment_id !== paymentId) throw refused('Keys for idempotent requests can only be used for the same request.', 'idempotency_key_in_use');
    return { id: seen.id, status: seen.status as ProviderRefund['status'], amount: Number(seen.amount) };
  }
  if (!Number.isSafeInteger(request.amount) || request.amount <= 0) throw refused('A refund needs a positive amount.', 'parameter_invalid_integer');
  const payment = await db.selectFrom('test_payments').selectAll().where('id', '=', paymentId).executeTakeFirst();
  if (!payment) throw refused(`No such payment: '${paymentId}'`, 'resource_missing');
  if (!['succeeded', 'requires_capture', 'refunded'].includes(payment.status)) throw refused(`This payment is ${payment.status}.`, 'payment_intent_unexpected_state');
  const done = await db.selectFrom('test_refunds').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
  const left = Number(payment.amount) - Number(done.total);
  if (request.amount > left) {
    throw refused(`Refund amount (${request.amount}) is greater than the amount left to refund (${Math.max(0, left)}).`, 'amount_too_large');
  }
  await db.insertInto('test_refunds').values({
    id: `tre_${token()}`, payment_id: paymentId, idempotency_key: request.idempotencyKey, amount: request.amount,
    currency: request.currency.toUpperCase(), status: 'succeeded', created_at: now,
  }).onConflict((oc) => oc.column('idempotency_key').doNothing()).execute();
  const made = (await byKey())!;
  if (request.amount === left) {
    await db.updateTable('test_payments').set({ status: 'refunded', updated_at: now }).where('id', '=', paymentId).execute();
  }
  return { id: made.id, status: made.status as ProviderRefund['status'], amount: Number(made.amount) };
}

/** Gives back all that is left of a test payment in one refund (the checkout's `refundPayment`). */
export async function refundAllTestPayment(db: Db, paymentId: string, now: number, from: string[]): Promise<void> {
  const payment = await db.selectFrom('test_payments').select(['amount', 'currency', 'status']).where('id', '=', paymentId).executeTakeFirst();
  if (!payment || !from.includes(payment.status)) return;
  const done = await db.selectFrom('test_refunds').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.lit(0)).as('total'))
    .where('payment_id', '=', paymentId).executeTakeFirstOrThrow();
  const left = Number(payment.amount) - Number(done.total);
  if (left > 0) {
    await db.insertInto('test_refunds').values({
      id: `tre_${token()}`, payment_id: paymentId, idempotency_key: `full_${paymentId}`, amount: left, currency: payment.currency,
      status: 'succeeded', created_at: now,
    }).onConflict((oc) => oc.column('idempotency_key').doNothing()).execute();
  }
  await db.updateTable('test_payments').set({ status: 'refunded', updated_at: now }).where('id', '=', paymentId).where('status', 'in', from).execute();
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
