/**
 * A fake Stripe API on 127.0.0.1 for the Stripe provider's tests (no network). It implements the few
 * endpoints we call — PaymentIntents (create, retrieve, cancel), SetupIntents (create, retrieve, cancel),
 * refunds, Customers (create) — scoped per connected account (Stripe-Account header), replays idempotent
 * requests like Stripe does, and records every request. Point the SDK at it with STRIPE_API_BASE = fake.url.
 *
 * Off-session charges (a PaymentIntent created with `confirm` and `off_session`, for a customer and one of its
 * payment methods) are answered at once, as Stripe does, by what the payment method does: Stripe's test payment
 * methods `pm_card_chargeDeclined` (402 card_declined) and `pm_card_authenticationRequired` (402
 * authentication_required) fail, any other succeeds; `setCardOutcome` changes what a payment method does. Both
 * answers are replayed for the same idempotency key. `loseNextAnswer` runs the next matching request and then
 * answers 500 (a response lost on the way), so the SDK's retry gets the replay.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form body (Stripe's bracket keys as they are, e.g. 'metadata[checkout_id]'). */
  form: Record<string, string>;
  /** The query string (GET list calls). */
  query: Record<string, string>;
}

export interface StripeErrorBody {
  type: string;
  code?: string;
  message?: string;
  decline_code?: string;
}

type Intent = Record<string, unknown> & { id: string; object: 'payment_intent' | 'setup_intent'; status: string; client_secret: string };

/** Which requests a failure applies to: method, path, and form fields that must have these values. */
interface Match {
  method?: string;
  path?: RegExp;
  form?: Record<string, string>;
}

function matches(m: Match, req: StripeRequest): boolean {
  return (!m.method || m.method === req.method) && (!m.path || m.path.test(req.path))
    && Object.entries(m.form ?? {}).every(([k, v]) => req.form[k] === v);
}

interface Failure extends Match {
  status: number;
  error: StripeErrorBody;
}

export type CardOutcome = 'succeeded' | 'card_declined' | 'authentication_required';

const DECLINES: Record<Exclude<CardOutcome, 'succeeded'>, { code: string; decline_code?: string; message: string }> = {
  card_declined: { code: 'card_declined', decline_code: 'generic_decline', message: 'Your card was declined.' },
  authentication_required: { code: 'authentication_required', decline_code: 'authentication_required', message: 'Your card was declined. This transaction requires authentication.' },
};

function id(prefix: string): string {
  return `${prefix}_${randomBytes(8).toString('hex')}`;
}

/** 'metadata[checkout_id]' → nested objects, for building the intent. */
function nest(form: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(form)) {
    const parts = key.replace(/\]/g, '').split('[');
    let node = out as Record<string, unknown>;
    for (let i = 0; i < parts.length - 1; i++) node = (node[parts[i]!] ??= {}) as Record<string, unknown>;
    node[parts[parts.length - 1]!] = value;
  }
  return out;
}

export class FakeStripe {
  readonly requests: StripeRequest[] = [];
  /** `${account ?? 'platform'}/${id}` → intent. */
  private readonly intents = new Map<string, Intent>();
  private readonly replays = new Map<string, { status: number; body: unknown }>();
  private readonly failures: Failure[] = [];
  private readonly lost: Match[] = [];
  /** `${account ?? 'platform'}/${id}` → customer. */
  private readonly customers = new Map<string, Record<string, unknown>>();
  private readonly cardOutcomes = new Map<string, CardOutcome>();
  /** Refunds made, in order, with the account they were made on. */
  readonly refunds: { scope: string; refund: Record<string, unknown> & { payment_intent: string; amount: number } }[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const request: StripeRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, form, query: Object.fromEntries(url.searchParams) };
        this.requests.push(request);
        const { status, body, replayed, retry } = this.answer(request);
        res.writeHead(status, {
          'content-type': 'application/json',
          'request-id': id('req'),
          ...(retry ? { 'stripe-should-retry': 'true' } : status >= 400 ? { 'stripe-should-retry': 'false' } : {}),
          ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
        });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async close(): Promise<void> {
    if (this.server) await new Promise<void>((ok) => this.server!.close(() => ok()));
  }

  /** The next request matching `match` answers this Stripe error. */
  failNext(match: Match, status: number, error: StripeErrorBody): void {
    this.failures.push({ ...match, status, error });
  }

  /** The next request matching `match` is carried out (and kept for replay), but its answer is lost: a 500 is sent instead. */
  loseNextAnswer(match: Match): void {
    this.lost.push(match);
  }

  /** What an off-session charge of this payment method does from now on. */
  setCardOutcome(paymentMethodId: string, outcome: CardOutcome): void {
    this.cardOutcomes.set(paymentMethodId, outcome);
  }

  customer(customerId: string): Record<string, unknown> | undefined {
    for (const c of this.customers.values()) if (c.id === customerId) return c;
    return undefined;
  }

  /** The PaymentIntents, newest last (optionally only those of a customer). */
  intentsOf(customerId?: string): Intent[] {
    return [...this.intents.values()].filter((i) => i.object === 'payment_intent' && (!customerId || i.customer === customerId));
  }

  /** Moves an intent on (what the Payment Element and the bank would do), e.g. to 'succeeded'. */
  update(intentId: string, changes: Record<string, unknown>): void {
    for (const intent of this.intents.values()) if (intent.id === intentId) Object.assign(intent, changes);
  }

  intent(intentId: string): Intent | undefined {
    for (const intent of this.intents.values()) if (intent.id === intentId) return intent;
    return undefined;
  }

  get intentCount(): number {
    return this.intents.size;
  }

  requestsTo(method: string, path: RegExp): StripeRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  reset(): void {
    this.requests.length = 0;
    this.failures.length = 0;
  }

  private answer(req: StripeRequest): { status: number; body: unknown; replayed?: boolean; retry?: boolean } {
    if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    }
    const failure = this.failures.findIndex((f) => matches(f, req));
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      return { status: f!.status, body: { error: f!.error } };
    }
    const account = (req.headers['stripe-account'] as string | undefined) ?? null;
    const key = req.headers['idempotency-key'] as string | undefined;
    const replayKey = key ? `${account ?? 'platform'}/${key}` : null;
    if (req.method === 'POST' && replayKey && this.replays.has(replayKey)) return { ...this.replays.get(replayKey)!, replayed: true };
    const result = this.route(req, account);
    if (req.method === 'POST' && replayKey) this.replays.set(replayKey, result);
    const lost = this.lost.findIndex((f) => matches(f, req));
    if (lost >= 0) {
      this.lost.splice(lost, 1);
      return { status: 500, body: { error: { type: 'api_error', message: 'An unknown error occurred' } }, retry: true };
    }
    return result;
  }

  /** An off-session confirmation: at once succeeded, or a 402 card error carrying the failed intent (as Stripe answers). */
  private chargeOffSession(intent: Intent): { status: number; body: unknown } {
    const method = String(intent.payment_method ?? '');
    if (!intent.customer || !method) {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_missing', message: 'Off-session payments need a customer and a payment method.' } } };
    }
    const outcome = this.cardOutcomes.get(method) ?? defaultOutcome(method);
    if (outcome === 'succeeded') {
      intent.status = 'succeeded';
      return { status: 200, body: intent };
    }
    const decline = DECLINES[outcome];
    intent.status = 'requires_payment_method';
    intent.last_payment_error = { type: 'card_error', ...decline, payment_method: { id: method } };
    return { status: 402, body: { error: { type: 'card_error', ...decline, payment_intent: intent } } };
  }

  private route(req: StripeRequest, account: string | null): { status: number; body: unknown } {
    const scope = account ?? 'platform';
    const m = /^\/v1\/(payment_intents|setup_intents)(?:\/([^/]+))?(?:\/(cancel))?$/.exec(req.path);
    if (m) {
      const [, collection, intentId, action] = m;
      const object = collection === 'payment_intents' ? 'payment_intent' : 'setup_intent';
      if (req.method === 'POST' && !intentId) {
        const params = nest(req.form);
        const newId = id(object === 'payment_intent' ? 'pi' : 'seti');
        if (params.customer !== undefined && !this.customers.has(`${scope}/${String(params.customer)}`)) {
          return { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'customer', message: `No such customer: '${String(params.customer)}'` } } };
        }
        const intent: Intent = {
          id: newId,
          object,
          status: 'requires_payment_method',
          customer: params.customer ?? null,
          payment_method: params.payment_method ?? null,
          setup_future_usage: params.setup_future_usage ?? null,
          client_secret: `${newId}_secret_${randomBytes(12).toString('hex')}`,
          metadata: params.metadata ?? {},
          automatic_payment_methods: params.automatic_payment_methods ? { enabled: true } : null,
          next_action: null,
          livemode: false,
          ...(object === 'payment_intent'
            ? { amount: Number(params.amount), currency: params.currency, last_payment_error: null, capture_method: 'automatic' }
            : { last_setup_error: null, usage: 'off_session' }),
        };
        this.intents.set(`${scope}/${newId}`, intent);
        if (object === 'payment_intent' && params.confirm === 'true' && params.off_session === 'true') return this.chargeOffSession(intent);
        return { status: 200, body: intent };
      }
      const intent = intentId ? this.intents.get(`${scope}/${intentId}`) : undefined;
      if (!intent || intent.object !== object) {
        return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${object}: '${intentId}'` } } };
      }
      if (req.method === 'GET' && !action) return { status: 200, body: intent };
      if (req.method === 'POST' && action === 'cancel') {
        if (intent.status === 'succeeded' || intent.status === 'canceled') {
          const code = object === 'payment_intent' ? 'payment_intent_unexpected_state' : 'setup_intent_unexpected_state';
          return { status: 400, body: { error: { type: 'invalid_request_error', code, message: `You cannot cancel this ${object} because it has a status of ${intent.status}.` } } };
        }
        intent.status = 'canceled';
        return { status: 200, body: intent };
      }
    }
    if (req.method === 'POST' && req.path === '/v1/customers') {
      const params = nest(req.form);
      const customer = { id: id('cus'), object: 'customer', email: params.email ?? null, name: params.name ?? null, metadata: params.metadata ?? {}, livemode: false };
      this.customers.set(`${scope}/${customer.id}`, customer);
      return { status: 200, body: customer };
    }
    if (req.method === 'POST' && req.path === '/v1/refunds') {
      const intent = this.intents.get(`${scope}/${req.form.payment_intent}`);
      if (!intent) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } } };
      const made = this.refunds.filter((r) => r.scope === scope && r.refund.payment_intent === intent.id);
      const left = Number(intent.amount) - made.reduce((t, r) => t + Number(r.refund.amount), 0);
      const amount = req.form.amount !== undefined ? Number(req.form.amount) : left;
      if (amount > left || amount <= 0) {
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_already_refunded', message: `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})` } } };
      }
      const params = nest(req.form);
      const refund = { id: id('re'), object: 'refund', payment_intent: intent.id, amount, currency: intent.currency, status: 'succeeded', metadata: params.metadata ?? {} };
      this.refunds.push({ scope, refund });
      return { status: 200, body: refund };
    }
    if (req.method === 'GET' && req.path === '/v1/refunds') {
      const data = this.refunds.filter((r) => r.scope === scope && (!req.query.payment_intent || r.refund.payment_intent === req.query.payment_intent)).map((r) => r.refund);
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/refunds' } };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path})` } } };
  }
}

/** What Stripe's test payment methods do off-session, unless a test said otherwise. */
function defaultOutcome(paymentMethodId: string): CardOutcome {
  if (paymentMethodId === 'pm_card_chargeDeclined') return 'card_declined';
  if (paymentMethodId === 'pm_card_authenticationRequired') return 'authentication_required';
  return 'succeeded';
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().start();
}
