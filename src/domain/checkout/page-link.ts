/**
 * The link that opens the checkout page from a page seen in some context (spec 2.13 the course page's booking
 * button, a membership plan's Join): one home for the route and the origin it carries.
 */
import type { AppContext } from '../app-context.ts';
import type { Flow } from './flows.ts';
import { originForContext } from './origins.ts';

/**
 * /checkout?flow={flow}&… on the marketplace and on a minisite, /embed/checkout?… in the embed (the only checkout
 * that may be framed); `origin` outside the marketplace (spec 1: an educator's minisite is its landing page) and, in
 * the embed, the parent page as `parent_window_url` when embed.js passed it. `params` are added in their order, each
 * only when given.
 */
export function checkoutPageHref(
  context: AppContext, flow: Flow, params: Readonly<Record<string, string | null | undefined>>, parentUrl?: string | null,
): string {
  const query = new URLSearchParams({ flow });
  for (const [name, value] of Object.entries(params)) if (value) query.set(name, value);
  if (context !== 'marketplace') query.set('origin', originForContext(context));
  if (context === 'embed' && parentUrl) query.set('parent_window_url', parentUrl);
  return `${context === 'embed' ? '/embed/checkout' : '/checkout'}?${query.toString()}`;
}
