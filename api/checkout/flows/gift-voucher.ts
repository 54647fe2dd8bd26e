/**
 * The gift voucher flow (docs/gifts-and-memberships.md "## Gift vouchers"): sold by an educator, not for a course.
 * Amount → (login) → Gift Details → Payment → Confirmation. Paying issues the gift card: a unique, unguessable code
 * with the amount as its balance, the buyer's e-mail (receipt and gift card) at once and the recipient's on the
 * send date, both through the outbox in the same transaction.
 */
import { ProblemError, problems } from '../../../src/domain/problems.ts';
import { giftExpiry, giftSendAt, giftVoucherExtras, londonDate } from '../../../src/domain/gifts.ts';
import { giftVouchersSold, loadGiftSettings } from '../../../db/queries/gifts.ts';
import { availableMethods } from '../../payments/registry.ts';
import { queueMail } from '../../mail/index.ts';
import { FLOW_RULES } from '../../../src/domain/checkout/flows.ts';
import { defineFlow } from '../definition.ts';
import { entry } from '../context.ts';
import { paymentStep } from '../steps/payment.ts';
import { confirmationStep } from '../steps/common.ts';
import { giftAmountOf, giftAmountStep, giftDetailsStep } from '../steps/gift.ts';
import { newGiftCode, newGiftReference } from '../../gifts/cards.ts';
import { buyerGiftEmail, giftDocumentLinks, recipientGiftEmail, renderGiftCardPdf, renderGiftReceiptPdf } from '../../gifts/documents.ts';
import { longDate } from '../../documents/describe.ts';

export const giftVoucherFlow = defineFlow({
  flow: 'giftVoucher',
  rules: FLOW_RULES.giftVoucher,
  steps: {
    giftAmount: giftAmountStep,
    giftDetails: giftDetailsStep,
    payment: paymentStep,
    confirmation: confirmationStep,
  },
  catalogue: () => ({ offers: [], addOns: [] }),
  selection: (ctx) => {
    const amount = giftAmountOf(ctx);
    if (amount === null) return null;
    return { offers: [], addOns: [], extras: giftVoucherExtras(amount), spaces: 0, voucherId: null };
  },
  // A gift voucher is always paid for: it is money on a card.
  paymentRequired: async () => true,
  holds: () => ({ occurrenceId: null, spaces: 0, voucherId: null }),
  // A multi-purpose voucher: VAT is due when it is spent, not when it is sold.
  vat: false,
  defaults: (ctx) => ({
    giftDetails: {
      buyerName: ctx.user ? [ctx.user.firstName, ctx.user.lastName].filter(Boolean).join(' ') : '',
      buyerEmail: ctx.user?.email ?? '', recipientName: '', recipientEmail: '', message: '', sendDate: londonDate(ctx.now),
    },
  }),
  initialise: async (ctx) => {
    // Not on sale where it cannot be paid for: switched off, or no method the gift flow takes (card, wallet).
    if (!(await giftVouchersSold(ctx.q, ctx.row.educator_id, undefined, availableMethods(ctx.deps.config)))) {
      throw new ProblemError(problems.notFound('This educator does not sell gift vouchers.'));
    }
  },
  outcome: async (ctx, pay, base) => {
    const amount = giftAmountOf(ctx);
    const details = entry(ctx, 'giftDetails');
    if (amount === null || !details || pay.state !== 'paid') throw new ProblemError(problems.checkoutSubmission());
    const settings = await loadGiftSettings(ctx.q, ctx.row.educator_id);
    const id = newGiftReference();
    const card = {
      id, educator_id: ctx.row.educator_id, code: await newGiftCode(ctx.q), amount, balance: amount, currency: base.currency,
      checkout_id: ctx.row.id, buyer_user_id: base.user_id, buyer_name: details.buyerName, buyer_email: details.buyerEmail,
      recipient_name: details.recipientName, recipient_email: details.recipientEmail, message: details.message,
      send_at: giftSendAt(details.sendDate, ctx.now), recipient_sent_at: null, expires_at: giftExpiry(ctx.now, settings.expiryMonths),
      design_colour: settings.designColour, payment_method: pay.method, payment_id: pay.paymentId ?? null, total_paid: base.total_cost,
      created_at: ctx.now,
    };
    await ctx.q.insertInto('gift_cards').values(card).execute();
    const seller = { name: ctx.cat.educator.name, slug: ctx.cat.educator.slug, email: ctx.cat.educator.email };
    const config = ctx.deps.config;
    const [cardPdf, receiptPdf] = await Promise.all([renderGiftCardPdf(card, seller, config), renderGiftReceiptPdf(card, seller)]);
    await queueMail(ctx.q, buyerGiftEmail(card, seller, config, { card: cardPdf, receipt: receiptPdf }), { now: ctx.now });
    await queueMail(ctx.q, recipientGiftEmail(card, seller, config, cardPdf), { now: ctx.now, sendAfter: card.send_at });
    await ctx.q.updateTable('gift_cards').set({ recipient_sent_at: card.send_at }).where('id', '=', id).execute();
    return { kind: 'giftVoucher', id, documents: false };
  },
  describeOutcome: async (ctx, outcome, title) => {
    const card = await ctx.q.selectFrom('gift_cards').selectAll().where('id', '=', outcome.id).executeTakeFirst();
    if (!card) return null;
    const links = giftDocumentLinks(ctx.deps.config.APP_SECRET, card.id);
    const when = Number(card.send_at) <= Number(card.created_at) ? 'today' : `on ${longDate(Number(card.send_at))}`;
    return {
      kind: 'giftVoucher', id: card.id, reference: card.id, title, status: 'active', paymentMethod: card.payment_method, paymentState: 'paid',
      totalCost: Number(card.total_paid), currency: card.currency,
      message: `Check your inbox for your receipt. ${card.recipient_name} will receive the gift card by e-mail ${when}.`,
      actions: [{ label: 'Download Gift Card', href: links.card }, { label: 'Download Receipt', href: links.receipt }],
    };
  },
});
