/**
 * The invisible captcha (spec 2.9, 2.10): ALTCHA proof of work, self-hosted (DESIGN.md §6).
 * - `createCaptchaChallenge` issues a challenge signed with a key derived from APP_SECRET, expiring
 *   after CAPTCHA_EXPIRES_SECONDS, with CAPTCHA_MAX_NUMBER as its difficulty.
 * - `verifyCaptcha` checks a solution (the widget's base64 payload): signature and proof of work
 *   (altcha-lib verifySolution), expiry against the server clock, and refuses a replay by recording
 *   the challenge's signature in captcha_solutions until the challenge expires.
 * The wire format is ALTCHA's v1 challenge `{algorithm, challenge, maxnumber, salt, signature}`,
 * which the `altcha` widget (v3) accepts from its `challenge` URL.
 */
import { createHmac } from 'node:crypto';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib/v1';
import type { Challenge } from 'altcha-lib/v1/types';
import type { Config } from '../config.ts';
import type { Db } from '../../db/client.ts';
import { ProblemError, problemType, problems, type Problem } from '../../src/domain/problems.ts';

export interface CaptchaDeps {
  db: Db;
  config: Pick<Config, 'APP_SECRET' | 'CAPTCHA_MAX_NUMBER' | 'CAPTCHA_EXPIRES_SECONDS'>;
  /** Epoch seconds. */
  now(): number;
}

/** Problem type (relative to the errors host) of a missing, wrong, expired or reused captcha. */
export const CAPTCHA_INVALID_SLUG = 'captcha/invalid';
export const CAPTCHA_INVALID_TITLE = 'Invalid Captcha';
export const CAPTCHA_MISSING = 'The captcha token is missing. Please try again.';
export const CAPTCHA_MALFORMED = 'The captcha token could not be read. Please try again.';
export const CAPTCHA_WRONG = 'The captcha solution is not valid. Please try again.';
export const CAPTCHA_EXPIRED = 'The captcha has expired. Please try again.';
export const CAPTCHA_REUSED = 'This captcha has already been used. Please try again.';

/** captcha/invalid, 'Invalid Captcha', 400, with one of the messages above as detail. */
export function captchaInvalid(detail: string): Problem {
  return { type: problemType(CAPTCHA_INVALID_SLUG), title: CAPTCHA_INVALID_TITLE, status: 400, detail };
}

/** The HMAC key for challenges: derived from APP_SECRET so the secret itself signs nothing else. */
export function captchaHmacKey(config: Pick<Config, 'APP_SECRET'>): string {
  return createHmac('sha256', config.APP_SECRET).update('altcha-captcha-v1').digest('hex');
}

/** A fresh challenge; failure becomes captcha/failed-to-generate (500). */
export async function createCaptchaChallenge(deps: Pick<CaptchaDeps, 'config' | 'now'>): Promise<Challenge> {
  try {
    return await createChallenge({
      hmacKey: captchaHmacKey(deps.config),
      maxnumber: deps.config.CAPTCHA_MAX_NUMBER,
      expires: new Date((deps.now() + deps.config.CAPTCHA_EXPIRES_SECONDS) * 1000),
    });
  } catch {
    throw new ProblemError(problems.captchaFailedToGenerate());
  }
}

interface Payload {
  algorithm: 'SHA-1' | 'SHA-256' | 'SHA-512';
  challenge: string;
  number: number;
  salt: string;
  signature: string;
}

function decodePayload(token: string): Payload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    if (!value || typeof value !== 'object') return null;
    const p = value as Record<string, unknown>;
    if (
      !['SHA-1', 'SHA-256', 'SHA-512'].includes(p.algorithm as string) ||
      typeof p.challenge !== 'string' || typeof p.salt !== 'string' || typeof p.signature !== 'string' ||
      typeof p.number !== 'number' || !Number.isInteger(p.number) || p.number < 0
    ) {
      return null;
    }
    return { algorithm: p.algorithm as Payload['algorithm'], challenge: p.challenge, number: p.number, salt: p.salt, signature: p.signature };
  } catch {
    return null;
  }
}

/**
 * Verifies a captcha token and redeems it (it cannot be used again).
 * Throws a ProblemError captcha/invalid (400) when it is missing, malformed, wrong, expired or reused.
 */
export async function verifyCaptcha(deps: CaptchaDeps, token: string | null | undefined): Promise<void> {
  if (typeof token !== 'string' || token.trim() === '') throw new ProblemError(captchaInvalid(CAPTCHA_MISSING));
  if (token.length > 4096) throw new ProblemError(captchaInvalid(CAPTCHA_MALFORMED));
  const payload = decodePayload(token.trim());
  if (!payload) throw new ProblemError(captchaInvalid(CAPTCHA_MALFORMED));
  // Expiry is checked here against the server clock (deps.now), so verifySolution skips its own.
  const ok = await verifySolution(payload, captchaHmacKey(deps.config), false).catch(() => false);
  if (!ok) throw new ProblemError(captchaInvalid(CAPTCHA_WRONG));
  const expires = Number.parseInt(extractParams(payload).expires ?? '', 10);
  const now = deps.now();
  if (!Number.isFinite(expires) || expires < now) throw new ProblemError(captchaInvalid(CAPTCHA_EXPIRED));

  // Forget redeemed challenges once they have expired (they can no longer verify anyway).
  await deps.db.deleteFrom('captcha_solutions').where('expires_at', '<', now).execute();
  const result = await deps.db
    .insertInto('captcha_solutions')
    .values({ signature: payload.signature, expires_at: expires, created_at: now })
    .onConflict((oc) => oc.column('signature').doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0n) === 0) throw new ProblemError(captchaInvalid(CAPTCHA_REUSED));
}
