/**
 * Signed links to documents (invoices, receipts, calendar files, gift cards): the token proves a link to one
 * document was handed out by us, so it works from an embed or an e-mail without cookies. Used by the checkout,
 * the documents, gifts and memberships alike, so it belongs to none of them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** A token that proves a link to one document was handed out by us (HMAC of the id with APP_SECRET). */
export function documentToken(secret: string, kind: string, id: string): string {
  return createHmac('sha256', secret).update(`${kind}:${id}`).digest('base64url').slice(0, 32);
}

export function verifyDocumentToken(secret: string, kind: string, id: string, token: string | null | undefined): boolean {
  if (!token) return false;
  const expected = Buffer.from(documentToken(secret, kind, id));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
