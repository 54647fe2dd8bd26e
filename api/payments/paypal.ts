/**
 * The wallet-payment provider: a small PayPal Orders v2 REST client (PayPalClient) and the checkout's
 * PaymentProvider over it (PayPalPaymentProvider), used when PAYPAL_CLIENT_ID is set.
 * fetch with AbortSignal.timeout; base URL from PAYPAL_BASE_URL (tests use a fake server on 127.0.0.1).
 *
 * - token: OAuth2 client credentials. The access token is kept in memory until shortly before it
 *   expires — only an optimisation: any process can fetch its own, and a 401 fetches a new one.
 * - createOrder: intent CAPTURE, GBP in pounds with 2 decimals, custom_id = checkout id,
 *   PayPal-Request-Id so a retry returns the same order.
 * - captureOrder: success only when the order and its capture are COMPLETED (spec 4).
 * - errors → spec 8 wallet problems: payment_failed 400, capture_error 500, sdk_error 500.
 */
import type { Config } from '../config.ts';
import type { Db } from '../../db/client.ts';
import { ProblemError, problems, type Problem, type WalletFailureKind } from '../../src/domain/problems.ts';
import { walletCaptureSucceeded } from '../../src/domain/checkout/outcomes.ts';
import type { PaymentProvider, PaymentStatus, ProviderPayment, ProviderRefund, RefundRequest } from './types.ts';

export const PAYPAL_PROVIDER = 'paypal';
/** The provider's name in the sdk_error message (spec 8). */
export const PAYPAL_DISPLAY_NAME = 'PayPal';

/** Capture failures that are the buyer's payment being refused (→ payment_failed, 400), per PayPal's 422 issues. */
const PAYMENT_FAILED_ISSUES = new Set([
  'INSTRUMENT_DECLINED',
  'PAYER_ACTION_REQUIRED',
  'ORDER_NOT_APPROVED',
  'PAYER_CANNOT_PAY',
  'TRANSACTION_REFUSED',
  'PAYEE_BLOCKED_TRANSACTION',
  'COMPLIANCE_VIOLATION',
  'MAX_NUMBER_OF_PAYMENT_ATTEMPTS_EXCEEDED',
  'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING',
  'CARD_EXPIRED',
  'PAYER_ACCOUNT_RESTRICTED',
  'PAYER_ACCOUNT_LOCKED_OR_CLOSED',
]);

/** 1234 pence → '12.34' (integer arithmetic, no floating point). */
export function penceToDecimal(pence: number): string {
  if (!Number.isSafeInteger(pence) || pence < 0) throw new Error(`Invalid amount ${pence}`);
  return `${Math.floor(pence / 100)}.${String(pence % 100).padStart(2, '0')}`;
}

/** '12.34' → 1234; '12' → 1200; anything else → NaN. */
export function decimalToPence(value: string): number {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value.trim());
  if (!m) return Number.NaN;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** A failed PayPal call: the HTTP status and PayPal's error body (name, details[].issue, debug_id). */
export class PayPalHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: PayPalErrorBody | null,
  ) {
    super(`PayPal answered ${status}${body?.name ? ` ${body.name}` : ''}${body?.debug_id ? ` (debug_id ${body.debug_id})` : ''}`);
    this.name = 'PayPalHttpError';
  }
  get issues(): string[] {
    return (this.body?.details ?? []).map((d) => d.issue).filter((i): i is string => typeof i === 'string');
  }
}

export interface PayPalErrorBody {
  name?: string;
  message?: string;
  debug_id?: string;
  details?: { issue?: string; description?: string; field?: string }[];
}

interface PayPalAmount {
  currency_code: string;
  value: string;
}
export interface PayPalCapture {
  id: string;
  status: string;
  amount?: PayPalAmount;
  custom_id?: string;
}
export interface PayPalOrder {
  id: string;
  status: string;
  intent?: string;
  purchase_units?: {
    reference_id?: string;
    custom_id?: string;
    amount?: PayPalAmount;
    payments?: { captures?: PayPalCapture[] };
  }[];
  links?: { href: string; rel: string; method?: string }[];
}

/** Spec 8 wallet problem with PayPal's name. */
export function paypalProblem(kind: WalletFailureKind): Problem {
  return problems.walletProvider(kind, PAYPAL_DISPLAY_NAME);
}

/** The wallet problem as a thrown error, keeping PayPal's own failure as `cause` for the server log. */
function walletError(kind: WalletFailureKind, cause?: unknown): ProblemError {
  const error = new ProblemError(paypalProblem(kind));
  if (cause !== undefined) Object.defineProperty(error, 'cause', { value: cause, enumerable: false });
  return error;
}

export interface PayPalClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Per-request timeout in milliseconds. */
  timeoutMs?: number;
  /** Clock in milliseconds (tests). */
  nowMs?: () => number;
}

type Expectation = { checkoutId?: string; amount?: number; currency?: string };

/** The PayPal REST calls. Failures throw PayPalHttpError (or fetch's network/timeout error); no spec mapping here. */
export class PayPalClient {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly nowMs: () => number;
  /** Optimisation only: another process simply fetches its own token. */
  private token: { value: string; expiresAtMs: number } | null = null;
  private pendingToken: Promise<string> | null = null;

  constructor(private readonly options: PayPalClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.nowMs = options.nowMs ?? Date.now;
  }

  static fromConfig(config: Pick<Config, 'PAYPAL_BASE_URL' | 'PAYPAL_CLIENT_ID' | 'PAYPAL_CLIENT_SECRET'>): PayPalClient {
    return new PayPalClient({ baseUrl: config.PAYPAL_BASE_URL, clientId: config.PAYPAL_CLIENT_ID, clientSecret: config.PAYPAL_CLIENT_SECRET });
  }

  /** POST /v1/oauth2/token (client credentials); the token is reused until 60 s before it expires. */
  async accessToken(forceRefresh = false): Promise<string> {
    if (!forceRefresh && this.token && this.token.expiresAtMs > this.nowMs()) return this.token.value;
    if (!forceRefresh && this.pendingToken) return this.pendingToken;
    const pending = this.fetchToken().finally(() => {
      if (this.pendingToken === pending) this.pendingToken = null;
    });
    this.pendingToken = pending;
    return pending;
  }

  private async fetchToken(): Promise<string> {
    const basic = Buffer.from(`${this.options.clientId}:${this.options.clientSecret}`).toString('base64');
    const res = await fetch(`${this.baseUrl}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    const body = (await readJson(res)) as { access_token?: unknown; expires_in?: unknown } | null;
    if (!res.ok || typeof body?.access_token !== 'string') throw new PayPalHttpError(res.status, body as PayPalErrorBody | null);
    const lifetimeS = typeof body.expires_in === 'number' ? body.expires_in : 300;
    this.token = { value: body.access_token, expiresAtMs: this.nowMs() + Math.max(0, lifetimeS - 60) * 1000 };
    return body.access_token;
  }

  /** One authorised JSON call; a 401 (token revoked or expired early) fetches a new token once. */
  private async call<T>(method: 'GET' | 'POST', path: string, body?: string, headers: Record<string, string> = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const token = await this.accessToken(attempt > 0);
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      if (res.status === 401 && attempt === 0) {
        this.token = null;
        await res.body?.cancel();
        continue;
      }
      const json = await readJson(res);
      if (!res.ok) throw new PayPalHttpError(res.status, json as PayPalErrorBody | null);
      return json as T;
    }
  }

  /**
   * POST /v2/checkout/orders: intent CAPTURE for `amount` pence (sent as pounds, 2 decimals), tied to
   * the checkout by custom_id. PayPal-Request-Id per checkout + amount: a retry returns the same order.
   */
  async createOrder(input: { checkoutId: string; amount: number; currency?: string; payeeMerchantId?: string | null; description?: string }): Promise<PayPalOrder> {
    const currency = (input.currency ?? 'GBP').toUpperCase();
    const unit = {
      reference_id: input.checkoutId,
      custom_id: input.checkoutId,
      amount: { currency_code: currency, value: penceToDecimal(input.amount) },
      ...(input.payeeMerchantId ? { payee: { merchant_id: input.payeeMerchantId } } : {}),
      ...(input.description ? { description: input.description.slice(0, 127) } : {}),
    };
    return this.call<PayPalOrder>('POST', '/v2/checkout/orders', JSON.stringify({ intent: 'CAPTURE', purchase_units: [unit] }), {
      'paypal-request-id': `checkout-${input.checkoutId}-order-${input.amount}-${currency}`,
      prefer: 'return=representation',
    });
  }

  /** GET /v2/checkout/orders/{id}; null when PayPal does not know it. */
  async getOrder(orderId: string): Promise<PayPalOrder | null> {
    try {
      return await this.call<PayPalOrder>('GET', `/v2/checkout/orders/${encodeURIComponent(orderId)}`);
    } catch (err) {
      if (err instanceof PayPalHttpError && err.status === 404) return null;
      throw err;
    }
  }

  /** POST /v2/checkout/orders/{id}/capture, with a PayPal-Request-Id per order (a repeat replays the first answer). */
  async captureOrder(orderId: string): Promise<PayPalOrder> {
    return this.call<PayPalOrder>('POST', `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`, '{}', {
      'paypal-request-id': `capture-${orderId}`,
      prefer: 'return=representation',
    });
  }

  /**
   * POST /v2/payments/captures/{id}/refund: the whole capture once per capture, or (`part`) an amount once per
   * request id — PayPal-Request-Id makes a repeat answer with the refund it made.
   */
  async refundCapture(captureId: string, part?: { amount: number; currency: string; requestId: string }): Promise<{ id: string; status: string; amount?: { value: string; currency_code: string } }> {
    const body = part ? JSON.stringify({ amount: { value: penceToDecimal(part.amount), currency_code: part.currency.toUpperCase() } }) : '{}';
    return this.call('POST', `/v2/payments/captures/${encodeURIComponent(captureId)}/refund`, body, {
      'paypal-request-id': part ? part.requestId : `refund-${captureId}`,
      ...(part ? { prefer: 'return=representation' } : {}),
    });
  }

  /**
   * POST /v1/notifications/verify-webhook-signature with the PAYPAL-* headers of the delivery.
   * The event goes exactly as received (spliced in as raw JSON): re-serialising it can break the check.
   */
  async verifyWebhookSignature(input: { webhookId: string; headers: Record<string, string | undefined>; rawBody: string }): Promise<boolean> {
    const h = input.headers;
    const fields = {
      auth_algo: h['paypal-auth-algo'],
      cert_url: h['paypal-cert-url'],
      transmission_id: h['paypal-transmission-id'],
      transmission_sig: h['paypal-transmission-sig'],
      transmission_time: h['paypal-transmission-time'],
      webhook_id: input.webhookId,
    };
    if (Object.values(fields).some((v) => !v)) return false;
    const head = JSON.stringify(fields);
    const body = `${head.slice(0, -1)},"webhook_event":${input.rawBody}}`;
    const result = await this.call<{ verification_status?: string }>('POST', '/v1/notifications/verify-webhook-signature', body);
    return result.verification_status === 'SUCCESS';
  }
}

/** A PayPal payment as the checkout sees it. `id` and `clientSecret` are the order id (stepState.payment.paypalOrderId). */
export interface PayPalProviderPayment extends ProviderPayment {
  orderStatus: string;
  captureId: string | null;
}

/**
 * The checkout's PaymentProvider for PayPal. Besides the interface it has `capturePayment`, which the
 * engine calls when the buyer approved the order (the "payment was successful" action): it resolves
 * only with a succeeded payment, otherwise throws the spec 8 wallet problem.
 */
export class PayPalPaymentProvider implements PaymentProvider {
  readonly name = PAYPAL_PROVIDER;
  readonly displayName = PAYPAL_DISPLAY_NAME;

  constructor(
    private readonly db: Db,
    readonly client: PayPalClient,
  ) {}

  static fromConfig(db: Db, config: Pick<Config, 'PAYPAL_BASE_URL' | 'PAYPAL_CLIENT_ID' | 'PAYPAL_CLIENT_SECRET'>): PayPalPaymentProvider {
    return new PayPalPaymentProvider(db, PayPalClient.fromConfig(config));
  }

  /** The educator's PayPal merchant id (payee of the order), when they connected one. */
  async merchantFor(educatorId: string | undefined): Promise<string | null> {
    if (!educatorId) return null;
    const row = await this.db
      .selectFrom('educator_payment_accounts')
      .select('account_id')
      .where('educator_id', '=', educatorId)
      .where('provider', '=', PAYPAL_PROVIDER)
      .executeTakeFirst();
    return row?.account_id ?? null;
  }

  /** An order for exactly `amount` pence; metadata needs `checkout_id` (custom_id) and may carry `educator_id` (payee). */
  async createPayment(amount: number, currency: string, metadata: Record<string, string>): Promise<PayPalProviderPayment> {
    if (!Number.isSafeInteger(amount) || amount <= 0) throw new Error('PayPal payments need a positive integer amount');
    const checkoutId = metadata.checkout_id ?? metadata.checkoutId;
    if (!checkoutId) throw new Error('PayPal payments need metadata.checkout_id');
    try {
      const payeeMerchantId = await this.merchantFor(metadata.educator_id ?? metadata.educatorId);
      const order = await this.client.createOrder({ checkoutId, amount, currency, payeeMerchantId });
      return fromOrder(order, { checkoutId, amount, currency });
    } catch (err) {
      throw walletError('sdk_error', err);
    }
  }

  async retrievePayment(id: string): Promise<PayPalProviderPayment | null> {
    try {
      const order = await this.client.getOrder(id);
      return order ? fromOrder(order) : null;
    } catch (err) {
      throw walletError('sdk_error', err);
    }
  }

  /**
   * Captures an approved order. Success only when the capture is COMPLETED (spec 4), for this checkout
   * and amount. A refused payment → payment_failed (400); a failed capture call → capture_error (500).
   * Capturing twice is safe: PayPal replays the first answer, and an order already captured is read back.
   */
  async capturePayment(id: string, expect: Expectation = {}): Promise<PayPalProviderPayment> {
    let order: PayPalOrder | null;
    try {
      order = await this.client.captureOrder(id);
    } catch (err) {
      if (err instanceof PayPalHttpError && err.status === 422 && err.issues.includes('ORDER_ALREADY_CAPTURED')) {
        order = await this.client.getOrder(id).catch((e: unknown) => {
          throw walletError('capture_error', e);
        });
        if (!order) throw walletError('capture_error');
      } else if (err instanceof PayPalHttpError && err.status === 422 && err.issues.some((i) => PAYMENT_FAILED_ISSUES.has(i))) {
        throw walletError('payment_failed', err);
      } else {
        throw walletError('capture_error', err);
      }
    }
    return judgeCapture(order, expect);
  }

  /** PayPal orders cannot be cancelled; an uncaptured order simply expires. */
  async cancelPayment(_id: string): Promise<void> {}

  /** Refunds `amount` of the order's capture, once per key (PayPal-Request-Id). */
  async refund(id: string, request: RefundRequest): Promise<ProviderRefund> {
    const payment = await this.retrievePayment(id);
    if (!payment?.captureId) throw walletError('sdk_error');
    try {
      const refund = await this.client.refundCapture(payment.captureId, { amount: request.amount, currency: request.currency, requestId: request.idempotencyKey });
      const status = refund.status === 'COMPLETED' ? 'succeeded' : refund.status === 'PENDING' ? 'pending' : 'failed';
      return { id: refund.id, status, amount: refund.amount ? decimalToPence(refund.amount.value) : request.amount };
    } catch (err) {
      throw walletError('sdk_error', err);
    }
  }

  /** Refunds the order's completed capture (nothing to do when it was never captured). */
  async refundPayment(id: string): Promise<void> {
    const payment = await this.retrievePayment(id);
    if (!payment?.captureId || payment.status !== 'succeeded') return;
    try {
      await this.client.refundCapture(payment.captureId);
    } catch (err) {
      throw walletError('sdk_error', err);
    }
  }
}

/** Spec 4: the order and its capture COMPLETED, for this checkout and amount; otherwise the wallet problem. */
export function judgeCapture(order: PayPalOrder, expect: Expectation = {}): PayPalProviderPayment {
  const payment = fromOrder(order);
  if (payment.status !== 'succeeded') throw walletError('payment_failed');
  const checkoutId = payment.metadata.checkout_id;
  const mismatch =
    (expect.checkoutId !== undefined && checkoutId !== expect.checkoutId) ||
    (expect.amount !== undefined && payment.amount !== expect.amount) ||
    (!!expect.currency && payment.currency !== expect.currency.toUpperCase());
  if (mismatch) throw walletError('capture_error');
  return payment;
}

/** A PayPal order in the checkout's payment vocabulary (types.ts PaymentStatus). */
export function fromOrder(order: PayPalOrder, fallback: Expectation = {}): PayPalProviderPayment {
  const unit = order.purchase_units?.[0];
  const capture = unit?.payments?.captures?.[0];
  const money = capture?.amount ?? unit?.amount;
  const checkoutId = capture?.custom_id ?? unit?.custom_id ?? fallback.checkoutId;
  const status = orderStatus(order.status, capture?.status);
  const payerAction = order.links?.find((l) => l.rel === 'payer-action')?.href;
  return {
    id: order.id,
    clientSecret: order.id,
    status,
    orderStatus: order.status,
    captureId: capture?.id ?? null,
    amount: money ? decimalToPence(money.value) : (fallback.amount ?? Number.NaN),
    currency: (money?.currency_code ?? fallback.currency ?? '').toUpperCase(),
    metadata: checkoutId ? { checkout_id: checkoutId } : {},
    lastError: status === 'requires_payment_method' && capture ? { type: 'payment_failed', code: capture.status } : null,
    nextAction: status === 'requires_action' && payerAction ? { type: 'redirect', url: payerAction } : null,
  };
}

function orderStatus(order: string, capture: string | undefined): PaymentStatus {
  switch (order) {
    case 'COMPLETED':
      if (!capture || walletCaptureSucceeded(capture)) return 'succeeded';
      if (capture === 'PENDING') return 'processing';
      if (capture === 'REFUNDED' || capture === 'PARTIALLY_REFUNDED') return 'refunded';
      return 'requires_payment_method';
    case 'APPROVED':
      return 'requires_confirmation';
    case 'PAYER_ACTION_REQUIRED':
      return 'requires_action';
    case 'VOIDED':
      return 'canceled';
    default:
      return 'requires_payment_method';
  }
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
