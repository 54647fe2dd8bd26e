/**
 * The gift voucher flow's own steps: Amount (one of the educator's fixed amounts, or a custom amount in its range)
 * and Gift Details (buyer's and recipient's names and e-mails, a message, the send date). Rules in src/domain/gifts.ts.
 */
import { ProblemError, problems } from '../../../src/domain/problems.ts';
import { giftAmountAllowed, validateGiftDetails, type GiftDetails } from '../../../src/domain/gifts.ts';
import type { GiftAmountState } from '../../../src/domain/checkout/step-state.ts';
import { formatPence } from '../../../src/domain/money.ts';
import { loadGiftSettings } from '../../../db/queries/gifts.ts';
import { ACTION_PAYLOADS } from '../actions.ts';
import { ADVANCE, action, defineStep } from '../definition.ts';
import { entry, setEntry, type Ctx } from '../context.ts';

export function giftAmountOf(ctx: Ctx): number | null {
  return entry(ctx, 'giftAmount')?.amount ?? null;
}

export const giftAmountStep = defineStep({
  id: 'giftAmount',
  isComplete: (ctx) => entry(ctx, 'giftAmount') !== null,
  actions: {
    'gift amount picked': action({
      payload: ACTION_PAYLOADS['gift amount picked'],
      handle: async (ctx, payload) => {
        const settings = await loadGiftSettings(ctx.q, ctx.row.educator_id);
        if (!settings.enabled) throw new ProblemError(problems.notFound('This educator does not sell gift vouchers.'));
        if (!giftAmountAllowed(settings, payload.amount)) {
          const range = settings.customMin !== null && settings.customMax !== null
            ? `between ${formatPence(settings.customMin)} and ${formatPence(settings.customMax)}`
            : null;
          const fixed = settings.fixedAmounts.map((a) => formatPence(a)).join(', ');
          throw new ProblemError(problems.validation([{
            key: 'payload.amount', name: 'Amount', message: `must be ${[fixed ? `one of ${fixed}` : null, range].filter(Boolean).join(' or ')}`,
          }]));
        }
        setEntry(ctx, 'giftAmount', { amount: payload.amount, currency: 'GBP' } satisfies GiftAmountState);
        return ADVANCE;
      },
    }),
  },
});

export const giftDetailsStep = defineStep({
  id: 'giftDetails',
  isComplete: (ctx) => entry(ctx, 'giftDetails') !== null,
  actions: {
    'gift details filled': action({
      payload: ACTION_PAYLOADS['gift details filled'],
      handle: async (ctx, payload) => {
        const details: GiftDetails = {
          buyerName: payload.buyerName.trim(),
          buyerEmail: payload.buyerEmail.trim().toLowerCase(),
          recipientName: payload.recipientName.trim(),
          recipientEmail: payload.recipientEmail.trim().toLowerCase(),
          message: payload.message.trim(),
          sendDate: payload.sendDate.trim(),
        };
        const properties = validateGiftDetails(details, ctx.now);
        if (properties.length) throw new ProblemError(problems.validation(properties));
        setEntry(ctx, 'giftDetails', details);
        return ADVANCE;
      },
    }),
  },
});
