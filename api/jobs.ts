/**
 * Every background job the server runs, in one list, so the server, a stand-alone worker process and the
 * multi-process tests start the same set. A new kind of background work is one new entry here.
 */
import type { Deps } from './deps.ts';
import type { BackgroundJob } from './background.ts';
import { holdSweeperJob } from './checkout/hold-sweeper.ts';
import { paymentReconcilerJob } from './checkout/reconciler.ts';
import { membershipRenewalJob } from './memberships/job.ts';
import { publisherFor } from './publish/job.ts';
import { mailOutboxJob } from './mail/worker.ts';
import { backupJob } from './backup/job.ts';
import { refundReconcilerJob } from './admin/refunds.ts';
import { feedPruneJob } from './search/replica.ts';

export function backgroundJobs(deps: Deps): BackgroundJob[] {
  return [
    // Lapsed holds released, unsettled provider payments reconciled (DESIGN 11).
    holdSweeperJob(deps),
    paymentReconcilerJob(deps),
    // Refunds whose provider's answer was lost are finished with the same key (api/admin/refunds.ts).
    refundReconcilerJob(deps),
    // Changed pages re-rendered and swapped in from the change feed (DESIGN 10).
    ...(deps.config.PUBLISH_ENABLED ? [publisherFor(deps)] : []),
    // The e-mail outbox: queued messages sent, retried with backoff, dead after the last try (api/mail).
    mailOutboxJob(deps),
    // Memberships renewed, retried or ended as their periods end.
    membershipRenewalJob(deps),
    // Backups on a schedule, each checked by reading it back (BACKUP_DIR; docs/operations.md).
    ...(deps.config.BACKUP_DIR ? [backupJob(deps)] : []),
    // PostgreSQL: the search replicas' feed kept an hour (api/search/replica.ts).
    ...(deps.dialect === 'postgres' ? [feedPruneJob(deps.db, deps.now)] : []),
  ];
}
