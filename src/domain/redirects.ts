/**
 * Post-login redirects and the cost-summary cache (spec 4 "After login", 5, 9).
 */

/** Spec 9: local storage key of the post-login redirect. */
export const AUTH_REDIRECT_KEY = 'authRedirect';
/** Spec 7 / 9: session storage key of the cached cost summary. */
export const COST_SUMMARY_KEY = 'checkout_cost_summary';
/** Spec 5 / 9: the cached cost summary is kept for 1 hour (seconds). */
export const COST_SUMMARY_TTL_SECONDS = 3600;

/** The allowed domain without a port, leading dot or trailing dot, lower-cased. */
function bareDomain(domain: string): string {
  return domain.trim().toLowerCase().replace(/:\d+$/, '').replace(/^\.+|\.+$/g, '');
}

/**
 * Spec 5: a post-login redirect is stored only when its hostname ends with the
 * allowed domain and it is not the site root.
 * - "Ends with" is read as: equal to the domain or a subdomain of it
 *   ('.'-suffixed), so 'evilexample.com' does not match 'example.com'.
 * - Only absolute http(s) URLs qualify (no 'javascript:' and the like).
 * - The site root is the path '/' with no query string.
 */
export function isAllowedRedirect(url: string | null | undefined, allowedDomain: string): boolean {
  if (!url) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
  const domain = bareDomain(allowedDomain);
  if (!domain) return false;
  const hostname = parsed.hostname.toLowerCase().replace(/\.$/, '');
  if (hostname !== domain && !hostname.endsWith(`.${domain}`)) return false;
  if (parsed.pathname === '/' && parsed.search === '') return false;
  return true;
}

export interface IdentityLike {
  authenticated?: boolean | null;
  educators?: ReadonlyArray<unknown> | null;
}

/**
 * Spec 4 "After login": the stored redirect when there is one; otherwise an
 * educator admin (any educators) goes to the admin host, any other signed-in
 * user to /profile, and a visitor who is not authenticated to home ('/').
 */
export function postLoginDestination(input: {
  storedRedirect?: string | null;
  identity: IdentityLike | null | undefined;
  adminHost: string;
}): string {
  if (input.storedRedirect) return input.storedRedirect;
  if (!input.identity?.authenticated) return '/';
  if ((input.identity.educators ?? []).length > 0) return input.adminHost;
  return '/profile';
}

/** A cached cost summary entry (spec 7: stored with the checkout id and a timestamp in epoch seconds). */
export interface CostSummaryCacheEntry<T = unknown> {
  checkoutId: string;
  /** Epoch seconds when the summary was stored. */
  timestamp: number;
  summary?: T;
}

/**
 * Spec 5: the cached cost summary is ignored when it belongs to another
 * checkout or is older than 1 hour. Exactly 1 hour old is still valid; an
 * entry from the future is not.
 */
export function isCostSummaryCacheValid(entry: CostSummaryCacheEntry | null | undefined, checkoutId: string, now: number): boolean {
  if (!entry || entry.checkoutId !== checkoutId || typeof entry.timestamp !== 'number') return false;
  const age = now - entry.timestamp;
  return age >= 0 && age <= COST_SUMMARY_TTL_SECONDS;
}
