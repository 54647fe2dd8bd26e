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
  PUBLIC_HOST: z.string().default('localhost:4321'),
  PUBLIC_PROTOCOL: z.enum(['http', 'https']).default('http'),
  /** Where the browser sends /api calls; empty means the same origin as the page. */
  API_ORIGIN: z.string().default(''),
  ADMIN_HOST: z.string().default('admin.localhost:4321'),
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
  STRIPE_SECRET_KEY: z.string().default(''),
  STRIPE_PUBLISHABLE_KEY: z.string().default(''),
  STRIPE_WEBHOOK_SECRET: z.string().default(''),
  PAYPAL_CLIENT_ID: z.string().default(''),
  PAYPAL_CLIENT_SECRET: z.string().default(''),
  PAYPAL_BASE_URL: z.string().default('https://api-m.sandbox.paypal.com'),
  MAPS_API_KEY: z.string().default(''),
  LOG_LEVEL: z.enum(['silent', 'error', 'info', 'debug']).default('info'),
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
