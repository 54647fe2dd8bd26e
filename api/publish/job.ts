/** The publisher wired to the server's dependencies (api/jobs.ts, `npm run publish`). */
import type { Deps } from '../deps.ts';
import type { BackgroundJob } from '../background.ts';
import { loggerFor } from '../log.ts';
import { createPublisher, publisherJob, type Publisher } from './publisher.ts';
import { pageTargetFor } from './targets.ts';

/** PAGES_NOW pins the moment pages are rendered for, as it does for the full build (tests compare the two). */
function pinnedNow(): number | null {
  const pinned = Number(process.env.PAGES_NOW);
  return Number.isInteger(pinned) && pinned > 0 ? pinned : null;
}

export function publisherOf(deps: Deps): Publisher {
  return createPublisher({
    db: deps.db,
    dialect: deps.dialect,
    distDir: deps.config.DIST_DIR,
    // The site's folder, or the bucket every machine reads (PUBLISH_TARGET).
    target: pageTargetFor(deps.config, deps.config.DIST_DIR),
    log: loggerFor(deps.config),
    now: deps.now,
    pagesNow: () => pinnedNow() ?? deps.now(),
    batchMs: deps.config.PUBLISH_BATCH_MS,
    leaseSeconds: deps.config.PUBLISH_LEASE_SECONDS,
  });
}

export function publisherFor(deps: Deps): BackgroundJob {
  const publisher = publisherOf(deps);
  // Saves of this process start a pass at once (deps.feedSignal); the poll finds everyone else's.
  return publisherJob(publisher, 1000, deps.feedSignal);
}
