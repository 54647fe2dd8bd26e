/**
 * Cross-site request forgery protection for every state-changing /api request (POST, PUT, PATCH, DELETE).
 *
 * Cookies are SameSite=Lax (api/http/cookies.ts), and on top of that a browser's request must come from one
 * of our own pages:
 * - `Origin` present: it must be one of our origins by the CORS rule (api/http/cors.ts `originAllowed`);
 *   `Origin: null` (sandboxed frames, opaque redirects) is refused;
 * - no `Origin` but `Sec-Fetch-Site` present: it must be same-origin, same-site or none (typed by the user);
 * - neither header: not a browser request (browsers send Origin on every non-GET fetch and form post), so a
 *   server-to-server call such as a payment provider's webhook passes; it carries no ambient cookies anyway.
 * The same rule as Go's net/http CrossOriginProtection, plus the list of our origins.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../deps.ts';
import { ProblemError } from '../../src/domain/problems.ts';
import { authProblems } from '../auth/problems.ts';
import { originAllowed } from './cors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfProtection(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method)) return next();
    const origin = c.req.header('origin');
    if (origin !== undefined) {
      // One rule for "our origins", shared with CORS (api/http/cors.ts); 'null' is never allowed.
      if (!(await originAllowed(c, origin))) throw new ProblemError(authProblems.crossSite());
      return next();
    }
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'same-site' && site !== 'none') {
      throw new ProblemError(authProblems.crossSite());
    }
    return next();
  };
}
