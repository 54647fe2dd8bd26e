/**
 * The embed's parent page: its URL (for the checkout's "Back to Website") comes from ?parent_url
 * (public/embed.js sets it; links inside the frame carry it on, see src/components/EmbedResize.astro),
 * else what the frame remembered in sessionStorage when third-party storage is allowed.
 */
import { backToWebsiteUrl, embeddingOrigin } from '../domain/checkout/messages.ts';

export const PARENT_ORIGIN_KEY = 'marketplace:parent_origin';
export const PARENT_URL_KEY = 'marketplace:parent_url';
/** The embedding page's origin as the browser reported it (see embeddingOrigin); never taken from the URL. */
export const VERIFIED_PARENT_ORIGIN_KEY = 'marketplace:verified_parent_origin';

function read(key: string): string | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Third-party storage blocked: the origin is worked out again on each page.
  }
}

function param(name: string): string | null {
  return typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get(name);
}

export function embedParentOrigin(): string | null {
  return param('parent_origin') ?? read(PARENT_ORIGIN_KEY);
}

/** The parent page URL, only when it belongs to the parent origin. */
export function embedParentUrl(): string | null {
  const url = param('parent_url') ?? read(PARENT_URL_KEY);
  const origin = embedParentOrigin();
  if (!url || !origin) return null;
  try {
    return new URL(url).origin === origin ? url : null;
  } catch {
    return null;
  }
}

/** The origin of the page embedding this frame, as the browser vouches for it (null outside a frame). */
export function embeddingPageOrigin(): string | null {
  if (typeof window === 'undefined') return null;
  const ancestors = (location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  const origin = embeddingOrigin({
    framed: window.parent !== window,
    ancestorOrigins: ancestors ? Array.from(ancestors) : null,
    referrer: document.referrer,
    selfOrigin: location.origin,
    remembered: read(VERIFIED_PARENT_ORIGIN_KEY),
  });
  if (origin) write(VERIFIED_PARENT_ORIGIN_KEY, origin);
  return origin;
}

/**
 * Spec 2.14 "Back to Website": ?parent_window_url= (or the parent page embed.js passed), shown only when it
 * is on the embedding page's own origin. Browser only: call it after hydration.
 */
export function backToWebsiteHref(parentWindowUrl: string | null | undefined): string | null {
  return backToWebsiteUrl('embed', parentWindowUrl ?? param('parent_window_url') ?? embedParentUrl(), embeddingPageOrigin());
}
