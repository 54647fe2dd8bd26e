/**
 * Configuration from environment variables, each with a safe local default, validated once with zod.
 * Every variable is documented in README.md ("Configuration").
 */
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(4321),
  BIND_HOST: z.string().default('0.0.0.0'),
  /** The marketplace host as users type it (minisites live on {slug}.{PUBLIC_HOST}). */
  PUBLIC_HOST: z.string().default(''),
  PUBLIC_PROTOCOL: z.enum(['http', 'https']).default('http'),
  /** Where the browser sends /api calls; empty means the same origin as the page. */
  API_ORIGIN: z.string().default(''),
  ADMIN_HOST: z.string().default(''),
  ERRORS_HOST: z.string().default('https://errors.localhost'),
  DATABASE_URL: z.string().default('data/marketplace.sqlite'),
  /** Trust X-Forwarded-Host / X-Forwarded-Proto (only behind a proxy you run). */
  TRUST_PROXY: bool.default('false'),
  /** Folder of the built site (astro build output). */
  DIST_DIR: z.string().default('dist'),
  OUTBOX_DIR: z.string().default('data/outbox'),
  SMTP_URL: z.string().default(''),
  MAIL_FROM: z.string().default('Marketplace <no-reply@localhost>'),
  /** Secret for captcha challenges and signed tokens; a fixed dev value is used when unset. */
  APP_SECRET: z.string().min(16).default('local-development-secret-change-me'),
  /** ALTCHA proof-of-work difficulty: the secret number is below this (20 000: about 0.1 s on average in a browser, under 0.5 s on slow phones). */
  CAPTCHA_MAX_NUMBER: z.coerce.number().int().min(1).max(10_000_000).default(20_000),
  /** Seconds a captcha challenge stays valid after it is issued. */
  CAPTCHA_EXPIRES_SECONDS: z.coerce.number().int().min(10).max(3600).default(300),
  /**
   * test: test providers stand in for any method without a configured provider, and the test-payment routes
   * exist; live: only configured providers, a method without one is not offered. Default: test on http, live on https.
   */
  PAYMENTS_MODE: z.enum(['test', 'live']).optional(),
  /** Allows PAYMENTS_MODE=test under https, for a staging demo that must never take real bookings. */
  PAYMENTS_ALLOW_TEST_ON_HTTPS: bool.default('false'),
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  /** whsec_… of the webhook endpoint(s); comma-separated for the Connect endpoint and the platform endpoint. */
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  /** Where the Stripe SDK sends API calls (tests point it at a fake server on 127.0.0.1). */
  STRIPE_API_BASE: z.string().url().default('https://api.stripe.com'),
  PAYPAL_CLIENT_ID: z.string().default(''),
  PAYPAL_CLIENT_SECRET: z.string().default(''),
  PAYPAL_BASE_URL: z.string().default('https://api-m.sandbox.paypal.com'),
  /** The webhook id PayPal gave our endpoint; needed to verify PayPal webhook signatures. */
  PAYPAL_WEBHOOK_ID: z.string().default(''),
  MAPS_API_KEY: z.string().default(''),
  // Accounts (api/auth): sessions, cookies, password hashing and rate limits.
  /** Session cookie Domain; empty = the parent domain of PUBLIC_HOST when it has one (shared by every minisite), else host-only cookies and the first-party hand-off (api/auth/README.md). */
  SESSION_COOKIE_DOMAIN: z.string().default(''),
  /** Secure cookies: auto = always, except on localhost / loopback hosts. */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  /** How long a login lasts (days). */
  SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** scrypt cost as log2(N); 15 means N = 32768 (the minimum accepted). */
  SCRYPT_LOG_N: z.coerce.number().int().min(15).max(20).default(15),
  /** Failed logins allowed per e-mail address and per IP address in each 15-minute window. */
  RATE_LIMIT_LOGIN_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().min(1).default(50),
  /** Magic-link / sign-up e-mails allowed per address and per IP address in each 15-minute window. */
  RATE_LIMIT_MAIL_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_MAIL_PER_IP: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  /** On SIGTERM/SIGINT, how long requests in flight may take before their connections are closed. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** Seconds a checkout holds its spaces (and voucher use) once the learner reaches Payment. */
  CHECKOUT_HOLD_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /** The longest a checkout may hold spaces in total, from its first hold: renewals never pass it. */
  CHECKOUT_HOLD_MAX_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(1800),
  // E-mail outbox (api/mail): requests queue messages, a background worker sends them.
  /** Seconds an SMTP server may take to accept a connection or greet (the socket may idle twice as long). */
  SMTP_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(15),
  /** Delivery attempts before a message is marked dead (then `npm run mail -- resend <id>`). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(10),
  /** The first retry's delay (seconds); each next one doubles it, up to 6 hours. */
  MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
}).transform((c) => ({
  ...c,
  // Unset hosts follow the port, so `PORT=8080 npm start` links to itself.
  PUBLIC_HOST: c.PUBLIC_HOST || `localhost:${c.PORT}`,
  ADMIN_HOST: c.ADMIN_HOST || `admin.localhost:${c.PORT}`,
  PAYMENTS_MODE: c.PAYMENTS_MODE ?? (c.PUBLIC_PROTOCOL === 'https' ? 'live' : 'test'),
})).superRefine((c, ctx) => {
  // A production site (https) never lets a test provider record a booking as paid with no money taken.
  if (c.PAYMENTS_MODE === 'test' && c.PUBLIC_PROTOCOL === 'https' && !c.PAYMENTS_ALLOW_TEST_ON_HTTPS) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      path: ['PAYMENTS_MODE'],
      message: 'test payments under https would record bookings as paid with no money taken; use live, or set PAYMENTS_ALLOW_TEST_ON_HTTPS=true for a staging demo',
    });
  }
  if (c.PAYMENTS_MODE === 'live' && c.STRIPE_SECRET_KEY && !c.STRIPE_PUBLISHABLE_KEY) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ['STRIPE_PUBLISHABLE_KEY'], message: 'is needed with STRIPE_SECRET_KEY: the card form loads Stripe.js with it' });
  }
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The marketplace host name without its port, e.g. 'localhost'. */
export function baseHostname(config: Pick<Config, 'PUBLIC_HOST'>): string {
  return config.PUBLIC_HOST.replace(/:\d+$/, '').toLowerCase();
}
