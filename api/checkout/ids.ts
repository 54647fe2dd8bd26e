/** Ids and references of the checkout (signed document links: api/shared/document-tokens.ts). */
import { randomBytesPooled } from '../shared/ids.ts';

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
