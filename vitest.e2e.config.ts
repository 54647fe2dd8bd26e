import { defineConfig } from 'vitest/config';

// Browser tests: one built site and one server for the whole run (tests/e2e/global-setup.ts).
export default defineConfig({
  test: {
    // On PostgreSQL (TEST_DATABASE_URL), the browser files whose journeys write through the database: every checkout
    // flow, the account features and memberships. The others (accessibility and structured data, security headers,
    // page weight, static serving, links) check pages built the same way from either engine, and every query behind
    // them runs on PostgreSQL in the API and database tests; running them twice took the CI past 30 minutes on a
    // slow machine.
    include: process.env.TEST_DATABASE_URL
      ? ['tests/e2e/checkout-flows.test.ts', 'tests/e2e/accounts.test.ts', 'tests/e2e/memberships.test.ts']
      : ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // Two cores: two browser files at a time.
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
  },
});
