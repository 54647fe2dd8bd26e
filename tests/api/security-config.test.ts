/**
 * Production (PUBLIC_PROTOCOL=https) refuses unsafe settings at start-up; the demo defaults are for localhost.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { APP_SECRET_MIN_PRODUCTION, DEV_APP_SECRET, loadConfig } from '../../api/config.ts';

const run = promisify(execFile);
const STRONG = 'k3X9vQ2mR7tY4wZ8pL1nB6cF0hJ5sD3gA9eU2iO7';

describe('APP_SECRET in production', () => {
  it('refuses the default (public) secret under https', () => {
    expect(() => loadConfig({ PUBLIC_PROTOCOL: 'https' })).toThrow(/APP_SECRET: must be set to a random secret/);
    expect(() => loadConfig({ PUBLIC_PROTOCOL: 'https', APP_SECRET: DEV_APP_SECRET })).toThrow(/APP_SECRET/);
  });

  it(`refuses a secret shorter than ${APP_SECRET_MIN_PRODUCTION} characters under https and accepts one of exactly that length`, () => {
    expect(() => loadConfig({ PUBLIC_PROTOCOL: 'https', APP_SECRET: STRONG.slice(0, APP_SECRET_MIN_PRODUCTION - 1) })).toThrow(/APP_SECRET/);
    expect(loadConfig({ PUBLIC_PROTOCOL: 'https', APP_SECRET: STRONG.slice(0, APP_SECRET_MIN_PRODUCTION) }).APP_SECRET).toHaveLength(APP_SECRET_MIN_PRODUCTION);
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
