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
import type { PaymentProvider, ProviderAdapter, ProviderPayment, ProviderRefund, RefundRequest } from './types.ts';
import { cancelTestPayment, insertTestPayment, refundAllTestPayment, refundTestPayment, toPayment } from './test-provider.ts';

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
    const row = await insertTestPayment(this.db, {
      id, clientSecret: id, amount, currency, status: 'requires_confirmation', metadata: { ...metadata, test_wallet_scenario: scenario }, now: this.options.now(),
    });
    // A wallet order never waits for a 3-D Secure page, so the shared view has no next action for it.
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
    await cancelTestPayment(this.db, id, this.options.now(), ['requires_payment_method', 'requires_confirmation']);
  }

  async refundPayment(id: string): Promise<void> {
    if (!id.startsWith('TESTWALLET-')) return;
    await refundAllTestPayment(this.db, id, this.options.now(), ['succeeded']);
  }

  /** A refund of a captured order (all or part of it), once per key, as PayPal's PayPal-Request-Id makes it. */
  async refund(paymentId: string, request: RefundRequest): Promise<ProviderRefund> {
    if (!paymentId.startsWith('TESTWALLET-')) throw new ProblemError(problems.walletProvider('sdk_error', TEST_WALLET_DISPLAY_NAME));
    return refundTestPayment(this.db, paymentId, request, this.options.now());
  }

  private async row(id: string): Promise<TestPaymentRow | undefined> {
    if (!id.startsWith('TESTWALLET-')) return undefined;
    return this.db.selectFrom('test_payments').selectAll().where('id', '=', id).executeTakeFirst();
  }
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
