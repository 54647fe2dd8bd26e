/**
 * Configuration from environment variables, each with a safe local default, validated once with zod.
 * Every variable is documented in README.md ("Configuration").
 */
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** The demo's secret: public (it is in this file), so anyone can sign tokens with it. Only for localhost. */
export const DEV_APP_SECRET = 'local-development-secret-change-me';
/** A production secret is at least this long (e.g. `openssl rand -base64 48`). */
export const APP_SECRET_MIN_PRODUCTION = 32;

/** The pages' target (api/publish/page-target.ts): read by the server and by the full build, which reads no other setting. */
const pageTargetShape = {
  /**
   * Where the publisher and the full build write the pages: empty = DIST_DIR/client on this machine (one machine),
   * or `s3://bucket/prefix` = an S3-compatible bucket every machine reads (docs/static-hosting.md). Credentials come
   * from AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN) when set, else the SDK's own chain
   * (AWS_PROFILE, the instance's or task's role…).
   */
  PUBLISH_TARGET: z.string().trim().default('').refine((v) => v === '' || parseBucketUrl(v) !== null, {
    message: 'must be empty (pages in DIST_DIR/client) or s3://bucket/prefix, with a bucket name of 3 to 63 lower-case letters, digits, dots and hyphens and a prefix of plain path segments',
  }),
  /** An S3-compatible service's URL (MinIO, R2, …); empty = AWS S3 in S3_REGION. */
  S3_ENDPOINT: z.string().trim().default('').refine((v) => v === '' || isPlainHttpUrl(v), {
    message: 'must be an http(s):// URL with no user name, password, path or query, e.g. https://s3.example.com:9000',
  }),
  /** The bucket's region; empty = AWS_REGION, else us-east-1 for an S3_ENDPOINT. */
  S3_REGION: z.string().trim().regex(/^[a-z0-9-]*$/, 'must be a region name such as eu-west-2').default(''),
  /** Bucket in the path (`https://endpoint/bucket/key`) instead of the host name: MinIO and most local servers need it. */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /**
   * when_supported (the SDK's default): a CRC checksum with every upload; when_required: only where S3 demands one,
   * for S3-compatible services that refuse the newer checksum headers.
   */
  S3_REQUEST_CHECKSUMS: z.enum(['when_supported', 'when_required']).default('when_supported'),
  /** Static credentials for the bucket; unset = the SDK's credential chain. Both or neither. */
  AWS_ACCESS_KEY_ID: z.string().default(''),
  AWS_SECRET_ACCESS_KEY: z.string().default(''),
  AWS_SESSION_TOKEN: z.string().default(''),
};

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
  /**
   * How many proxies of ours stand in front (false = 0, true = 1, or a number): only then are
   * X-Forwarded-For / X-Forwarded-Host read, and only the hops those proxies added (api/http/client-ip.ts).
   */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|yes|no|[0-9])$/, 'must be true, false or the number of proxies in front (0-9)')
    .default('false')
    .transform((v) => (v === 'true' || v === 'yes' ? 1 : v === 'false' || v === 'no' ? 0 : Number(v))),
  /** Folder of the built site (astro build output). */
  DIST_DIR: z.string().default('dist'),
  OUTBOX_DIR: z.string().default('data/outbox'),
  /**
   * Where earlier versions kept the logos and covers educators upload; now in the database (api/admin/uploads.ts),
   * this folder is only read at start-up to bring such images into it.
   */
  UPLOADS_DIR: z.string().default('data/uploads'),
  SMTP_URL: z.string().default(''),
  MAIL_FROM: z.string().default('Marketplace <no-reply@localhost>'),
  /** Secret for captcha challenges and signed tokens; a fixed dev value is used when unset (refused under https). */
  APP_SECRET: z.string().min(16).default(DEV_APP_SECRET),
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
  PAYMENTS_ALLOW_TEST_ON_HTTPS: bool.default(false),
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  /** whsec_… of the webhook endpoint(s); comma-separated for the Connect endpoint and the platform endpoint. */
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  /** Where the Stripe SDK sends API calls (tests point it at a fake server on 127.0.0.1). */
  STRIPE_API_BASE: z.url().default('https://api.stripe.com'),
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
  /**
   * Failed logins allowed in each 15-minute window: per e-mail address from one client IP, per client IP,
   * and per address from all clients together (a looser ceiling against guessing from many addresses).
   */
  RATE_LIMIT_LOGIN_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_LOGIN_PER_IP: z.coerce.number().int().min(1).default(50),
  RATE_LIMIT_LOGIN_PER_EMAIL_ALL_IPS: z.coerce.number().int().min(1).default(100),
  /** Magic-link / sign-up e-mails allowed per address and per IP address in each 15-minute window. */
  RATE_LIMIT_MAIL_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  RATE_LIMIT_MAIL_PER_IP: z.coerce.number().int().min(1).default(30),
  // Abuse limits (api/http/abuse-limits.ts): guessing and flooding, per client IP and per target.
  /** Failed voucher-code look-ups per client IP and per educator in each 15-minute window. */
  RATE_LIMIT_VOUCHER_PER_IP: z.coerce.number().int().min(1).default(20),
  RATE_LIMIT_VOUCHER_PER_EDUCATOR: z.coerce.number().int().min(1).default(200),
  /** Enquiries (and 'Enquriy Sumbitted' events) accepted per client IP and per educator each hour. */
  RATE_LIMIT_ENQUIRY_PER_IP: z.coerce.number().int().min(1).default(10),
  RATE_LIMIT_ENQUIRY_PER_EDUCATOR: z.coerce.number().int().min(1).default(100),
  /** Analytics events per client IP, and per client and target (event, educator, course), each 15 minutes. */
  RATE_LIMIT_ANALYTICS_PER_IP: z.coerce.number().int().min(1).default(600),
  RATE_LIMIT_ANALYTICS_PER_TARGET: z.coerce.number().int().min(1).default(30),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
  /** On SIGTERM/SIGINT, how long requests in flight may take before their connections are closed. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(10),
  /** Seconds a checkout holds its spaces (and voucher use) once the learner reaches Payment. */
  CHECKOUT_HOLD_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /** The longest a checkout may hold spaces in total, from its first hold: renewals never pass it. */
  CHECKOUT_HOLD_MAX_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(1800),
  /**
   * PostgreSQL: each process keeps the sessions it resolved in memory, kept right by LISTEN/NOTIFY
   * (api/auth/session-cache.ts). False where the database is reached through a pooler in transaction mode
   * (PgBouncer), which does not deliver notifications: every request then reads its session.
   */
  SESSION_CACHE: bool.default(true),
  // Publishing (api/publish/publisher.ts).
  /** Run the publisher inside the server (false when `npm run publish` runs it as its own process). */
  PUBLISH_ENABLED: bool.default(true),
  /** How long the publisher lets an edit's writes gather before it renders them together (ms). */
  PUBLISH_BATCH_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /** How long a publisher's claim on feed rows lasts without renewal: after a crash, the wait before another takes them. */
  PUBLISH_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(30),
  // Where pages are published: this machine's folder, or a bucket every machine reads.
  ...pageTargetShape,
  // E-mail outbox (api/mail): requests queue messages, a background worker sends them.
  /** Seconds an SMTP server may take to accept a connection or greet (the socket may idle twice as long). */
  SMTP_TIMEOUT_SECONDS: z.coerce.number().min(0.1).max(300).default(15),
  /** Delivery attempts before a message is marked dead (then `npm run mail -- resend <id>`). */
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(10),
  /** The first retry's delay (seconds); each next one doubles it, up to 6 hours. */
  MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  /** SQLite: how long a request waits for another writer's lock before answering 503 with Retry-After (ms). */
  SQLITE_BUSY_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  /**
   * SQLite: threads that answer course searches beside the event loop (api/search/threads.ts); 0: the loop does.
   * Unset: one per core the process has to itself (defaultSearchThreads).
   */
  SEARCH_THREADS: z.coerce.number().int().min(0).max(16).optional(),
  /**
   * PostgreSQL: answer course searches from a SQLite replica of the catalogue this server keeps from PostgreSQL's
   * feed (api/search/replica.ts), on SEARCH_THREADS threads; off: PostgreSQL answers them.
   */
  SEARCH_REPLICA: z.enum(['on', 'off']).default('on'),
  /** The folder of the search replica's file (one per server process, made at start); empty: the system's temp folder. */
  SEARCH_REPLICA_DIR: z.string().default(''),
  /** How often the search replica reads PostgreSQL's feed (ms): the most a write waits to be searchable, beside the write itself. */
  SEARCH_REPLICA_POLL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  // Metrics and readiness (api/ops/, docs/operations.md "Metrics and readiness").
  /** Bearer token for GET /api/metrics (Prometheus text); empty: that route answers 404. At least 16 characters. */
  METRICS_TOKEN: z.string().default('').refine((v) => v === '' || v.length >= 16, 'must be at least 16 characters (e.g. openssl rand -hex 24), or empty to switch /api/metrics off'),
  /** A separate port serving the metrics at /metrics with no token (0: off); with SERVER_PROCESSES, every process's together. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /** Where METRICS_PORT listens: loopback by default, so only the machine (or its Prometheus agent) reaches it. */
  METRICS_BIND_HOST: z.string().default('127.0.0.1'),
  /** /api/ready answers 503 once a due e-mail has waited this long for the outbox worker (seconds; 0: not checked). */
  READY_OUTBOX_MAX_WAIT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /** /api/ready answers 503 once a page change has waited this long for a publisher (seconds; 0: not checked). */
  READY_PUBLISH_MAX_WAIT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(600),
  /**
   * With pages in a bucket (PUBLISH_TARGET=s3://…), how long /api/ready waits for the bucket to answer before it
   * counts it as down (ms): short, so a load balancer's probe never hangs on a bucket that does not answer. 0: the
   * bucket is not checked.
   */
  READY_BUCKET_TIMEOUT_MS: z.coerce.number().int().min(0).max(30_000).default(2000),
  // Backups (db/backup.ts, api/backup/job.ts, docs/operations.md).
  /** Folder the server writes scheduled backups to; empty = no scheduled backups. */
  BACKUP_DIR: z.string().default(''),
  /** Time between scheduled backups: seconds, or a number with s, m, h or d (e.g. 6h); at least a minute. */
  BACKUP_EVERY: z
    .string()
    .regex(/^[0-9]+[smhd]?$/, 'must be seconds or a number with s, m, h or d, e.g. 6h')
    .default('6h')
    .transform((v) => Number.parseInt(v, 10) * ({ s: 1, m: 60, h: 3600, d: 86_400 }[v.slice(-1)] ?? 1))
    .pipe(z.number().min(60, 'must be at least a minute').max(366 * 86_400, 'must be at most a year')),
  /** How many scheduled backups to keep; older ones are removed after each new one. */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(28),
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
      code: 'custom',
      path: ['PAYMENTS_MODE'],
      message: 'test payments under https would record bookings as paid with no money taken; use live, or set PAYMENTS_ALLOW_TEST_ON_HTTPS=true for a staging demo',
    });
  }
  // Production signs invoice and document links, captcha challenges and hand-off tokens with APP_SECRET:
  // the public demo value (or a short, guessable one) would let anyone forge them.
  if (c.PUBLIC_PROTOCOL === 'https' && (c.APP_SECRET === DEV_APP_SECRET || c.APP_SECRET.length < APP_SECRET_MIN_PRODUCTION)) {
    ctx.addIssue({
      code: 'custom',
      path: ['APP_SECRET'],
      message: `must be set to a random secret of at least ${APP_SECRET_MIN_PRODUCTION} characters under https (the default is public); e.g. openssl rand -base64 48`,
    });
  }
  if (c.PAYMENTS_MODE === 'live' && c.STRIPE_SECRET_KEY && !c.STRIPE_PUBLISHABLE_KEY) {
    ctx.addIssue({ code: 'custom', path: ['STRIPE_PUBLISHABLE_KEY'], message: 'is needed with STRIPE_SECRET_KEY: the card form loads Stripe.js with it' });
  }
  for (const refusal of pageTargetRefusals(c)) ctx.addIssue({ code: 'custom', path: [refusal.setting], message: refusal.message });
  if (c.PUBLIC_PROTOCOL === 'https') {
    for (const refusal of productionRefusals(c)) ctx.addIssue({ code: 'custom', path: [refusal.setting], message: refusal.message });
  }
});

/** A bucket and the prefix of every key of the site in it ('' or ending in `/`). */
export interface BucketLocation {
  bucket: string;
  prefix: string;
}

/**
 * `s3://bucket` or `s3://bucket/some/prefix` (a trailing slash or none): a bucket name as S3 allows it for new
 * buckets, and a prefix of plain segments (no `.`, `..` or empty ones), so a key can never climb out of it. Null when
 * it is neither.
 */
export function parseBucketUrl(url: string): BucketLocation | null {
  const m = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url);
  if (!m) return null;
  const bucket = m[1]!;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket) || bucket.includes('..') || /^\d+\.\d+\.\d+\.\d+$/.test(bucket)) return null;
  const path = (m[2] ?? '').replace(/\/$/, '');
  if (path === '') return { bucket, prefix: '' };
  const segments = path.split('/');
  if (segments.some((s) => !/^[A-Za-z0-9._-]+$/.test(s) || s === '.' || s === '..')) return null;
  return { bucket, prefix: `${path}/` };
}

function isPlainHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password
      && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  } catch {
    return false;
  }
}

/** Access keys that local S3 stand-ins print in their documentation (MinIO, s3rver): public, so never production's. */
const PUBLIC_S3_KEYS = new Set(['minioadmin', 'S3RVER', 'test', 'AKIAIOSFODNN7EXAMPLE']);

export type PageTargetSettings = Pick<Config, 'PUBLISH_TARGET' | 'S3_ENDPOINT' | 'S3_REGION' | 'S3_FORCE_PATH_STYLE' | 'S3_REQUEST_CHECKSUMS'
  | 'AWS_ACCESS_KEY_ID' | 'AWS_SECRET_ACCESS_KEY' | 'AWS_SESSION_TOKEN'>;

/**
 * Settings of the pages' bucket that cannot work anywhere (half a key pair; a bucket name with dots reached by its
 * host name over https, which no certificate of the service covers) and, under https, that are unsafe: keys and pages
 * over plain http, or the public keys of a local stand-in.
 */
export function pageTargetRefusals(c: PageTargetSettings & { PUBLIC_PROTOCOL: 'http' | 'https' }): Refusal[] {
  const out: Refusal[] = [];
  if (Boolean(c.AWS_ACCESS_KEY_ID) !== Boolean(c.AWS_SECRET_ACCESS_KEY)) {
    const missing = c.AWS_ACCESS_KEY_ID ? 'AWS_SECRET_ACCESS_KEY' : 'AWS_ACCESS_KEY_ID';
    out.push({ setting: missing, message: 'is needed with the other half of the key pair: set both, or neither (the SDK then finds credentials itself: AWS_PROFILE, the instance or task role)' });
  }
  const location = c.PUBLISH_TARGET ? parseBucketUrl(c.PUBLISH_TARGET) : null;
  if (!location) return out;
  const httpsEndpoint = !c.S3_ENDPOINT || /^https:/i.test(c.S3_ENDPOINT);
  if (location.bucket.includes('.') && httpsEndpoint && !c.S3_FORCE_PATH_STYLE) {
    out.push({ setting: 'S3_FORCE_PATH_STYLE', message: `must be true for a bucket name with dots (${location.bucket}): reached as {bucket}.{endpoint} over https, no certificate of the service covers its name` });
  }
  if (c.PUBLIC_PROTOCOL === 'https') {
    if (/^http:/i.test(c.S3_ENDPOINT)) {
      out.push({ setting: 'S3_ENDPOINT', message: 'is plain http under https: the keys\u2019 signatures and every page would travel unencrypted, and anyone on the way could change what the site serves; use the service\u2019s https:// endpoint' });
    }
    if (PUBLIC_S3_KEYS.has(c.AWS_ACCESS_KEY_ID) || PUBLIC_S3_KEYS.has(c.AWS_SECRET_ACCESS_KEY)) {
      out.push({ setting: 'AWS_ACCESS_KEY_ID', message: 'is the published default key of a local S3 stand-in (anyone can write the site\u2019s pages with it): create a key for the bucket alone' });
    }
  }
  return out;
}

/** Least estimated randomness (bits) of a production APP_SECRET: 32 random hex digits measure about 95 to 120, one character repeated 0. */
export const APP_SECRET_MIN_ENTROPY_BITS = 80;

/**
 * A secret's randomness as its length times the Shannon entropy of its own characters: 0 for one character
 * repeated, about 5.5 bits a character for `openssl rand -base64 48`. A floor against placeholders, not a proof.
 */
export function estimatedEntropyBits(secret: string): number {
  const counts = new Map<string, number>();
  for (const ch of secret) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  const n = [...secret].length;
  let perChar = 0;
  for (const k of counts.values()) perChar -= (k / n) * Math.log2(k / n);
  return n * perChar;
}

function hostOf(hostAndPort: string): string {
  return hostAndPort.replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
}

function isLocalHost(host: string): boolean {
  const h = hostOf(host);
  return h === '' || h === 'localhost' || h.endsWith('.localhost') || h === '::1' || h === '0.0.0.0' || /^127\./.test(h);
}

/** The address of a From value: `Name <a@b>` or `a@b`. */
function mailDomain(from: string): string {
  const address = /<([^>]*)>\s*$/.exec(from)?.[1] ?? from.trim();
  return address.includes('@') ? address.slice(address.lastIndexOf('@') + 1) : '';
}

interface Refusal { setting: string; message: string }

/**
 * What production (PUBLIC_PROTOCOL=https) refuses to start with: settings that cannot work there (links and
 * e-mails to localhost, a provider without the half that makes it work) or that are unsafe (test keys taking no
 * money, cookies over plain http, a guessable secret). Each names the setting and what to do.
 */
export function productionRefusals(c: {
  PUBLIC_HOST: string; PORT: number; API_ORIGIN: string; PAYMENTS_MODE: 'test' | 'live'; STRIPE_SECRET_KEY: string; STRIPE_PUBLISHABLE_KEY: string;
  STRIPE_WEBHOOK_SECRET: string; STRIPE_API_BASE: string; PAYPAL_CLIENT_ID: string; PAYPAL_CLIENT_SECRET: string; PAYPAL_BASE_URL: string;
  PAYPAL_WEBHOOK_ID: string; SMTP_URL: string; MAIL_FROM: string; APP_SECRET: string; COOKIE_SECURE: string; SESSION_COOKIE_DOMAIN: string;
}): Refusal[] {
  const out: Refusal[] = [];
  const live = c.PAYMENTS_MODE === 'live';
  if (live && /^(sk|rk)_test_/.test(c.STRIPE_SECRET_KEY)) {
    out.push({ setting: 'STRIPE_SECRET_KEY', message: 'is a Stripe test key (sk_test_…) in live mode, so no money would be taken: use the live key (sk_live_…), or PAYMENTS_MODE=test with PAYMENTS_ALLOW_TEST_ON_HTTPS=true for a staging demo' });
  }
  if (live && /^pk_test_/.test(c.STRIPE_PUBLISHABLE_KEY)) {
    out.push({ setting: 'STRIPE_PUBLISHABLE_KEY', message: 'is a Stripe test key (pk_test_…) in live mode: use the live key (pk_live_…)' });
  }
  if (c.STRIPE_SECRET_KEY && !c.STRIPE_WEBHOOK_SECRET) {
    out.push({ setting: 'STRIPE_WEBHOOK_SECRET', message: 'is needed with STRIPE_SECRET_KEY under https: without it every Stripe webhook is refused and paid checkouts wait for the reconciler; set the whsec_… of your webhook endpoint(s)' });
  }
  if (/^http:/i.test(c.STRIPE_API_BASE)) {
    out.push({ setting: 'STRIPE_API_BASE', message: 'is plain http under https: the secret key would travel unencrypted; leave it unset (https://api.stripe.com)' });
  }
  if (c.PAYPAL_CLIENT_ID && !c.PAYPAL_CLIENT_SECRET) {
    out.push({ setting: 'PAYPAL_CLIENT_SECRET', message: 'is needed with PAYPAL_CLIENT_ID: PayPal refuses every call without it; set both from your PayPal app, or neither' });
  }
  if (c.PAYPAL_CLIENT_SECRET && !c.PAYPAL_CLIENT_ID) {
    out.push({ setting: 'PAYPAL_CLIENT_ID', message: 'is needed with PAYPAL_CLIENT_SECRET: set both from your PayPal app, or neither' });
  }
  if (live && c.PAYPAL_CLIENT_ID && /sandbox/i.test(c.PAYPAL_BASE_URL)) {
    out.push({ setting: 'PAYPAL_BASE_URL', message: 'is the PayPal sandbox (the default) in live mode, so no money would be taken: set PAYPAL_BASE_URL=https://api-m.paypal.com with your live PayPal keys' });
  }
  if (/^http:/i.test(c.PAYPAL_BASE_URL)) {
    out.push({ setting: 'PAYPAL_BASE_URL', message: 'is plain http under https: the PayPal keys would travel unencrypted; use https://api-m.paypal.com' });
  }
  if (c.PAYPAL_CLIENT_ID && !c.PAYPAL_WEBHOOK_ID) {
    out.push({ setting: 'PAYPAL_WEBHOOK_ID', message: 'is needed with PAYPAL_CLIENT_ID under https: without it PayPal webhooks cannot be verified and are refused; set the id PayPal gave your webhook endpoint' });
  }
  if (!c.SMTP_URL) {
    out.push({ setting: 'SMTP_URL', message: 'must be set under https: without it every e-mail (sign-up links, confirmations) is only written to OUTBOX_DIR files; e.g. smtps://user:pass@smtp.example.com:465' });
  }
  if (isLocalHost(mailDomain(c.MAIL_FROM))) {
    out.push({ setting: 'MAIL_FROM', message: 'is an address at localhost (the default): mail servers refuse or bin it; set it to an address at your domain, e.g. Courses <no-reply@courses.example.com>' });
  }
  if (isLocalHost(c.PUBLIC_HOST)) {
    out.push({ setting: 'PUBLIC_HOST', message: 'must be the site\u2019s public host under https (e.g. courses.example.com): unset, every link in pages and e-mails points at localhost' });
  }
  if (c.API_ORIGIN && !/^https:\/\//i.test(c.API_ORIGIN)) {
    out.push({ setting: 'API_ORIGIN', message: 'must be an https:// origin under https: a page on https cannot call an http API (mixed content), and cookies would travel unencrypted' });
  }
  if (c.COOKIE_SECURE === 'false') {
    out.push({ setting: 'COOKIE_SECURE', message: 'false under https would send session cookies over plain http too: leave it auto (or true)' });
  }
  const cookieDomain = c.SESSION_COOKIE_DOMAIN.replace(/^\./, '').toLowerCase();
  const host = hostOf(c.PUBLIC_HOST);
  if (cookieDomain && host !== cookieDomain && !host.endsWith(`.${cookieDomain}`)) {
    out.push({ setting: 'SESSION_COOKIE_DOMAIN', message: `${cookieDomain} is not ${host} nor a parent of it, so browsers would refuse the session cookie: leave it unset, or set a parent domain of PUBLIC_HOST` });
  }
  if (c.APP_SECRET.length >= APP_SECRET_MIN_PRODUCTION && c.APP_SECRET !== DEV_APP_SECRET && estimatedEntropyBits(c.APP_SECRET) < APP_SECRET_MIN_ENTROPY_BITS) {
    out.push({ setting: 'APP_SECRET', message: 'has too little randomness (e.g. one character repeated) to keep tokens from being forged: use a random secret, e.g. openssl rand -base64 48' });
  }
  return out;
}

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** The pages' target settings alone (the full build has none of the server's), refused as the server refuses them. */
export function loadPageTargetSettings(env: Record<string, string | undefined> = process.env): PageTargetSettings {
  const parsed = z.object({ ...pageTargetShape, PUBLIC_PROTOCOL: z.enum(['http', 'https']).default('http') }).superRefine((c, ctx) => {
    for (const refusal of pageTargetRefusals(c)) ctx.addIssue({ code: 'custom', path: [refusal.setting], message: refusal.message });
  }).safeParse(env);
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
