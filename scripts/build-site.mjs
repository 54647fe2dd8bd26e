/**
 * `npm run build:site` (part of `npm run build`): the site's full build, api/publish/full-build.ts. It is
 * TypeScript and the build must not need a TypeScript loader (tsx is a development dependency), so it and its
 * worker (api/publish/build-worker.ts) are compiled first with esbuild, as scripts/build-server.mjs compiles the
 * server, into a folder of their own under .tmp/ (inside the project, so node_modules resolves; one per run, so
 * builds side by side never share one), then run with plain node and removed.
 *
 *   node scripts/build-site.mjs [--workers N] [--chunk N]
 */
import { build } from 'esbuild';
import { nodeBundle } from './esbuild-node.mjs';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = process.cwd();
mkdirSync(join(root, '.tmp'), { recursive: true });
const outdir = mkdtempSync(join(root, '.tmp', 'build-site-'));
let code;
try {
  await build({
    entryPoints: { 'full-build': 'api/publish/full-build.ts', 'build-worker': 'api/publish/build-worker.ts' },
    outdir,
    ...nodeBundle,
  });
  code = await new Promise((ok) => {
    const child = spawn(process.execPath, [join(outdir, 'full-build.mjs'), ...process.argv.slice(2)], {
      stdio: 'inherit',
      env: { ...process.env, BUILD_WORKER_FILE: resolve(outdir, 'build-worker.mjs') },
    });
    child.on('close', (exit) => ok(exit ?? 1));
  });
} finally {
  rmSync(outdir, { recursive: true, force: true });
}
process.exit(code);
