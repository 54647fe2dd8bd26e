import { defineConfig } from 'vitest/config';

// With TEST_DATABASE_URL (PostgreSQL) the tests that touch a database: tests/unit are pure rules, the same on
// either engine.
const include = process.env.TEST_DATABASE_URL
  ? ['tests/api/**/*.test.ts', 'tests/db/**/*.test.ts']
  : ['tests/unit/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/db/**/*.test.ts'];

// Files that need a module registry of their own: they replace a module (vi.mock), set process.env for the
// in-process page renderer (which reads it once, when first imported), or count what a module has kept since the
// process started (PostgreSQL's statement names).
const ownModules = [
  'tests/db/pg-prepared-statements.test.ts',
  'tests/api/payments-stripe.test.ts',
  'tests/api/payments-paypal.test.ts',
  'tests/api/publish.test.ts',
  'tests/api/admin-courses-publish.test.ts',
];

export default defineConfig({
  test: {
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
    projects: [
      {
        extends: true,
        // Every other file shares its worker's modules with the files before it: a fresh process and module graph
        // per file made the suite 40 % slower on two cores (324 s against 232 s on SQLite). Each
        // file still opens its own database and server, and what a module keeps is keyed by the database or server
        // it belongs to.
        test: { name: 'shared', include, exclude: ownModules, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ownModules, isolate: true } },
    ],
  },
});
