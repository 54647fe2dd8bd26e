/**
 * Random ids and secrets, and the hashes the database keeps of them, all from node:crypto. A leaf module:
 * accounts, mail, the checkout, gifts and payment providers all make ids, and none of them should need the
 * accounts area (api/auth) to do it.
 * - secrets (session tokens, magic links, hand-off and embed codes): 32 random bytes, base64url,
 *   stored only as their SHA-256 hash.
 */
import { createHash, randomBytes, randomFillSync } from 'node:crypto';

// Random bytes drawn from the system's generator 4 KB at a time and handed out in slices, as Node does for
// randomUUID: a checkout makes about ten ids and tokens, and a call to the generator for each cost ~2 % of the
// server's time on the checkout benchmark. The bytes are the same cryptographic random bytes, each used once.
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** `size` cryptographically random bytes in a buffer of their own (more than 256 come straight from the generator). */
export function randomBytesPooled(size: number): Buffer {
  if (size > 256) return randomBytes(size);
  if (poolOffset + size > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  // A failed refill throws and leaves the offset at the end, so no byte is ever handed out twice.
  const bytes = Buffer.from(pool.subarray(poolOffset, poolOffset + size));
  poolOffset += size;
  return bytes;
}

/** A fresh secret: 32 random bytes, base64url (43 characters). */
export function newSecret(): string {
  return randomBytesPooled(32).toString('base64url');
}

/** SHA-256 of a secret, hex: what the database keeps instead of the secret. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A random, URL-safe id with a readable prefix, e.g. 'usr_3kq…'. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytesPooled(12).toString('base64url')}`;
}

/**
 * An id that sorts by when it was made: milliseconds, then a sequence within the millisecond, both fixed width,
 * then random. Within one process the ids are strictly increasing (the sequence), so rows written in one
 * millisecond — an entity's revisions, a waitlist's e-mails queued oldest learner first — list and are taken in the
 * order they were made when ordered by (time, id).
 */
let lastMs = 0;
let sequence = 0;
export function timeOrderedId(prefix: string, now = Date.now()): string {
  if (now <= lastMs) sequence++;
  else { lastMs = now; sequence = 0; }
  return `${prefix}_${lastMs.toString(36).padStart(10, '0')}${sequence.toString(36).padStart(4, '0')}${randomBytesPooled(4).toString('hex')}`;
}
