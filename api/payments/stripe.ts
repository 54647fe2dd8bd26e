/**
 * The Stripe provider (card with device wallets, and Klarna as the pay-later method), used when
 * STRIPE_SECRET_KEY is set. It implements the checkout's PaymentProvider (types.ts).
 *
 * Payments are direct charges on the educator's connected account (educator_payment_accounts,
 * provider 'stripe'): every call carries that account in the `Stripe-Account` header. So that
 * `retrievePayment(id)` needs nothing else, the payment id we hand out names the account:
 * `{acct_…}:{pi_…}` (just `pi_…` when the educator has no connected account and the platform charges).
 *
 * - createPayment: a PaymentIntent (pence, gbp, automatic payment methods so the Payment Element
 *   shows card, device wallets and Klarna; metadata.checkout_id; idempotency key per checkout + amount).
 * - createSetup: a SetupIntent when nothing is charged now (its id is `seti_…`, retrieved the same way).
 * - memberships (StripeRecurringProvider, the adapter's `recurring`): the first payment is made for a Customer on the
 *   connected account with `setup_future_usage: 'off_session'`, so the card is saved for renewals; each renewal is an
 *   off-session PaymentIntent (`off_session`, `confirm`) with the renewal's idempotency key. Declines and
 *   `authentication_required` are a failed renewal (the retry rules of api/memberships/service.ts); a network or API
 *   failure throws, so the job tries the same attempt again with the same key and Stripe never charges it twice.
 * - retrievePayment: Stripe's current view; the engine decides with isPaymentSuccessful (spec 4).
 * - errors: every Stripe failure becomes the spec's card-provider problem (spec 8).
 *
 * STRIPE_API_BASE points the SDK at another host (tests use a fake server on 127.0.0.1).
 */
import Stripe from 'stripe';
import type { Config } from '../config.ts';
import type { Db } from '../../db/client.ts';
import { ProblemError, problems, type Problem } from '../../src/domain/problems.ts';
import {
  isPaymentSuccessful, type CreatePaymentOptions, type PaymentError, type PaymentProvider, type PaymentStatus, type ProviderPayment,
  type ProviderRefund, type RecurringCharge, type RecurringProvider, type RefundRequest,
} from './types.ts';

export const STRIPE_PROVIDER = 'stripe';

/** A Stripe payment as the checkout sees it, plus what the browser needs for Stripe.js. */
export interface StripeProviderPayment extends ProviderPayment {
  /** 'payment' (PaymentIntent) or 'setup' (SetupIntent). */
  kind: 'payment' | 'setup';
  /** The Stripe object id (pi_… / seti_…), without the account prefix. */
  intentId: string;
  /** The educator's connected account (stepState.payment keeps it; Stripe.js gets it as stripeAccount). */
  accountId: string | null;
}

export interface StripeProviderOptions {
  secretKey: string;
  /** e.g. 'https://api.stripe.com' or 'http://127.0.0.1:4010'. */
  apiBase?: string;
  /** Per-request timeout in milliseconds (the SDK's own default is 80 s). */
  timeoutMs?: number;
  /** The SDK's automatic retries (it adds idempotency keys to retried POSTs). */
  maxNetworkRetries?: number;
}

/** The SDK's host/port/protocol options from a base URL such as 'http://127.0.0.1:4010'. */
export function stripeHostOptions(apiBase: string): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** '{acct}:{pi}' ⇄ parts. Stripe ids never contain ':'. */
export function stripePaymentId(accountId: string | null, intentId: string): string {
  return accountId ? `${accountId}:${intentId}` : intentId;
}
export function parseStripePaymentId(id: string): { accountId: string | null; intentId: string } {
  const at = id.indexOf(':');
  return at < 0 ? { accountId: null, intentId: id } : { accountId: id.slice(0, at), intentId: id.slice(at + 1) };
}

/** Spec 8 "Card provider": any Stripe failure (API, network, unexpected) as the spec's problem. */
export function stripeErrorProblem(err: unknown): Problem {
  if (err instanceof ProblemError) return err.problem;
  if (err instanceof Stripe.errors.StripeError) {
    return problems.cardProvider({ type: err.rawType ?? err.type, code: err.code, message: err.message });
  }
  return problems.cardProvider(null);
}

/** Same checkout + amount → same PaymentIntent: a retry or a double click never makes a second one. */
export function paymentIdempotencyKey(checkoutId: string, amount: number, currency: string): string {
  return `checkout_${checkoutId}_payment_${amount}_${currency.toLowerCase()}`;
}
export function setupIdempotencyKey(checkoutId: string): string {
  return `checkout_${checkoutId}_setup`;
}

function checkoutIdOf(metadata: Record<string, string>): string | undefined {
  return metadata.checkout_id ?? metadata.checkoutId;
}
function educatorIdOf(metadata: Record<string, string>): string | undefined {
  return metadata.educator_id ?? metadata.educatorId;
}

export class StripePaymentProvider implements PaymentProvider {
  readonly name = STRIPE_PROVIDER;
  readonly displayName = 'Stripe';
  readonly stripe: Stripe;

  constructor(
    private readonly db: Db,
    options: StripeProviderOptions,
  ) {
    this.stripe = new Stripe(options.secretKey, {
      ...stripeHostOptions(options.apiBase ?? 'https://api.stripe.com'),
      timeout: options.timeoutMs ?? 20_000,
      maxNetworkRetries: options.maxNetworkRetries ?? 1,
      telemetry: false,
      appInfo: { name: 'course-marketplace' },
    });
  }

  static fromConfig(db: Db, config: Pick<Config, 'STRIPE_SECRET_KEY' | 'STRIPE_API_BASE'>): StripePaymentProvider {
    return new StripePaymentProvider(db, { secretKey: config.STRIPE_SECRET_KEY, apiBase: config.STRIPE_API_BASE });
  }

  /** The educator's connected account id (acct_…), or null when the educator has none. */
  async accountFor(educatorId: string | undefined): Promise<string | null> {
    if (!educatorId) return null;
    const row = await this.db
      .selectFrom('educator_payment_accounts')
      .select('account_id')
      .where('educator_id', '=', educatorId)
      .where('provider', '=', STRIPE_PROVIDER)
      .executeTakeFirst();
    return row?.account_id ?? null;
  }

  /**
   * A PaymentIntent for exactly `amount` pence on the educator's connected account.
   * metadata must carry `checkout_id` (the idempotency key uses it) and should carry `educator_id`
   * (whose connected account receives the money); it is stored on the intent as given.
   */
  async createPayment(amount: number, currency: string, metadata: Record<string, string>, options: CreatePaymentOptions = {}): Promise<StripeProviderPayment> {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('Stripe payments need a positive integer amount');
    const checkoutId = checkoutIdOf(metadata);
    if (!checkoutId) throw new Error('Stripe payments need metadata.checkout_id');
    const accountId = await this.accountFor(educatorIdOf(metadata));
    const params: Stripe.PaymentIntentCreateParams = {
      amount,
      currency: currency.toLowerCase(),
      automatic_payment_methods: { enabled: true },
      metadata: { ...metadata, checkout_id: checkoutId },
    };
    const key = paymentIdempotencyKey(checkoutId, amount, currency);
    try {
      if (options.saveForRenewals) {
        // The card is saved on a Customer of the connected account (where the renewals are charged), for off-session use.
        const buyer = options.saveForRenewals;
        const customer = await this.stripe.customers.create(
          { ...(buyer.email ? { email: buyer.email } : {}), ...(buyer.name ? { name: buyer.name } : {}), metadata: { checkout_id: checkoutId, ...(buyer.userId ? { user_id: buyer.userId } : {}) } },
          this.options(accountId, `checkout_${checkoutId}_customer`),
        );
        params.customer = customer.id;
        params.setup_future_usage = 'off_session';
      }
      let intent = await this.stripe.paymentIntents.create(params, this.options(accountId, key));
      // The key replays a payment canceled meanwhile (e.g. an expired hold): start a fresh one, still idempotent.
      if (intent.status === 'canceled') {
        intent = await this.stripe.paymentIntents.create(params, this.options(accountId, `${key}_after_${intent.id}`));
      }
      return fromPaymentIntent(intent, accountId);
    } catch (err) {
      throw new ProblemError(stripeErrorProblem(err));
    }
  }

  /** A SetupIntent (nothing charged now: a zero total, or pay later with saved details). */
  async createSetup(metadata: Record<string, string>): Promise<StripeProviderPayment> {
    const checkoutId = checkoutIdOf(metadata);
    if (!checkoutId) throw new Error('Stripe setups need metadata.checkout_id');
    const accountId = await this.accountFor(educatorIdOf(metadata));
    try {
      const intent = await this.stripe.setupIntents.create(
        { automatic_payment_methods: { enabled: true }, metadata: { ...metadata, checkout_id: checkoutId } },
        this.options(accountId, setupIdempotencyKey(checkoutId)),
      );
      return fromSetupIntent(intent, accountId);
    } catch (err) {
      throw new ProblemError(stripeErrorProblem(err));
    }
  }

  /** Stripe's current view of a payment (or setup) on its account; null when Stripe does not know it. */
  async retrievePayment(id: string): Promise<StripeProviderPayment | null> {
    const { accountId, intentId } = parseStripePaymentId(id);
    try {
      if (intentId.startsWith('seti_')) {
        return fromSetupIntent(await this.stripe.setupIntents.retrieve(intentId, {}, this.options(accountId)), accountId);
      }
      return fromPaymentIntent(await this.stripe.paymentIntents.retrieve(intentId, {}, this.options(accountId)), accountId);
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.statusCode === 404) return null;
      throw new ProblemError(stripeErrorProblem(err));
    }
  }

  /** Cancels a payment that has not succeeded; a payment Stripe refuses to cancel (already final) is left alone. */
  async cancelPayment(id: string): Promise<void> {
    const { accountId, intentId } = parseStripePaymentId(id);
    try {
      if (intentId.startsWith('seti_')) await this.stripe.setupIntents.cancel(intentId, {}, this.options(accountId));
      else await this.stripe.paymentIntents.cancel(intentId, {}, this.options(accountId));
    } catch (err) {
      if (err instanceof Stripe.errors.StripeError && err.code === 'payment_intent_unexpected_state') return;
      if (err instanceof Stripe.errors.StripeError && err.code === 'setup_intent_unexpected_state') return;
      throw new ProblemError(stripeErrorProblem(err));
    }
  }

  /** Gives the money back: refunds a succeeded payment, releases an authorised one (requires_capture). */
  async refundPayment(id: string): Promise<void> {
    const { accountId, intentId } = parseStripePaymentId(id);
    if (intentId.startsWith('seti_')) return;
    const payment = await this.retrievePayment(id);
    if (!payment) return;
    try {
      if (payment.status === 'requires_capture') {
        await this.stripe.paymentIntents.cancel(intentId, {}, this.options(accountId));
      } else if (payment.status === 'succeeded') {
        await this.stripe.refunds.create({ payment_intent: intentId }, this.options(accountId, `refund_${intentId}`));
      }
    } catch (err) {
      throw new ProblemError(stripeErrorProblem(err));
    }
  }

  /**
   * A refund of `amount` pence of a PaymentIntent, once per key. Stripe replays a key for 24 hours; so that a refund
   * asked again later (the reconciler finishing one whose answer was lost) is never made twice, the refunds of the
   * intent are looked through first for one made with this key (kept in its metadata as `refund_key`).
   */
  async refund(id: string, request: RefundRequest): Promise<ProviderRefund> {
    const { accountId, intentId } = parseStripePaymentId(id);
    if (!intentId.startsWith('pi_')) throw new ProblemError(problems.cardProvider({ type: 'invalid_request_error', message: 'Nothing was charged.' }));
    try {
      const made = await this.stripe.refunds.list({ payment_intent: intentId, limit: 100 }, this.options(accountId));
      const earlier = made.data.find((r) => r.metadata?.refund_key === request.idempotencyKey);
      if (earlier) return fromRefund(earlier);
      const refund = await this.stripe.refunds.create(
        { payment_intent: intentId, amount: request.amount, metadata: { ...(request.metadata ?? {}), refund_key: request.idempotencyKey } },
        this.options(accountId, request.idempotencyKey),
      );
      return fromRefund(refund);
    } catch (err) {
      throw new ProblemError(stripeErrorProblem(err));
    }
  }

  private options(accountId: string | null, idempotencyKey?: string): Stripe.RequestOptions {
    return { ...(accountId ? { stripeAccount: accountId } : {}), ...(idempotencyKey ? { idempotencyKey } : {}) };
  }
}

/** A Stripe refund's status in ours: `pending` (and `requires_action`) settle later; `failed` / `canceled` gave nothing back. */
function fromRefund(refund: Stripe.Refund): ProviderRefund {
  const status = refund.status === 'succeeded' ? 'succeeded' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
  return { id: refund.id, status, amount: refund.amount };
}

function lastError(error: Stripe.PaymentIntent.LastPaymentError | Stripe.SetupIntent.LastSetupError | null | undefined): PaymentError | null {
  if (!error) return null;
  return { type: error.type, ...(error.code ? { code: error.code } : {}), ...(error.message ? { message: error.message } : {}) };
}

function nextAction(action: Stripe.PaymentIntent.NextAction | Stripe.SetupIntent.NextAction | null | undefined): ProviderPayment['nextAction'] {
  return action?.type === 'redirect_to_url' && action.redirect_to_url?.url ? { type: 'redirect', url: action.redirect_to_url.url } : null;
}

function fromPaymentIntent(intent: Stripe.PaymentIntent, accountId: string | null): StripeProviderPayment {
  if (!intent.client_secret) throw new ProblemError(problems.cardProvider(null));
  return {
    id: stripePaymentId(accountId, intent.id),
    kind: 'payment',
    intentId: intent.id,
    accountId,
    clientSecret: intent.client_secret,
    status: intent.status as PaymentStatus,
    amount: intent.amount,
    currency: intent.currency.toUpperCase(),
    metadata: { ...(intent.metadata ?? {}) },
    lastError: lastError(intent.last_payment_error),
    nextAction: nextAction(intent.next_action),
  };
}

function fromSetupIntent(intent: Stripe.SetupIntent, accountId: string | null): StripeProviderPayment {
  if (!intent.client_secret) throw new ProblemError(problems.cardProvider(null));
  return {
    id: stripePaymentId(accountId, intent.id),
    kind: 'setup',
    intentId: intent.id,
    accountId,
    clientSecret: intent.client_secret,
    status: intent.status as PaymentStatus,
    amount: 0,
    currency: '',
    metadata: { ...(intent.metadata ?? {}) },
    lastError: lastError(intent.last_setup_error),
    nextAction: nextAction(intent.next_action),
  };
}

/** A saved card as the membership keeps it (`memberships.provider_customer_id`): '{acct}:{cus}:{pm}', or '{cus}:{pm}' on the platform. */
export function stripeCustomerRef(accountId: string | null, customerId: string, paymentMethodId: string): string {
  return [accountId, customerId, paymentMethodId].filter(Boolean).join(':');
}
export function parseStripeCustomerRef(ref: string): { accountId: string | null; customerId: string; paymentMethodId: string } | null {
  const parts = ref.split(':');
  if (parts.length === 3 && parts.every(Boolean)) return { accountId: parts[0]!, customerId: parts[1]!, paymentMethodId: parts[2]! };
  if (parts.length === 2 && parts.every(Boolean)) return { accountId: null, customerId: parts[0]!, paymentMethodId: parts[1]! };
  return null;
}

/** The failure a member is told of: Stripe's message, or what an off-session authentication request means for them. */
function renewalFailure(error: { code?: string | null; message?: string | null } | null | undefined): string {
  if (error?.code === 'authentication_required') return 'Your bank asked to confirm this payment, which cannot be done while you are away.';
  return error?.message || 'Your card was declined.';
}

/**
 * Stripe's side of memberships' renewals: the saved card of the first payment (`customerFromPayment`) and an
 * off-session charge of it per renewal attempt, idempotent by the attempt's key.
 */
export class StripeRecurringProvider implements RecurringProvider {
  constructor(private readonly payments: StripePaymentProvider) {}

  /** The Customer and card of a succeeded first payment made with `saveForRenewals`; null otherwise. */
  async customerFromPayment(paymentId: string): Promise<string | null> {
    const { accountId, intentId } = parseStripePaymentId(paymentId);
    if (!intentId.startsWith('pi_')) return null;
    try {
      const intent = await this.payments.stripe.paymentIntents.retrieve(intentId, {}, accountId ? { stripeAccount: accountId } : {});
      const customer = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
      const method = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
      if (!isPaymentSuccessful(intent.status) || !customer || !method) return null;
      return stripeCustomerRef(accountId, customer, method);
    } catch (err) {
      throw new ProblemError(stripeErrorProblem(err));
    }
  }

  async chargeRenewal(input: { customerId: string; amount: number; currency: string; idempotencyKey: string; metadata: Record<string, string> }): Promise<RecurringCharge> {
    const saved = parseStripeCustomerRef(input.customerId);
    if (!saved) return { ok: false, paymentId: null, failure: 'No payment method on file' };
    const options: Stripe.RequestOptions = { ...(saved.accountId ? { stripeAccount: saved.accountId } : {}), idempotencyKey: input.idempotencyKey };
    try {
      const intent = await this.payments.stripe.paymentIntents.create({
        amount: input.amount,
        currency: input.currency.toLowerCase(),
        customer: saved.customerId,
        payment_method: saved.paymentMethodId,
        off_session: true,
        confirm: true,
        // Nothing can redirect the member: they are not there.
        automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
        metadata: input.metadata,
      }, options);
      const paymentId = stripePaymentId(saved.accountId, intent.id);
      if (isPaymentSuccessful(intent.status)) return { ok: true, paymentId, failure: null };
      return { ok: false, paymentId, failure: renewalFailure(intent.last_payment_error) };
    } catch (err) {
      // A decline or a bank asking for authentication is an answer (the attempt failed); anything else is not, and
      // the job tries this attempt again with the same key.
      if (err instanceof Stripe.errors.StripeCardError) {
        const intent = err.payment_intent;
        return { ok: false, paymentId: intent?.id ? stripePaymentId(saved.accountId, intent.id) : null, failure: renewalFailure(err) };
      }
      throw new ProblemError(stripeErrorProblem(err));
    }
  }
}
