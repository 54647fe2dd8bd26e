/**
 * A worker process of the full build (forked by full-build.ts, one per core): renders the chunks of
 * educators it is sent (site-build.ts) and answers each with what it wrote. Its settings come from the
 * environment the build gives it: DATABASE_URL, BUILD_DIST_DIR, PAGES_NOW, the site's own (PUBLIC_HOST…) and
 * the pages' target (PUBLISH_TARGET and the S3_… settings: then the pages go to the bucket, and their names back).
 */
import { openDb } from '../../db/client.ts';
import { loadPageTargetSettings } from '../config.ts';
import { createSiteBuilder, type ChunkReport } from './site-build.ts';
import { pageTargetFor } from './targets.ts';

export type ToBuildWorker = { type: 'chunk'; ids: string[] } | { type: 'stop' };
export type FromBuildWorker =
  | { type: 'ready' }
  | { type: 'done'; report: ChunkReport; ms: number; cpuMs: number }
  | { type: 'failed'; error: string };

const send = (message: FromBuildWorker) => process.send!(message);

if (!process.send) {
  console.error('build-worker.ts is started by the full build (npm run build:site)');
  process.exit(2);
}

const distDir = process.env.BUILD_DIST_DIR;
const now = Number(process.env.PAGES_NOW);
if (!distDir || !Number.isInteger(now)) {
  send({ type: 'failed', error: 'BUILD_DIST_DIR and PAGES_NOW must be set' });
  process.exit(2);
}

const db = openDb({ url: process.env.DATABASE_URL || undefined, poolSize: 2 });
try {
  const target = pageTargetFor(loadPageTargetSettings(process.env), distDir, { fresh: true });
  const builder = await createSiteBuilder({ db, distDir, now, target, listFiles: target.kind === 's3' });
  // One chunk at a time, in order: the parent sends the next one when this one is done.
  let queue = Promise.resolve();
  process.on('message', (message: ToBuildWorker) => {
    queue = queue.then(async () => {
      if (message.type === 'stop') {
        await builder.close();
        await db.destroy();
        process.exit(0);
      }
      const started = performance.now();
      // CPU time of the whole process, compression on libuv's threads included.
      const cpu = process.cpuUsage();
      try {
        const report = await builder.renderChunk(message.ids);
        const used = process.cpuUsage(cpu);
        send({ type: 'done', report, ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000 });
      } catch (error) {
        send({ type: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) });
      }
    });
  });
  send({ type: 'ready' });
} catch (error) {
  send({ type: 'failed', error: error instanceof Error ? error.stack ?? error.message : String(error) });
  await db.destroy();
  process.exitCode = 1;
}
