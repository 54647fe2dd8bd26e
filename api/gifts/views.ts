/** The learner's gift cards as the profile shows them (GET /api/account/gift-cards and the /profile page). */
import type { Q } from '../../db/queries/checkout.ts';
import { learnerGiftCards } from '../../db/queries/gifts.ts';
import { formatGiftCode } from '../../src/domain/gifts.ts';
import { giftDocumentLinks } from './documents.ts';

export interface GiftCardView {
  id: string;
  educator: { name: string; slug: string };
  role: 'bought' | 'received';
  amount: number;
  balance: number;
  currency: string;
  expiresAt: number;
  expired: boolean;
  recipientName: string;
  buyerName: string;
  sendAt: number;
  code: string;
  links: { card: string; receipt: string | null };
}

/** Cards bought by the learner or sent to their e-mail address, newest first; its recipient and buyer see the code. */
export async function giftCardViews(q: Q, user: { id: string; email: string }, now: number, secret: string): Promise<GiftCardView[]> {
  const rows = await learnerGiftCards(q, user);
  return rows.map((r) => {
    const links = giftDocumentLinks(secret, r.id);
    return {
      id: r.id,
      educator: { name: r.educator_name, slug: r.educator_slug },
      role: r.recipient_email === user.email.toLowerCase() ? 'received' : 'bought',
      amount: Number(r.amount),
      balance: Number(r.balance),
      currency: r.currency,
      expiresAt: Number(r.expires_at),
      expired: Number(r.expires_at) <= now,
      recipientName: r.recipient_name,
      buyerName: r.buyer_name,
      sendAt: Number(r.send_at),
      code: formatGiftCode(r.code),
      links: { card: links.card, receipt: r.buyer_user_id === user.id ? links.receipt : null },
    };
  });
}
