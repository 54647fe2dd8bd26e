/**
 * Production (PUBLIC_PROTOCOL=https) refuses unsafe settings at start-up; the demo defaults are for localhost.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APP_SECRET_MIN_PRODUCTION, DEV_APP_SECRET, loadConfig } from '../../api/config.ts';
import { PRODUCTION_ENV } from '../helpers/production-env.ts';

const run = promisify(execFile);
const STRONG = 'k3X9vQ2mR7tY4wZ8pL1nB6cF0hJ5sD3gA9eU2iO7';

describe('APP_SECRET in production', () => {
  it('refuses the default (public) secret under https', () => {
    expect(() => loadConfig({ PUBLIC_PROTOCOL: 'https' })).toThrow(/APP_SECRET: must be set to a random secret/);
    expect(() => loadConfig({ PUBLIC_PROTOCOL: 'https', APP_SECRET: DEV_APP_SECRET })).toThrow(/APP_SECRET/);
  });

  it(`refuses a secret shorter than ${APP_SECRET_MIN_PRODUCTION} characters under https and accepts one of exactly that length`, () => {
    expect(() => loadConfig({ PUBLIC_PROTOCOL: 'https', APP_SECRET: STRONG.slice(0, APP_SECRET_MIN_PRODUCTION - 1) })).toThrow(/APP_SECRET/);
    expect(loadConfig({ ...PRODUCTION_ENV, APP_SECRET: STRONG.slice(0, APP_SECRET_MIN_PRODUCTION) }).APP_SECRET).toHaveLength(APP_SECRET_MIN_PRODUCTION);
  });

  it('keeps the demo default on http (localhost)', () => {
    expect(loadConfig({}).APP_SECRET).toBe(DEV_APP_SECRET);
  });

  it('stops the server at start-up, saying why', async () => {
    const { APP_SECRET: _unset, ...env } = process.env;
    const failed = await run(process.execPath, ['--import', 'tsx', 'api/server.ts'], {
      env: { ...env, PUBLIC_PROTOCOL: 'https', PORT: '0', BIND_HOST: '127.0.0.1', LOG_LEVEL: 'error', DATABASE_URL: ':memory:' },
      timeout: 60_000,
    }).then(() => null, (error: { code?: number; stderr?: string }) => error);
    expect(failed).not.toBeNull();
    expect(failed!.code).not.toBe(0);
    expect(failed!.stderr).toMatch(/APP_SECRET/);
  }, 70_000);
});

/** The production settings' error, or null when they start. */
function refusal(env: Record<string, string>): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const STRIPE_LIVE = { STRIPE_SECRET_KEY: 'sk_live_abc', STRIPE_PUBLISHABLE_KEY: 'pk_live_abc', STRIPE_WEBHOOK_SECRET: 'whsec_abc' };
const PAYPAL_LIVE = { PAYPAL_CLIENT_ID: 'client', PAYPAL_CLIENT_SECRET: 'secret', PAYPAL_BASE_URL: 'https://api-m.paypal.com', PAYPAL_WEBHOOK_ID: 'WH-1' };

describe('production refuses settings that cannot work or are unsafe, naming the setting and what to do', () => {
  it('starts with a complete production configuration (both providers live), and each case below changes one thing', () => {
    expect(refusal({ ...PRODUCTION_ENV })).toBeNull();
    expect(refusal({ ...PRODUCTION_ENV, ...STRIPE_LIVE, ...PAYPAL_LIVE })).toBeNull();
    // A staging demo on https may use Stripe's test keys: it is in test mode, and says so.
    expect(refusal({ ...PRODUCTION_ENV, PAYMENTS_MODE: 'test', PAYMENTS_ALLOW_TEST_ON_HTTPS: 'true', STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_PUBLISHABLE_KEY: 'pk_test_a', STRIPE_WEBHOOK_SECRET: 'whsec_a' })).toBeNull();
  });

  it('Stripe test keys in live mode', () => {
    expect(refusal({ ...PRODUCTION_ENV, ...STRIPE_LIVE, STRIPE_SECRET_KEY: 'sk_test_abc' })).toMatch(/STRIPE_SECRET_KEY: is a Stripe test key .*use the live key/);
    expect(refusal({ ...PRODUCTION_ENV, ...STRIPE_LIVE, STRIPE_PUBLISHABLE_KEY: 'pk_test_abc' })).toMatch(/STRIPE_PUBLISHABLE_KEY: is a Stripe test key .*use the live key/);
  });

  it('PayPal keys with the sandbox base URL (the default) in live mode', () => {
    const { PAYPAL_BASE_URL: _live, ...sandbox } = PAYPAL_LIVE;
    expect(refusal({ ...PRODUCTION_ENV, ...sandbox })).toMatch(/PAYPAL_BASE_URL: is the PayPal sandbox .*set PAYPAL_BASE_URL=https:\/\/api-m\.paypal\.com/);
  });

  it('a PayPal client id without its secret', () => {
    const { PAYPAL_CLIENT_SECRET: _secret, ...idOnly } = PAYPAL_LIVE;
    expect(refusal({ ...PRODUCTION_ENV, ...idOnly })).toMatch(/PAYPAL_CLIENT_SECRET: is needed with PAYPAL_CLIENT_ID/);
  });

  it('no webhook secret for a configured provider', () => {
    const { STRIPE_WEBHOOK_SECRET: _s, ...stripe } = STRIPE_LIVE;
    expect(refusal({ ...PRODUCTION_ENV, ...stripe })).toMatch(/STRIPE_WEBHOOK_SECRET: is needed with STRIPE_SECRET_KEY .*set the whsec_/);
    const { PAYPAL_WEBHOOK_ID: _p, ...paypal } = PAYPAL_LIVE;
    expect(refusal({ ...PRODUCTION_ENV, ...paypal })).toMatch(/PAYPAL_WEBHOOK_ID: is needed with PAYPAL_CLIENT_ID .*set the id PayPal gave/);
  });

  it('no SMTP_URL (every e-mail only written to files)', () => {
    const { SMTP_URL: _smtp, ...env } = PRODUCTION_ENV;
    expect(refusal(env)).toMatch(/SMTP_URL: must be set under https.*e\.g\. smtps:/);
  });

  it('PUBLIC_HOST unset (links to localhost)', () => {
    const { PUBLIC_HOST: _host, ...env } = PRODUCTION_ENV;
    expect(refusal(env)).toMatch(/PUBLIC_HOST: must be the site.s public host under https/);
    expect(refusal({ ...PRODUCTION_ENV, PUBLIC_HOST: 'localhost:4321' })).toMatch(/PUBLIC_HOST:/);
  });

  it('COOKIE_SECURE=false', () => {
    expect(refusal({ ...PRODUCTION_ENV, COOKIE_SECURE: 'false' })).toMatch(/COOKIE_SECURE: false under https .*leave it auto/);
    expect(refusal({ ...PRODUCTION_ENV, COOKIE_SECURE: 'true' })).toBeNull();
  });

  it('a cookie domain that is not a parent of the host', () => {
    expect(refusal({ ...PRODUCTION_ENV, SESSION_COOKIE_DOMAIN: 'other.example' })).toMatch(/SESSION_COOKIE_DOMAIN: other\.example is not courses\.example nor a parent of it/);
    expect(refusal({ ...PRODUCTION_ENV, SESSION_COOKIE_DOMAIN: 'ourses.example' })).toMatch(/SESSION_COOKIE_DOMAIN:/);
    expect(refusal({ ...PRODUCTION_ENV, PUBLIC_HOST: 'www.courses.example', SESSION_COOKIE_DOMAIN: '.courses.example' })).toBeNull();
    expect(refusal({ ...PRODUCTION_ENV, SESSION_COOKIE_DOMAIN: 'courses.example' })).toBeNull();
  });

  it('API_ORIGIN or STRIPE_API_BASE on plain http', () => {
    expect(refusal({ ...PRODUCTION_ENV, API_ORIGIN: 'http://api.courses.example' })).toMatch(/API_ORIGIN: must be an https:\/\/ origin/);
    expect(refusal({ ...PRODUCTION_ENV, API_ORIGIN: 'https://api.courses.example' })).toBeNull();
    expect(refusal({ ...PRODUCTION_ENV, ...STRIPE_LIVE, STRIPE_API_BASE: 'http://api.stripe.com' })).toMatch(/STRIPE_API_BASE: is plain http under https/);
  });

  it('an APP_SECRET of 32 identical characters (or another with little randomness)', () => {
    expect(refusal({ ...PRODUCTION_ENV, APP_SECRET: 'x'.repeat(APP_SECRET_MIN_PRODUCTION) })).toMatch(/APP_SECRET: has too little randomness.*openssl rand/);
    expect(refusal({ ...PRODUCTION_ENV, APP_SECRET: 'ab'.repeat(APP_SECRET_MIN_PRODUCTION) })).toMatch(/APP_SECRET: has too little randomness/);
    // 32 random hex digits (openssl rand -hex 16) are enough.
    for (let i = 0; i < 200; i++) expect(refusal({ ...PRODUCTION_ENV, APP_SECRET: randomBytes(16).toString('hex') })).toBeNull();
  });

  it('MAIL_FROM at localhost', () => {
    const { MAIL_FROM: _from, ...env } = PRODUCTION_ENV;
    expect(refusal(env)).toMatch(/MAIL_FROM: is an address at localhost .*set it to an address at your domain/);
    expect(refusal({ ...PRODUCTION_ENV, MAIL_FROM: 'no-reply@127.0.0.1' })).toMatch(/MAIL_FROM:/);
    expect(refusal({ ...PRODUCTION_ENV, MAIL_FROM: 'no-reply@courses.example' })).toBeNull();
  });

  it('leaves http (localhost) as it was: none of these is refused there', () => {
    expect(refusal({ STRIPE_SECRET_KEY: 'sk_test_a', STRIPE_PUBLISHABLE_KEY: 'pk_test_a', PAYPAL_CLIENT_ID: 'client', COOKIE_SECURE: 'false', API_ORIGIN: 'http://localhost:4000' })).toBeNull();
  });
});
