/**
 * The built-in wallet-payment simulation, used for the `paypal` method when PAYPAL_CLIENT_ID is not
 * set (DESIGN 6). It behaves like PayPalPaymentProvider: an order is created for exactly the amount,
 * the buyer's approval is simulated at once, and `capturePayment` answers COMPLETED — or fails.
 * Its state lives in the test provider's table (test_payments), so every API process sees it.
 *
 * Scenarios, fixed when the order is created:
 * - COMPLETED (default): the capture completes;
 * - DECLINED: the payment is refused → payment_failed (400) — also chosen by an amount of 1313 pence (£13.13),
 *   so a person can try a refusal from the browser, as with the test provider's decline card;
 * - ERROR: the capture call fails → capture_error (500).
 * metadata.test_wallet_scenario picks one explicitly.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client.ts';
import type { TestPaymentRow } from '../../db/schema/checkout.ts';
import { ProblemError, problems, type WalletFailureKind } from '../../src/domain/problems.ts';
import type { PaymentError, PaymentProvider, PaymentStatus, ProviderAdapter, ProviderPayment } from './types.ts';

export const TEST_WALLET_PROVIDER = 'test-wallet';
/** The simulated provider stands in for PayPal, so its errors name PayPal (spec 8 sdk_error). */
export const TEST_WALLET_DISPLAY_NAME = 'PayPal';
export const TEST_WALLET_DECLINED_AMOUNT = 1313;

export type TestWalletScenario = 'COMPLETED' | 'DECLINED' | 'ERROR';
const SCENARIOS: readonly TestWalletScenario[] = ['COMPLETED', 'DECLINED', 'ERROR'];

function walletError(kind: WalletFailureKind): ProblemError {
  return new ProblemError(problems.walletProvider(kind, TEST_WALLET_DISPLAY_NAME));
}

export class TestWalletProvider implements PaymentProvider {
  readonly name = TEST_WALLET_PROVIDER;
  readonly displayName = TEST_WALLET_DISPLAY_NAME;

  constructor(
    private readonly db: Db,
    private readonly options: { now(): number },
  ) {}

  /** An order the simulated buyer has already approved (status requires_confirmation: waiting for capture). */
  async createPayment(amount: number, currency: string, metadata: Record<string, string>): Promise<ProviderPayment> {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('Test wallet payments need a positive integer amount');
    const asked = metadata.test_wallet_scenario as TestWalletScenario | undefined;
    const scenario: TestWalletScenario = asked && SCENARIOS.includes(asked) ? asked : amount === TEST_WALLET_DECLINED_AMOUNT ? 'DECLINED' : 'COMPLETED';
    const id = `TESTWALLET-${randomBytes(9).toString('hex').toUpperCase()}`;
    const now = this.options.now();
    const row = {
      id,
      client_secret: id,
      amount,
      currency: currency.toUpperCase(),
      status: 'requires_confirmation',
      metadata: { ...metadata, test_wallet_scenario: scenario },
      payment_error: null,
      return_url: null,
      card_last4: null,
      created_at: now,
      updated_at: now,
    };
    await this.db.insertInto('test_payments').values(row).execute();
    return toPayment(row);
  }

  async retrievePayment(id: string): Promise<ProviderPayment | null> {
    const row = await this.row(id);
    return row ? toPayment(row) : null;
  }

  /**
   * The capture: resolves only with a succeeded payment (status COMPLETED), for this checkout and amount
   * when given; otherwise throws the spec 8 wallet problem. Capturing again returns the same result.
   */
  async capturePayment(id: string, expect: { checkoutId?: string; amount?: number; currency?: string } = {}): Promise<ProviderPayment> {
    const row = await this.row(id);
    if (!row) throw walletError('capture_error');
    const scenario = (row.metadata as Record<string, string>).test_wallet_scenario as TestWalletScenario;
    if (scenario === 'ERROR') throw walletError('capture_error');
    const now = this.options.now();
    if (scenario === 'DECLINED') {
      await this.db
        .updateTable('test_payments')
        .set({ status: 'requires_payment_method', payment_error: { type: 'payment_failed', code: 'DECLINED' }, updated_at: now })
        .where('id', '=', id)
        .where('status', '=', 'requires_confirmation')
        .execute();
      throw walletError('payment_failed');
    }
    await this.db
      .updateTable('test_payments')
      .set({ status: 'succeeded', updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'requires_confirmation')
      .execute();
    const payment = toPayment((await this.row(id))!);
    if (payment.status !== 'succeeded') throw walletError('payment_failed');
    const mismatch =
      (expect.checkoutId !== undefined && (payment.metadata.checkout_id ?? payment.metadata.checkoutId) !== expect.checkoutId) ||
      (expect.amount !== undefined && payment.amount !== expect.amount) ||
      (!!expect.currency && payment.currency !== expect.currency.toUpperCase());
    if (mismatch) throw walletError('capture_error');
    return payment;
  }

  async cancelPayment(id: string): Promise<void> {
    await this.db
      .updateTable('test_payments')
      .set({ status: 'canceled', updated_at: this.options.now() })
      .where('id', '=', id)
      .where('status', 'in', ['requires_payment_method', 'requires_confirmation'])
      .execute();
  }

  async refundPayment(id: string): Promise<void> {
    await this.db
      .updateTable('test_payments')
      .set({ status: 'refunded', updated_at: this.options.now() })
      .where('id', '=', id)
      .where('status', '=', 'succeeded')
      .execute();
  }

  private async row(id: string): Promise<TestPaymentRow | undefined> {
    if (!id.startsWith('TESTWALLET-')) return undefined;
    return this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
  }
}

function toPayment(row: Pick<TestPaymentRow, 'id' | 'client_secret' | 'status' | 'amount' | 'currency' | 'metadata' | 'payment_error'>): ProviderPayment {
  return {
    id: row.id,
    clientSecret: row.client_secret,
    status: row.status as PaymentStatus,
    amount: Number(row.amount),
    currency: row.currency,
    metadata: (row.metadata ?? {}) as Record<string, string>,
    lastError: (row.payment_error as PaymentError | null) ?? null,
    nextAction: null,
  };
}

/** The test wallet's registration: the wallet method, captured like PayPal, only in PAYMENTS_MODE=test. */
export const testWalletAdapter: ProviderAdapter = {
  name: TEST_WALLET_PROVIDER,
  displayName: TEST_WALLET_DISPLAY_NAME,
  methods: ['paypal'],
  mode: 'test',
  configured: () => true,
  create: (deps) => new TestWalletProvider(deps.db, { now: () => deps.now() }),
  browser: () => ({ provider: 'test-wallet' }),
};
