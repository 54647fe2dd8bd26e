/**
 * Checkout origins (spec 1): where a checkout was opened. Kept apart from the flow table (flows.ts re-exports
 * them) so that the course page's booking button can name its origin without loading every flow's rules.
 */
import type { AppContext } from '../app-context.ts';

/** Spec 1: the checkout's origin. The marketplace value is not given in the spec; 'marketplace' is used. */
export const CHECKOUT_ORIGINS = ['marketplace', 'embed', 'landing_page'] as const;
export type CheckoutOrigin = (typeof CHECKOUT_ORIGINS)[number];

/** The origin a checkout opened in a context records: an educator's minisite is its landing page (spec 1). */
export function originForContext(context: AppContext): CheckoutOrigin {
  if (context === 'embed') return 'embed';
  if (context === 'minisite') return 'landing_page';
  return 'marketplace';
}

/** The context a checkout's links lead back to: the embed's links open the educator's minisite (spec 2.4). */
export function contextForOrigin(origin: string): AppContext {
  if (origin === 'embed') return 'embed';
  if (origin === 'landing_page') return 'minisite';
  return 'marketplace';
}
