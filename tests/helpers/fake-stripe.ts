/**
 * A fake Stripe API on 127.0.0.1 for the Stripe provider's tests (no network). It implements the few
 * endpoints we call — PaymentIntents (create, retrieve, cancel), SetupIntents (create, retrieve, cancel),
 * refunds — scoped per connected account (Stripe-Account header), replays idempotent requests like
 * Stripe does, and records every request. Point the SDK at it with STRIPE_API_BASE = fake.url.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';

export interface StripeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form body (Stripe's bracket keys as they are, e.g. 'metadata[checkout_id]'). */
  form: Record<string, string>;
}

export interface StripeErrorBody {
  type: string;
  code?: string;
  message?: string;
  decline_code?: string;
}

type Intent = Record<string, unknown> & { id: string; object: 'payment_intent' | 'setup_intent'; status: string; client_secret: string };

interface Failure {
  method?: string;
  path?: RegExp;
  status: number;
  error: StripeErrorBody;
}

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
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const request: StripeRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, form };
        this.requests.push(request);
        const { status, body, replayed } = this.answer(request);
        res.writeHead(status, {
          'content-type': 'application/json',
          'request-id': id('req'),
          ...(status >= 400 ? { 'stripe-should-retry': 'false' } : {}),
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
  failNext(match: { method?: string; path?: RegExp }, status: number, error: StripeErrorBody): void {
    this.failures.push({ ...match, status, error });
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

  private answer(req: StripeRequest): { status: number; body: unknown; replayed?: boolean } {
    if (!String(req.headers.authorization ?? '').startsWith('Bearer sk_')) {
      return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
    }
    const failure = this.failures.findIndex((f) => (!f.method || f.method === req.method) && (!f.path || f.path.test(req.path)));
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
    return result;
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
        const intent: Intent = {
          id: newId,
          object,
          status: 'requires_payment_method',
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
    if (req.method === 'POST' && req.path === '/v1/refunds') {
      const intent = this.intents.get(`${scope}/${req.form.payment_intent}`);
      if (!intent) return { status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such payment_intent' } } };
      return { status: 200, body: { id: id('re'), object: 'refund', payment_intent: intent.id, amount: intent.amount, status: 'succeeded' } };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path})` } } };
  }
}

export async function startFakeStripe(): Promise<FakeStripe> {
  return new FakeStripe().start();
}
