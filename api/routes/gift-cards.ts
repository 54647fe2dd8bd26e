/**
 * A gift card's documents, by signed link (they open from a mail client or an embed without a session):
 *   GET /api/gift-cards/{id}/gift-card.pdf?token=  the printable gift card
 *   GET /api/gift-cards/{id}/receipt.pdf?token=    the buyer's receipt
 * and the learner's gift cards for /profile:
 *   GET /api/account/gift-cards → bought by them or sent to their e-mail, with balance and expiry.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { verifyDocumentToken } from '../shared/document-tokens.ts';
import { requireUser } from '../auth/middleware.ts';
import { GIFT_DOCUMENT_KINDS, renderGiftCardPdf, renderGiftReceiptPdf } from '../gifts/documents.ts';
import { giftCardViews } from '../gifts/views.ts';

export function giftCardRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/gift-cards/:id/:document{gift-card\\.pdf|receipt\\.pdf}', async (c) => {
    const id = c.req.param('id').slice(0, 100);
    const { db, config } = c.var.deps;
    const receipt = c.req.param('document') === 'receipt.pdf';
    // Each document has its own token: the card's link (the recipient's) does not open the buyer's receipt.
    const kind = receipt ? GIFT_DOCUMENT_KINDS.receipt : GIFT_DOCUMENT_KINDS.card;
    if (!verifyDocumentToken(config.APP_SECRET, kind, id, c.req.query('token'))) throw new ProblemError(problems.notFound());
    const card = await db.selectFrom('gift_cards').selectAll().where('id', '=', id).executeTakeFirst();
    if (!card) throw new ProblemError(problems.notFound());
    const educator = await db.selectFrom('educators').select(['name', 'slug', 'email']).where('id', '=', card.educator_id).executeTakeFirstOrThrow();
    const pdf = receipt ? await renderGiftReceiptPdf(card, educator) : await renderGiftCardPdf(card, educator, config);
    return c.body(new Uint8Array(pdf), 200, {
      'content-type': 'application/pdf',
      'content-disposition': `inline; filename="${receipt ? 'receipt' : 'gift-card'}-${card.id}.pdf"`,
      'cache-control': 'private, no-store',
    });
  });

  app.get('/account/gift-cards', async (c) => {
    const user = requireUser(c);
    const { db, config, now } = c.var.deps;
    return c.json({ giftCards: await giftCardViews(db, user, now(), config.APP_SECRET) });
  });
  return app;
}
