/**
 * Which scripts a page's Content-Security-Policy allows besides our own files ('self') and the inline scripts the
 * build made (hashed at build time: src/integrations/script-hashes.ts): the payment providers' SDKs the checkout
 * loads, and an educator's analytics (GA4, Meta pixel) only on the pages of an educator who configured them.
 * The server writes the policy (api/http/security-headers.ts); a page that needs analytics hosts says so in
 * PAGE_SCRIPT_HOSTS_HEADER, which the server reads, keeps only known hosts of, and removes before sending.
 */
export const PAYMENT_SCRIPT_HOSTS: readonly string[] = ['https://js.stripe.com', 'https://www.paypal.com'];
export const GA4_SCRIPT_HOST = 'https://www.googletagmanager.com';
export const PIXEL_SCRIPT_HOST = 'https://connect.facebook.net';
export const ANALYTICS_SCRIPT_HOSTS: readonly string[] = [GA4_SCRIPT_HOST, PIXEL_SCRIPT_HOST];
/** Set by a page (never sent to the browser): the analytics hosts its educator configured, space-separated. */
export const PAGE_SCRIPT_HOSTS_HEADER = 'x-page-script-hosts';
/** A GA4 measurement id or a Meta pixel id as the checkout accepts it (anything else loads nothing). */
export const ANALYTICS_ID = /^[A-Za-z0-9-]{1,40}$/;

/** The analytics hosts an educator's third-party codes need (none when neither is set or valid). */
export function analyticsScriptHosts(codes: { ga4_id?: string | null; facebook_pixel_id?: string | null } | null | undefined): string[] {
  const hosts: string[] = [];
  const ga = codes?.ga4_id?.trim();
  const pixel = codes?.facebook_pixel_id?.trim();
  if (ga && ANALYTICS_ID.test(ga)) hosts.push(GA4_SCRIPT_HOST);
  if (pixel && ANALYTICS_ID.test(pixel)) hosts.push(PIXEL_SCRIPT_HOST);
  return hosts;
}

/** Beside the build's client/ and server/ folders: the inline-script hashes of that build. */
export const SCRIPT_HASHES_FILE = 'script-hashes.json';

export interface ScriptHashesFile {
  /** CSP hash sources, `'sha256-…'`. */
  scripts: string[];
}
