/**
 * Problems raised by accounts, sessions and request protection. The spec's catalogue (spec 8)
 * has none for these, so their types, titles and statuses are chosen here, in the same shape
 * (the API swaps the default errors host for the configured one).
 */
import { problemType, type Problem } from '../../src/domain/problems.ts';

function make(slug: string, title: string, status: number, detail?: string, extra: Partial<Problem> = {}): Problem {
  const problem: Problem = { type: problemType(slug), title, status, ...extra };
  if (detail !== undefined) problem.detail = detail;
  return problem;
}

export const INVALID_CREDENTIALS_DETAIL = 'The e-mail address or password is not right.';
export const INVALID_LINK_DETAIL = 'This link has expired or has already been used. Ask for a new one.';

export const authProblems = {
  /** 401: the request needs a signed-in user. */
  unauthenticated: () => make('auth/unauthenticated', 'Unauthenticated', 401, 'Log in to continue.'),
  /** 403: signed in, but this is not theirs. */
  forbidden: (detail = 'You cannot change this.') => make('auth/forbidden', 'Forbidden', 403, detail),
  /** 401: the same answer for an unknown address and a wrong password. */
  invalidCredentials: () => make('auth/invalid-credentials', 'Invalid Credentials', 401, INVALID_CREDENTIALS_DETAIL),
  /** 400: a one-time link or code that is unknown, used or expired. */
  invalidToken: () => make('auth/invalid-token', 'Invalid Link', 400, INVALID_LINK_DETAIL),
  /** 429 with the seconds to wait. */
  tooManyRequests: (retryAfter: number) =>
    make('generic/too-many-requests', 'Too Many Requests', 429, `Too many attempts. Please try again in ${Math.max(1, Math.ceil(retryAfter / 60))} minute(s).`, {
      retryAfter,
    }),
  /** 403: a state-changing request from a page that is not ours (cross-site request forgery). */
  crossSite: () => make('generic/cross-site-request', 'Cross-Site Request Refused', 403, 'This request did not come from our site.'),
  /** 409: e.g. claiming an educator that is already claimed. */
  conflict: (title: string, detail?: string) => make('generic/conflict', title, 409, detail),
};
