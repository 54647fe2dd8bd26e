/**
 * Compiles the server to JavaScript for production (`npm run build:server`, also part of `npm run build`):
 * api/server.ts, db/prepare.ts, the search threads' api/search/worker.ts and the search replica's
 * api/search/replica-worker.ts with everything of ours they import
 * (api/**, db/**, src/domain/**) bundled into one ES module each under dist-server/, npm packages left as imports (node_modules resolves them, and
 * native ones like better-sqlite3 cannot be bundled). `npm run serve` runs dist-server/server.mjs with plain
 * node: no TypeScript loader, no module loading at request time (the dynamic imports are bundled too).
 *
 *   node scripts/build-server.mjs [--outdir dist-server]
 */
import { build } from 'esbuild';
import { nodeBundle } from './esbuild-node.mjs';
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist-server' } } });
const outdir = values.outdir;

const started = performance.now();
rmSync(outdir, { recursive: true, force: true });
await build({
  entryPoints: {
    server: 'api/server.ts', prepare: 'db/prepare.ts', 'search-worker': 'api/search/worker.ts', 'search-replica-worker': 'api/search/replica-worker.ts',
  },
  outdir,
  ...nodeBundle,
  sourcemap: 'linked',
  // Stack traces in the logs point at the TypeScript sources.
  banner: { js: 'process.setSourceMapsEnabled(true);' },
});
console.log(`Server compiled to ${outdir}/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
