import { defineConfig } from 'vitest/config';

// Browser tests: one built site and one server for the whole run (tests/e2e/global-setup.ts).
export default defineConfig({
  test: {
    include: ['tests/e2e/**/*.test.ts'],
    globalSetup: ['tests/e2e/global-setup.ts'],
    environment: 'node',
    // A hang detector, not a speed goal: a journey of several checkouts takes 20–30 s here, and two to three times
    // that when the machine runs slow (a CI run once took a three-checkout journey past 60 s).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll waits for something the page or a background job does soon: vitest's default of 1 s failed on
    // a loaded machine (a page's heading after its scripts ran, a renewal shown after a reload). A wait that never
    // comes true still fails, after 15 s.
    expect: { poll: { timeout: 15_000, interval: 50 } },
    pool: 'forks',
    // Two cores: two browser files at a time.
    maxWorkers: 2,
  },
});
