/**
 * The invisible captcha of the enquiry and waitlist forms (DESIGN 6: ALTCHA, self-hosted proof of work).
 * The challenge comes from GET /api/captcha/challenge (altcha-lib's createChallenge); the browser
 * solves it with altcha-lib's solver (Web Crypto) and the base64 payload is sent as `captchaToken`.
 * Solving starts when the visitor first touches the form, so it is normally done before they submit.
 */
import { solveChallenge } from 'altcha-lib/v1';
import { apiUrl, readError } from './api.ts';

interface Challenge {
  algorithm: string;
  challenge: string;
  maxnumber?: number;
  maxNumber?: number;
  salt: string;
  signature: string;
}

async function fetchChallenge(): Promise<Challenge> {
  const res = await fetch(apiUrl('/captcha/challenge'), { credentials: 'include', cache: 'no-store' });
  if (!res.ok) throw await readError(res);
  return (await res.json()) as Challenge;
}

/** Fetches and solves one challenge; resolves with the payload string to send as captchaToken. */
export async function solveCaptcha(): Promise<string> {
  const challenge = await fetchChallenge();
  const max = challenge.maxnumber ?? challenge.maxNumber ?? 1_000_000;
  const { promise } = solveChallenge(challenge.challenge, challenge.salt, challenge.algorithm, max);
  const solution = await promise;
  if (!solution) throw new Error('We were unable to generate a captcha token for this submission');
  const payload = {
    algorithm: challenge.algorithm,
    challenge: challenge.challenge,
    number: solution.number,
    salt: challenge.salt,
    signature: challenge.signature,
    took: solution.took,
  };
  return btoa(JSON.stringify(payload));
}

/**
 * A captcha that is solved at most once per token: `prepare()` starts early, `take()` waits for
 * the token and forgets it (each submission needs a fresh one).
 */
export function createCaptcha() {
  let pending: Promise<string> | null = null;
  return {
    prepare(): void {
      if (!pending) {
        pending = solveCaptcha();
        pending.catch(() => {
          pending = null;
        });
      }
    },
    async take(): Promise<string> {
      const token = pending ?? solveCaptcha();
      pending = null;
      return token;
    },
  };
}
