/**
 * The server side of on-demand pages: the implementation of src/lib/page-services.ts that api/app.ts passes to
 * every Astro render as Astro.locals.services. Each service is a thin call into the API's own modules.
 */
import type { Deps } from '../app.ts';
import type { PageServices } from '../../src/lib/page-services.ts';
import { loadCheckoutPage } from './checkout-bootstrap.ts';

export function createPageServices(deps: Deps): PageServices {
  return {
    checkoutPage: (url, context) => loadCheckoutPage(deps, url, context),
  };
}
