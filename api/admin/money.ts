/**
 * The Money screen's API (docs/admin.md "Money"), relative to /admin/educators/{educatorId}:
 *
 *   GET /money?from=YYYY-MM-DD&to=YYYY-MM-DD → the period's takings and refunds per provider (what each pays out),
 *                                               the platform's fees, gift-card and member totals, connected accounts
 *   GET /money/gift-cards?before=CURSOR       → gift cards sold, newest first (balance, what was redeemed)
 *   GET /money/members?state=all|active|past_due|ended|chase&before=CURSOR → memberships, newest first
 *   GET /exports/gift-cards.csv, /exports/members.csv → streamed CSV (flat memory, as the other exports)
 *
 * Connecting a Stripe account is the Payment options screen's (api/admin/payments.ts); this screen links to it.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { parseQuery } from '../http/parse.ts';
import { adminEducatorId } from './access.ts';
import { invalid } from './catalogue-saves.ts';
import { csvResponse } from './registers.ts';
import {
  feesCharged, giftCardTotals, giftCardsPage, memberTotals, membersPage, paymentAccounts, refundedPerProvider, takenPerProvider,
} from '../../db/queries/admin-money.ts';
import {
  END_REASON_TEXT, GIFT_CARD_CSV_HEADER, MEMBER_CSV_HEADER, MEMBER_STATUS_TEXT, MONEY_PAGE_SIZE, codeEnd, giftCardsQuerySchema, membersQuerySchema,
  moneyQuerySchema, needsChasing, providerFigures, providerText,
} from '../../src/domain/admin/money.ts';
import { numbersPeriod } from '../../src/domain/admin/numbers.ts';
import { reviewCursor } from '../../src/domain/admin/reviews.ts';
import { csvLine } from '../../src/domain/admin/registers.ts';

const EXPORT_PAGE = 500;
const isoDate = (s: number | null) => (s === null ? '' : new Date(s * 1000).toISOString());

/** One page and the cursor of the next (null at the end), read one row beyond the page to know. */
function paged<T extends { createdAt: number; id: string }>(rows: T[], size: number) {
  const items = rows.slice(0, size);
  const last = items[items.length - 1];
  return { items, next: rows.length > size && last ? reviewCursor(last.createdAt, last.id) : null };
}

export function moneyAdminRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/money', async (c) => {
    const q = parseQuery(c, moneyQuerySchema);
    const now = c.var.deps.now();
    const period = numbersPeriod(q, now);
    if ('error' in period) throw invalid('from', period.error);
    const { db } = c.var.deps;
    const educatorId = adminEducatorId(c);
    const [taken, refunded, fees, giftCards, members, accounts] = await Promise.all([
      takenPerProvider(db, educatorId, period.from, period.to),
      refundedPerProvider(db, educatorId, period.from, period.to),
      feesCharged(db, educatorId, period.from, period.to),
      giftCardTotals(db, educatorId, period.from, period.to, now),
      memberTotals(db, educatorId, period.from, period.to),
      paymentAccounts(db, educatorId),
    ]);
    return c.json({
      from: period.from, to: period.to,
      providers: providerFigures(taken, refunded.perProvider).map((p) => ({ ...p, label: providerText(p.provider) })),
      fees: { ...fees, refunded: refunded.feesRefunded },
      giftCards, members,
      accounts: accounts.map((a) => ({ provider: a.provider, label: providerText(a.provider), accountId: a.account_id, connectedAt: Number(a.created_at) })),
    });
  });

  app.get('/money/gift-cards', async (c) => {
    const q = parseQuery(c, giftCardsQuerySchema);
    const rows = await giftCardsPage(c.var.deps.db, adminEducatorId(c), { order: 'newest', cursor: q.before, limit: MONEY_PAGE_SIZE + 1 });
    const { items, next } = paged(rows, MONEY_PAGE_SIZE);
    return c.json({ items: items.map(({ code, ...g }) => ({ ...g, codeEnd: codeEnd(code) })), next });
  });

  app.get('/money/members', async (c) => {
    const q = parseQuery(c, membersQuerySchema);
    const rows = await membersPage(c.var.deps.db, adminEducatorId(c), { order: 'newest', state: q.state, cursor: q.before, limit: MONEY_PAGE_SIZE + 1 });
    const { items, next } = paged(rows, MONEY_PAGE_SIZE);
    return c.json({ items: items.map((m) => ({ ...m, toChase: needsChasing(m) })), next });
  });

  app.get('/exports/gift-cards.csv', (c) => {
    const { db } = c.var.deps;
    const educatorId = adminEducatorId(c);
    return csvResponse('gift-cards.csv', GIFT_CARD_CSV_HEADER, async (after) => {
      const rows = await giftCardsPage(db, educatorId, { order: 'oldest', cursor: after, limit: EXPORT_PAGE });
      const lines = rows.map((g) => csvLine([g.id, codeEnd(g.code), isoDate(g.createdAt), g.amount, g.balance, g.redeemed, g.redemptions, g.currency, isoDate(g.expiresAt),
        g.buyerName, g.buyerEmail, g.recipientName, g.recipientEmail, isoDate(g.sentAt)]));
      const last = rows[rows.length - 1];
      return { lines, last: rows.length < EXPORT_PAGE || !last ? null : reviewCursor(last.createdAt, last.id) };
    });
  });

  app.get('/exports/members.csv', (c) => {
    const { db } = c.var.deps;
    const educatorId = adminEducatorId(c);
    return csvResponse('members.csv', MEMBER_CSV_HEADER, async (after) => {
      const rows = await membersPage(db, educatorId, { order: 'oldest', state: 'all', cursor: after, limit: EXPORT_PAGE });
      const lines = rows.map((m) => csvLine([m.id, m.planName, MEMBER_STATUS_TEXT[m.status] ?? m.status, m.endReason ? (END_REASON_TEXT[m.endReason] ?? m.endReason) : '',
        m.firstName, m.lastName, m.email, m.price, m.currency, isoDate(m.createdAt), isoDate(m.periodEnd), m.renews ? 'yes' : 'no', m.renewalAttempts,
        isoDate(m.lastFailedAt), m.failure ?? '', needsChasing(m) ? 'yes' : 'no']));
      const last = rows[rows.length - 1];
      return { lines, last: rows.length < EXPORT_PAGE || !last ? null : reviewCursor(last.createdAt, last.id) };
    });
  });

  return app;
}
