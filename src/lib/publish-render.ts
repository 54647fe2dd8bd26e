/**
 * The publisher (api/publish/) renders pages with the same views as the full build, through on-demand twins
 * of the pre-rendered routes (src/pages/publish-render/*): each twin imports exactly what its pre-rendered
 * route imports (one view), so Astro gives both the same styles and scripts and the HTML comes out byte for
 * byte the same. The publisher hands the view's props in Astro.locals under PUBLISH_LOCALS; a request
 * without them (anyone from outside) is answered 404.
 */
import type { AstroGlobal } from 'astro';
import type { AppContext } from '../domain/app-context.ts';

export const PUBLISH_LOCALS = 'publishRender';

export interface PublishJob<P> {
  context: AppContext;
  props: P;
}

export function publishJob<P>(astro: Pick<AstroGlobal, 'locals'>): PublishJob<P> | null {
  const job = (astro.locals as Record<string, unknown>)[PUBLISH_LOCALS];
  return job && typeof job === 'object' ? (job as PublishJob<P>) : null;
}
