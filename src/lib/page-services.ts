/**
 * What on-demand pages ask the server for. Pages never import the API's modules: the server (api/app.ts) hands
 * each on-demand render an implementation of this contract as Astro.locals.services (api/pages/services.ts), so
 * the arrows run one way — api → src, never back — and pages hold no queries of their own.
 */
import type { AstroGlobal } from 'astro';
import type { AppContext, CheckoutBootstrap } from '../islands/checkout/types.ts';

export interface CheckoutPageData {
  bootstrap: CheckoutBootstrap;
  brand: { color_brand: string | null; on_color_brand: string | null } | null;
}

export interface PageServices {
  /** The checkout island's bootstrap (catalogue facts, payment widgets) and the educator's brand colours. */
  checkoutPage(url: URL, context: AppContext): Promise<CheckoutPageData>;
}

/** The server's services for this render (present whenever api/server.ts renders the page). */
export function pageServices(astro: Pick<AstroGlobal, 'locals'>): PageServices {
  const services = (astro.locals as { services?: PageServices }).services;
  if (!services) throw new Error('On-demand pages are rendered by the server (api/server.ts), which provides their services.');
  return services;
}
