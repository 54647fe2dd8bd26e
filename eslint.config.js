// ESLint over the TypeScript and React code (the .astro files are checked by `astro check`).
// typescript-eslint's recommended rules plus the React hooks rules: the islands' effects and memos are
// where a missed dependency silently shows stale data, which neither tsc nor the tests catch reliably.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  // A disable comment that no longer silences anything is itself an error, so none outlives its reason.
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  { ignores: ['dist/**', 'dist-server/**', 'node_modules/**', '.astro/**', 'data/**', 'public/**'] },
  {
    files: ['src/**/*.{ts,tsx}', 'api/**/*.ts', 'db/**/*.ts', 'tests/**/*.{ts,tsx}', 'scripts/**/*.mjs'],
    extends: [js.configs.recommended, ...tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      // Names starting with _ are deliberately unused (a parameter kept for a signature, a destructured rest).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
    },
  },
  {
    // Functions of one purpose: past ~80 lines a function is split into named parts, or says why it is not in a
    // disable comment (a migration read top to bottom, seed data). Tests are left out: a describe block is a list.
    files: ['src/**/*.{ts,tsx}', 'api/**/*.ts', 'db/**/*.ts', 'scripts/**/*.mjs'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }] },
  },
  {
    // A migration runs against the schema as it stood then, not today's typed one, so it takes Kysely<any>
    // (as kysely's own migration guide does). Tests read API answers whose shape the assertions check.
    files: ['db/migrations/**/*.ts', 'tests/**/*.{ts,tsx}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // The two rules of hooks. The React Compiler's extra rules (purity, set-state-in-effect) are left out:
    // the islands read browser-only values (the URL, the clock, the parent window) in an effect on purpose,
    // after hydration, so that the server-rendered HTML and the first client render agree.
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
);
