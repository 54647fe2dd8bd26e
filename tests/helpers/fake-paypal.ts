/**
 * A fake PayPal REST API on 127.0.0.1 for the PayPal client's tests (no network): OAuth2 token,
 * Orders v2 (create, get, capture), capture refund and verify-webhook-signature. It replays requests
 * with the same PayPal-Request-Id like PayPal does, and records every request.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { randomBytes } from 'node:crypto';

export const FAKE_PAYPAL_CLIENT_ID = 'fake-client-id';
export const FAKE_PAYPAL_SECRET = 'fake-client-secret';
/** verify-webhook-signature answers SUCCESS only for this transmission signature. */
export const FAKE_PAYPAL_GOOD_SIGNATURE = 'good-signature';

export interface PayPalRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  json: unknown;
}

export type CaptureOutcome = 'COMPLETED' | 'DECLINED' | 'PENDING' | { status: number; body: unknown };

interface Order {
  id: string;
  status: string;
  intent: string;
  purchase_units: Array<Record<string, unknown> & { amount: { currency_code: string; value: string }; custom_id?: string }>;
  links: { href: string; rel: string; method: string }[];
}

export class FakePayPal {
  readonly requests: PayPalRequest[] = [];
  readonly orders = new Map<string, Order>();
  /** Refunds made (each once per PayPal-Request-Id). */
  readonly refunds: { id: string; status: string; captureId: string; amount?: { value: string; currency_code: string } }[] = [];
  private readonly captureOutcomes = new Map<string, CaptureOutcome>();
  private readonly replays = new Map<string, { status: number; body: unknown }>();
  private readonly failures: { method?: string; path?: RegExp; status: number; body: unknown }[] = [];
  private tokens = new Set<string>();
  private server: Server | null = null;
  /** Delay every answer (to test timeouts). */
  delayMs = 0;
  /** Seconds the issued tokens are said to live. */
  tokenLifetime = 32400;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = rawBody ? JSON.parse(rawBody) : null;
        } catch {
          json = null;
        }
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        const request: PayPalRequest = { method: req.method ?? 'GET', path: url.pathname, headers: req.headers, rawBody, json };
        this.requests.push(request);
        const { status, body } = this.answer(request);
        const send = () => {
          if (res.destroyed) return;
          res.writeHead(status, { 'content-type': 'application/json', 'paypal-debug-id': randomBytes(6).toString('hex') });
          res.end(body === undefined ? '' : JSON.stringify(body));
        };
        if (this.delayMs > 0) setTimeout(send, this.delayMs);
        else send();
      });
    });
    await new Promise<void>((ok) => this.server!.listen(0, '127.0.0.1', ok));
    const address = this.server.address();
    this.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    return this;
  }

  async close(): Promise<void> {
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((ok) => this.server!.close(() => ok()));
    }
  }

  /** The next request matching `match` answers `status` with `body`. */
  failNext(match: { method?: string; path?: RegExp }, status: number, body: unknown): void {
    this.failures.push({ ...match, status, body });
  }

  /** What capturing this order will answer (default COMPLETED). */
  setCaptureOutcome(orderId: string, outcome: CaptureOutcome): void {
    this.captureOutcomes.set(orderId, outcome);
  }

  /** Forget every token issued (as if they were revoked): the next API call gets 401. */
  revokeTokens(): void {
    this.tokens.clear();
  }

  requestsTo(method: string, path: RegExp): PayPalRequest[] {
    return this.requests.filter((r) => r.method === method && path.test(r.path));
  }

  reset(): void {
    this.requests.length = 0;
    this.failures.length = 0;
    this.delayMs = 0;
  }

  private answer(req: PayPalRequest): { status: number; body: unknown } {
    const failure = this.failures.findIndex((f) => (!f.method || f.method === req.method) && (!f.path || f.path.test(req.path)));
    if (failure >= 0) {
      const [f] = this.failures.splice(failure, 1);
      return { status: f!.status, body: f!.body };
    }
    if (req.method === 'POST' && req.path === '/v1/oauth2/token') return this.token(req);
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!bearer || !this.tokens.has(bearer)) {
      return { status: 401, body: { error: 'invalid_token', error_description: 'Token signature verification failed' } };
    }
    const requestId = req.headers['paypal-request-id'] as string | undefined;
    if (req.method === 'POST' && requestId && this.replays.has(requestId)) return this.replays.get(requestId)!;
    const result = this.route(req);
    if (req.method === 'POST' && requestId && result.status < 500) this.replays.set(requestId, result);
    return result;
  }

  private token(req: PayPalRequest): { status: number; body: unknown } {
    const expected = `Basic ${Buffer.from(`${FAKE_PAYPAL_CLIENT_ID}:${FAKE_PAYPAL_SECRET}`).toString('base64')}`;
    if (req.headers.authorization !== expected || req.rawBody !== 'grant_type=client_credentials') {
      return { status: 401, body: { error: 'invalid_client', error_description: 'Client Authentication failed' } };
    }
    const token = `A21AA${randomBytes(12).toString('hex')}`;
    this.tokens.add(token);
    return { status: 200, body: { scope: 'https://uri.paypal.com/services/payments/payment', access_token: token, token_type: 'Bearer', app_id: 'APP-FAKE', expires_in: this.tokenLifetime, nonce: 'n' } };
  }

  private route(req: PayPalRequest): { status: number; body: unknown } {
    if (req.method === 'POST' && req.path === '/v2/checkout/orders') {
      const body = req.json as { intent?: string; purchase_units?: Order['purchase_units'] } | null;
      if (!body?.intent || !body.purchase_units?.length) {
        return { status: 400, body: { name: 'INVALID_REQUEST', message: 'Request is not well-formed', details: [{ issue: 'MISSING_REQUIRED_PARAMETER' }] } };
      }
      const orderId = randomBytes(8).toString('hex').toUpperCase();
      const order: Order = {
        id: orderId,
        status: 'CREATED',
        intent: body.intent,
        purchase_units: body.purchase_units.map((u) => ({ reference_id: 'default', ...u })),
        links: [{ href: `${this.url}/v2/checkout/orders/${orderId}`, rel: 'self', method: 'GET' }],
      };
      this.orders.set(orderId, order);
      return { status: 201, body: order };
    }
    const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(req.path);
    if (m) {
      const order = this.orders.get(m[1]!);
      if (!order) return { status: 404, body: { name: 'RESOURCE_NOT_FOUND', message: 'The specified resource does not exist.', details: [{ issue: 'INVALID_RESOURCE_ID' }] } };
      if (req.method === 'GET' && !m[2]) return { status: 200, body: order };
      if (req.method === 'POST' && m[2]) {
        if (order.status === 'COMPLETED') {
          return { status: 422, body: { name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED', description: 'Order already captured.' }] } };
        }
        const outcome = this.captureOutcomes.get(order.id) ?? 'COMPLETED';
        if (typeof outcome === 'object') return outcome;
        const unit = order.purchase_units[0]!;
        order.status = 'COMPLETED';
        unit.payments = {
          captures: [{ id: `CAP${randomBytes(6).toString('hex').toUpperCase()}`, status: outcome, amount: unit.amount, custom_id: unit.custom_id, final_capture: true }],
        };
        return { status: 201, body: order };
      }
    }
    const refund = /^\/v2\/payments\/captures\/([^/]+)\/refund$/.exec(req.path);
    if (req.method === 'POST' && refund) {
      const amount = (req.json as { amount?: { value: string; currency_code: string } } | null)?.amount;
      const made = { id: `REF${randomBytes(6).toString('hex')}`, status: 'COMPLETED', captureId: refund[1]!, ...(amount ? { amount } : {}) };
      this.refunds.push(made);
      return { status: 201, body: made };
    }
    if (req.method === 'POST' && req.path === '/v1/notifications/verify-webhook-signature') {
      const body = req.json as { transmission_sig?: string; webhook_id?: string; webhook_event?: unknown } | null;
      const ok = body?.transmission_sig === FAKE_PAYPAL_GOOD_SIGNATURE && !!body.webhook_id && typeof body.webhook_event === 'object';
      return { status: 200, body: { verification_status: ok ? 'SUCCESS' : 'FAILURE' } };
    }
    return { status: 404, body: { name: 'RESOURCE_NOT_FOUND', message: `No route ${req.method} ${req.path}` } };
  }
}

export async function startFakePayPal(): Promise<FakePayPal> {
  return new FakePayPal().start();
}
