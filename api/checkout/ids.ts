/** Ids and references of the checkout, and signed links for documents (usable from an embed without cookies). */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { randomBytesPooled } from '../auth/crypto.ts';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'; // Crockford base32: no I, L, O, U

export function randomCode(length: number): string {
  const bytes = randomBytesPooled(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] % 32];
  return out;
}

export function newCheckoutId(): string {
  return `chk_${randomBytesPooled(16).toString('hex')}`;
}

/** References shown on the confirmation screens: BKG-…, ORD-…, REQ-…, APP-… (they are the ids). */
export function newReference(kind: 'booking' | 'order' | 'request' | 'application'): string {
  const prefix = { booking: 'BKG', order: 'ORD', request: 'REQ', application: 'APP' }[kind];
  return `${prefix}-${randomCode(10)}`;
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytesPooled(12).toString('hex')}`;
}

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
