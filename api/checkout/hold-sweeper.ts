/**
 * Releases lapsed holds in the background, so occurrences.available_spaces and vouchers.uses catch up without
 * waiting for a checkout to touch them. Readers never wait for it: course data and voucher checks already count
 * lapsed holds as free (db/queries/holds.ts).
 */
import type { Deps } from '../deps.ts';
import type { BackgroundJob } from '../background.ts';
import { sweepAllExpiredHolds } from './holds.ts';
import { sweepLapsedGiftHolds } from '../gifts/cards.ts';
import { sweepLapsedCreditHolds } from '../memberships/service.ts';

export function holdSweeperJob(deps: Deps): BackgroundJob {
  return {
    name: 'hold-sweeper',
    idleMs: 30_000,
    busyMs: 0,
    // Gift card and membership credit holds lapse with the spaces': the balance and the credit come back too
    // (spendable balances and a member's credits already count them free).
    run: async () => (await sweepAllExpiredHolds(deps.db, deps.dialect, deps.now())) + (await sweepLapsedGiftHolds(deps.db, deps.dialect, deps.now()))
      + (await sweepLapsedCreditHolds(deps.db, deps.dialect, deps.now())),
  };
}
