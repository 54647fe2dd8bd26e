/**
 * The embed's parent page: its URL (for the checkout's "Back to Website") comes from ?parent_url
 * (public/embed.js sets it; links inside the frame carry it on, see src/components/EmbedResize.astro),
 * else what the frame remembered in sessionStorage when third-party storage is allowed.
 */
import { backToWebsiteUrl, embeddingOrigin } from '../domain/checkout/messages.ts';
import { VERIFIED_PARENT_ORIGIN_KEY, embedParentUrl, queryParam, readSession, writeSession } from './embed-parent.ts';

export { PARENT_ORIGIN_KEY, PARENT_URL_KEY, VERIFIED_PARENT_ORIGIN_KEY, embedParentOrigin, embedParentUrl } from './embed-parent.ts';

/** The origin of the page embedding this frame, as the browser vouches for it (null outside a frame). */
export function embeddingPageOrigin(): string | null {
  if (typeof window === 'undefined') return null;
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  const origin = embeddingOrigin({
    framed: window.parent !== window,
    ancestorOrigins: ancestors ? Array.from(ancestors) : null,
    referrer: document.referrer,
    selfOrigin: location.origin,
    remembered: readSession(VERIFIED_PARENT_ORIGIN_KEY),
  });
  if (origin) writeSession(VERIFIED_PARENT_ORIGIN_KEY, origin);
  return origin;
}

/**
 * Spec 2.14 "Back to Website": ?parent_window_url= (or the parent page embed.js passed), shown only when it
 * is on the embedding page's own origin. Browser only: call it after hydration.
 */
export function backToWebsiteHref(parentWindowUrl: string | null | undefined): string | null {
  return backToWebsiteUrl('embed', parentWindowUrl ?? queryParam('parent_window_url') ?? embedParentUrl(), embeddingPageOrigin());
}
