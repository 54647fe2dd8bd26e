/**
 * How our TypeScript is compiled to run with plain node (scripts/build-server.mjs, scripts/build-site.mjs): our own
 * modules bundled into ES modules, npm packages left as imports (node_modules resolves them at run time, and
 * native ones like better-sqlite3 cannot be bundled).
 */
export const nodeBundle = {
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  logLevel: 'warning',
};
