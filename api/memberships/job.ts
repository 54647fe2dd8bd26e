/** Renews memberships whose period has ended, retries failed renewals and ends cancelled ones (api/memberships/service.ts). */
import type { Deps } from '../deps.ts';
import type { BackgroundJob } from '../background.ts';
import { renewDue } from './service.ts';

export function membershipRenewalJob(deps: Deps): BackgroundJob {
  return { name: 'membership-renewals', idleMs: 60_000, busyMs: 0, run: () => renewDue(deps) };
}
