/**
 * The educator's payment options in the admin (spec 3 "Payment options", 6 "Educator (configuration)"), relative to
 * /admin/educators/{educatorId} (educator admins only):
 *
 *   GET  /payment-options             → per method on/off, whether this marketplace can take it, the in-person label
 *                                       and message, the invoice due days, the revision, and the Stripe account
 *   PUT  /payment-options             {revision, card, paypal, klarna, invoice, manual} → the same, saved
 *   POST /payments/stripe/connect     → {status: 'onboarding', url} (Stripe Connect) or {status: 'connected'} (test)
 *
 * The options are the educator's own set (payment_options with no course, one payment_option_methods row per
 * method), the set the checkout falls back on for every course without its own (db/queries/checkout.ts
 * loadPaymentOptions; GET /api/checkout/payment-options). A save is one transaction: the set's revision (migration
 * 0240), the methods, the audit entry.
 *
 * Connecting Stripe: with STRIPE_SECRET_KEY set (live mode, or test mode with test keys) an Express connected account
 * is made once per educator (kept in educator_payment_accounts, where the Stripe provider finds it for every
 * payment, api/payments/stripe.ts) and the admin is sent to Stripe's hosted onboarding (an Account Link) and back
 * to /payments. Without Stripe keys in test mode, a local stand-in records a test account, so the screen can be
 * used offline; it is kept under its own provider name, never mistaken for a Stripe account. Live mode without
 * Stripe keys cannot connect (409).
 */
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import Stripe from 'stripe';
import { randomBytes } from 'node:crypto';
import type { AppEnv, Deps } from '../deps.ts';
import type { Config } from '../config.ts';
import type { Db } from '../../db/client.ts';
import { parseJson } from '../http/parse.ts';
import { ProblemError, problemType, problems } from '../../src/domain/problems.ts';
import { PAYMENT_METHODS, type PaymentMethod } from '../../src/domain/checkout/paymentMethods.ts';
import { DEFAULT_MANUAL_PAYMENT_LABEL, DEFAULT_MANUAL_PAYMENT_MESSAGE } from '../../src/domain/checkout/constants.ts';
import { adminPath } from '../../src/domain/admin-nav.ts';
import { authProblems } from '../auth/problems.ts';
import { adminOrigin } from '../shared/origins.ts';
import { adapterFor, needsProvider } from '../payments/registry.ts';
import { STRIPE_PROVIDER, stripeHostOptions } from '../payments/stripe.ts';
import { adminEducatorId } from './access.ts';
import type { Trx } from './catalogue-saves.ts';
import { claimRevision, diffFields, recordChange, staleRevision } from './audit.ts';

/** The provider name of the offline stand-in's "connected account" (test mode without Stripe keys). */
export const TEST_CONNECT_PROVIDER = 'test-connect';
export const MANUAL_LABEL_MAX = 60;
export const MANUAL_MESSAGE_MAX = 500;
export const MAX_INVOICE_DUE_DAYS = 365;

export interface MethodView {
  enabled: boolean;
  /** Whether this marketplace can take the method now (a provider method needs its provider configured). */
  available: boolean;
  /** Who takes it: a provider's name, or 'offline' for invoice and in person. */
  takenBy: string;
}

export interface PaymentOptionsView {
  revision: number;
  paymentsMode: 'test' | 'live';
  methods: Record<PaymentMethod, MethodView>;
  manual: { label: string; message: string; defaultLabel: string; defaultMessage: string };
  invoiceDueDays: number;
  stripe: StripeView;
}

export interface StripeView {
  /** 'stripe': real Connect onboarding; 'test': the offline stand-in; 'unavailable': live mode without Stripe keys. */
  mode: 'stripe' | 'test' | 'unavailable';
  connected: boolean;
  accountId: string | null;
  /** Stripe's word on whether the account can take payments yet (null when not asked or not known). */
  chargesEnabled: boolean | null;
}

function stripeMode(config: Config): StripeView['mode'] {
  if (config.STRIPE_SECRET_KEY) return 'stripe';
  return config.PAYMENTS_MODE === 'test' ? 'test' : 'unavailable';
}

function stripeClient(config: Config): Stripe {
  return new Stripe(config.STRIPE_SECRET_KEY, {
    ...stripeHostOptions(config.STRIPE_API_BASE),
    timeout: 20_000,
    maxNetworkRetries: 1,
    telemetry: false,
    appInfo: { name: 'course-marketplace' },
  });
}

async function educatorSet(db: Db, educatorId: string) {
  return db.selectFrom('payment_options').select(['id', 'revision', 'invoice_due_days'])
    .where('educator_id', '=', educatorId).where('course_id', 'is', null).orderBy('id').executeTakeFirst();
}

interface StoredOptions {
  methods: Record<PaymentMethod, boolean>;
  manual: { label: string | null; message: string | null };
  invoiceDueDays: number;
  revision: number;
  setId: string | null;
}

async function storedOptions(db: Db, educatorId: string): Promise<StoredOptions> {
  const set = await educatorSet(db, educatorId);
  // No set of its own yet: the checkout's default (spec 7: card only), at revision 0.
  if (!set) return { methods: { card: true, paypal: false, klarna: false, invoice: false, manual: false }, manual: { label: null, message: null }, invoiceDueDays: 14, revision: 0, setId: null };
  const rows = await db.selectFrom('payment_option_methods').selectAll().where('payment_options_id', '=', set.id).execute();
  const methods = Object.fromEntries(PAYMENT_METHODS.map((m) => [m, !!rows.find((r) => r.method === m)?.enabled])) as Record<PaymentMethod, boolean>;
  const manual = rows.find((r) => r.method === 'manual');
  return { methods, manual: { label: manual?.label ?? null, message: manual?.message ?? null }, invoiceDueDays: Number(set.invoice_due_days), revision: Number(set.revision), setId: set.id };
}

async function stripeView(deps: Deps, educatorId: string, ask: boolean): Promise<StripeView> {
  const mode = stripeMode(deps.config);
  const provider = mode === 'test' ? TEST_CONNECT_PROVIDER : STRIPE_PROVIDER;
  const row = await deps.db.selectFrom('educator_payment_accounts').select('account_id')
    .where('educator_id', '=', educatorId).where('provider', '=', provider).executeTakeFirst();
  let chargesEnabled: boolean | null = mode === 'test' && row ? true : null;
  if (mode === 'stripe' && row && ask) {
    try {
      chargesEnabled = (await stripeClient(deps.config).accounts.retrieve(row.account_id)).charges_enabled ?? null;
    } catch {
      chargesEnabled = null;
    }
  }
  return { mode, connected: !!row, accountId: row?.account_id ?? null, chargesEnabled };
}

async function optionsView(deps: Deps, educatorId: string, askStripe: boolean): Promise<PaymentOptionsView> {
  const stored = await storedOptions(deps.db, educatorId);
  const methods = Object.fromEntries(PAYMENT_METHODS.map((m) => {
    const adapter = needsProvider(m) ? adapterFor(deps.config, m) : null;
    return [m, { enabled: stored.methods[m], available: !needsProvider(m) || !!adapter, takenBy: needsProvider(m) ? adapter?.displayName ?? 'nobody' : 'offline' }];
  })) as Record<PaymentMethod, MethodView>;
  return {
    revision: stored.revision,
    paymentsMode: deps.config.PAYMENTS_MODE,
    methods,
    manual: {
      label: stored.manual.label ?? '', message: stored.manual.message ?? '',
      defaultLabel: DEFAULT_MANUAL_PAYMENT_LABEL, defaultMessage: DEFAULT_MANUAL_PAYMENT_MESSAGE,
    },
    invoiceDueDays: stored.invoiceDueDays,
    stripe: await stripeView(deps, educatorId, askStripe),
  };
}

const onOff = z.object({ enabled: z.boolean({ error: 'must be true or false' }) }).strict();
const saveBody = z.object({
  revision: z.number({ error: 'is required' }).int().min(0),
  card: onOff,
  paypal: onOff,
  klarna: onOff,
  invoice: z.object({
    enabled: z.boolean({ error: 'must be true or false' }),
    dueDays: z.number({ error: 'is required' }).int('must be a whole number of days').min(0, 'must be at least 0').max(MAX_INVOICE_DUE_DAYS, `must be at most ${MAX_INVOICE_DUE_DAYS}`),
  }).strict(),
  manual: z.object({
    enabled: z.boolean({ error: 'must be true or false' }),
    label: z.string().max(MANUAL_LABEL_MAX, `must be at most ${MANUAL_LABEL_MAX} characters`),
    message: z.string().max(MANUAL_MESSAGE_MAX, `must be at most ${MANUAL_MESSAGE_MAX} characters`),
  }).strict(),
}).strict();

export function paymentOptionsAdminRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/payment-options', showPaymentOptions);
  app.put('/payment-options', savePaymentOptions);
  app.post('/payments/stripe/connect', connectStripe);
  return app;
}

/** GET /payment-options: the educator's payment methods and their settings. */
async function showPaymentOptions(c: Context<AppEnv>) {
  return c.json(await optionsView(c.var.deps, adminEducatorId(c), true));
}

/** The educator's own set of payment options, claimed at the revision the save was made on (made at the first save). */
async function claimOwnSet(trx: Trx, educatorId: string, expected: number) {
  const set = await trx.selectFrom('payment_options').select(['id', 'revision', 'invoice_due_days'])
    .where('educator_id', '=', educatorId).where('course_id', 'is', null).orderBy('id').executeTakeFirst();
  if (set) return { set, revision: await claimRevision(trx, { table: 'payment_options', id: set.id, expected, educatorId, entity: 'payment_options' }) };
  // The educator's first own set, made at revision 1 by the save that was made on "none yet" (0).
  if (expected !== 0) throw new ProblemError(staleRevision([], 0));
  const id = `po_${educatorId}`;
  await trx.insertInto('payment_options').values({ id, educator_id: educatorId, course_id: null, invoice_due_days: 14, revision: 1 }).execute();
  return { set: { id, revision: 1, invoice_due_days: 14 }, revision: 1 };
}

/** PUT /payment-options: every method's setting at once; at least one must be on. */
async function savePaymentOptions(c: Context<AppEnv>) {
  const educatorId = adminEducatorId(c);
  const deps = c.var.deps;
  const body = await parseJson(c, saveBody);
  if (!PAYMENT_METHODS.some((m) => body[m].enabled)) {
    throw new ProblemError(problems.validation([{ key: 'methods', message: 'must have at least one payment method turned on' }]));
  }
  const label = body.manual.label.trim() || null;
  const message = body.manual.message.trim() || null;
  const now = deps.now();
  await deps.db.transaction().execute(async (trx) => {
    const { set, revision } = await claimOwnSet(trx, educatorId, body.revision);
    const rows = await trx.selectFrom('payment_option_methods').selectAll().where('payment_options_id', '=', set.id).execute();
    const before: Record<string, unknown> = { invoice_due_days: Number(set.invoice_due_days) };
    const after: Record<string, unknown> = { invoice_due_days: body.invoice.dueDays };
    for (const method of PAYMENT_METHODS) {
      const row = rows.find((r) => r.method === method);
      before[method] = method === 'manual' ? { enabled: !!row?.enabled, label: row?.label ?? null, message: row?.message ?? null } : { enabled: !!row?.enabled };
      after[method] = method === 'manual' ? { enabled: body.manual.enabled, label, message } : { enabled: body[method].enabled };
      await trx.insertInto('payment_option_methods')
        .values({ payment_options_id: set.id, method, enabled: body[method].enabled, label: method === 'manual' ? label : null, message: method === 'manual' ? message : null })
        .onConflict((oc) => oc.columns(['payment_options_id', 'method']).doUpdateSet({
          enabled: body[method].enabled, label: method === 'manual' ? label : null, message: method === 'manual' ? message : null,
        }))
        .execute();
    }
    await trx.updateTable('payment_options').set({ invoice_due_days: body.invoice.dueDays }).where('id', '=', set.id).execute();
    await recordChange(trx, {
      educatorId, userId: c.var.user!.id, entity: 'payment_options', entityId: set.id, action: 'update', revision, changes: diffFields(before, after), at: now,
    });
  }).catch((err: unknown) => {
    // Two first saves at once: the second finds the set the first made (its id is the educator's).
    const e = err as { code?: string; message?: string };
    if (e?.code === '23505' || /UNIQUE constraint failed/.test(e?.message ?? '')) throw new ProblemError(staleRevision([], 1));
    throw err;
  });
  return c.json(await optionsView(deps, educatorId, false));
}

/** POST /payments/stripe/connect: a test account at once, or a link to Stripe's onboarding. */
async function connectStripe(c: Context<AppEnv>) {
  const educatorId = adminEducatorId(c);
  const deps = c.var.deps;
  const mode = stripeMode(deps.config);
  const now = deps.now();
  if (mode === 'unavailable') {
    throw new ProblemError(authProblems.conflict('Stripe Is Not Set Up', 'Card payments through Stripe are not set up on this marketplace yet, so no account can be connected.'));
  }
  const existing = await stripeView(deps, educatorId, false);
  if (mode === 'test') {
    if (!existing.connected) {
      const accountId = `acct_test_${randomBytes(8).toString('hex')}`;
      await deps.db.transaction().execute(async (trx) => {
        await trx.insertInto('educator_payment_accounts').values({ educator_id: educatorId, provider: TEST_CONNECT_PROVIDER, account_id: accountId, created_at: now })
          .onConflict((oc) => oc.columns(['educator_id', 'provider']).doNothing()).execute();
        await recordChange(trx, { educatorId, userId: c.var.user!.id, entity: 'payment_account', entityId: educatorId, action: 'connect', changes: { test_account: [null, accountId] }, at: now });
      });
    }
    return c.json({ status: 'connected', stripe: await stripeView(deps, educatorId, false) });
  }
  let url: string;
  try {
    url = await startStripeOnboarding(deps, educatorId, existing.accountId, c.var.user!.id);
  } catch (err) {
    if (!(err instanceof Stripe.errors.StripeError)) throw err;
    throw new ProblemError({
      type: problemType('generic/provider-error'), title: 'Stripe Did Not Answer', status: 502,
      detail: 'Stripe could not start the onboarding just now. Please try again in a minute.',
    });
  }
  return c.json({ status: 'onboarding', url });
}

/**
 * Stripe Connect onboarding: the educator's Express account (made once, kept before anything else so a retry
 * reuses it; Stripe's idempotency key covers a lost answer), then a one-time Account Link to Stripe's hosted
 * onboarding that returns to the admin's /payments screen. Only runs with STRIPE_SECRET_KEY.
 */
async function startStripeOnboarding(deps: Deps, educatorId: string, accountId: string | null, userId: string): Promise<string> {
  const stripe = stripeClient(deps.config);
  let account = accountId;
  if (!account) {
    const educator = await deps.db.selectFrom('educators').select(['name', 'email']).where('id', '=', educatorId).executeTakeFirstOrThrow();
    const created = await stripe.accounts.create({
      type: 'express',
      country: 'GB',
      default_currency: 'gbp',
      ...(educator.email ? { email: educator.email } : {}),
      business_profile: { name: educator.name },
      metadata: { educator_id: educatorId },
    }, { idempotencyKey: `educator_${educatorId}_connect_account` });
    account = created.id;
    const now = deps.now();
    await deps.db.transaction().execute(async (trx) => {
      await trx.insertInto('educator_payment_accounts').values({ educator_id: educatorId, provider: STRIPE_PROVIDER, account_id: created.id, created_at: now })
        .onConflict((oc) => oc.columns(['educator_id', 'provider']).doNothing()).execute();
      await recordChange(trx, { educatorId, userId, entity: 'payment_account', entityId: educatorId, action: 'connect', changes: { stripe_account: [null, created.id] }, at: now });
    });
  }
  const back = (state: string) => `${adminOrigin(deps.config)}${adminPath('/payments', educatorId, { stripe: state })}`;
  const link = await stripe.accountLinks.create({ account, type: 'account_onboarding', refresh_url: back('refresh'), return_url: back('return') });
  return link.url;
}
