/**
 * Passwords, from node:crypto: scrypt (N = 2^15 or more, r = 8, p = 1), a random 16-byte salt per hash, compared
 * with timingSafeEqual. Random ids, secrets and their hashes are api/shared/ids.ts.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

function scryptAsync(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((ok, fail) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (err, key) => (err ? fail(err) : ok(key)));
  });
}

function options(logN: number, r: number, p: number): ScryptOptions {
  const N = 2 ** logN;
  // scrypt needs 128 · N · r bytes; allow twice that.
  return { N, r, p, maxmem: 256 * N * r };
}

/** 'scrypt$<log2 N>$<r>$<p>$<salt>$<hash>' (base64url parts). */
export async function hashPassword(password: string, logN = 15): Promise<string> {
  if (logN < 15) throw new Error('scrypt cost below 2^15 is not allowed');
  const salt = randomBytes(SALT_LENGTH);
  const key = await scryptAsync(password, salt, options(logN, 8, 1));
  return ['scrypt', logN, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** True when the password matches the stored hash; false for any malformed hash. */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  if (!stored) return false;
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [logN, r, p] = parts.slice(1, 4).map((v) => Number.parseInt(v, 10));
  if (!(logN >= 10 && logN <= 22) || !(r >= 1 && r <= 32) || !(p >= 1 && p <= 16)) return false;
  const salt = Buffer.from(parts[4], 'base64url');
  const expected = Buffer.from(parts[5], 'base64url');
  if (expected.length !== KEY_LENGTH) return false;
  const key = await scryptAsync(password, salt, options(logN, r, p));
  return timingSafeEqual(key, expected);
}

let dummy: Promise<string> | undefined;

/**
 * Spends the same time as checking a real password, for unknown e-mail addresses,
 * so the answer's timing does not tell whether an account exists.
 */
export async function verifyDummyPassword(password: string, logN = 15): Promise<false> {
  dummy ??= hashPassword('not-a-real-password', logN);
  await verifyPassword(password, await dummy);
  return false;
}
