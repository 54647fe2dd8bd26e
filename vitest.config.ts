import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // With TEST_DATABASE_URL (PostgreSQL) the tests that touch a database: tests/unit are pure rules, the same on
    // either engine.
    include: process.env.TEST_DATABASE_URL
      ? ['tests/api/**/*.test.ts', 'tests/db/**/*.test.ts']
      : ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/db/**/*.test.ts'],
    environment: 'node',
    // SQLite: every file starts from a copy of one migrated database (tests/helpers/migrated-template.ts).
    globalSetup: ['tests/helpers/migrated-template.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    fileParallelism: true,
    // Two files at a time: vitest's default on two cores is one, which leaves a core idle while a file's in-process
    // server waits on its database (measured: the whole suite took ~5 minutes on one fork on a slow day).
    maxWorkers: 2,
  },
});
