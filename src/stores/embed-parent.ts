/**
 * The embed's parent page (what public/embed.js passes in ?parent_origin / ?parent_url, else what the frame
 * remembered in sessionStorage). Its own module, re-exported by embed.ts, so that the course page's booking
 * button reads it without the checkout's messages.
 */
export const PARENT_ORIGIN_KEY = 'marketplace:parent_origin';
export const PARENT_URL_KEY = 'marketplace:parent_url';
/** The embedding page's origin as the browser reported it (see embeddingOrigin); never taken from the URL. */
export const VERIFIED_PARENT_ORIGIN_KEY = 'marketplace:verified_parent_origin';

export function readSession(key: string): string | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeSession(key: string, value: string): void {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Third-party storage blocked: the origin is worked out again on each page.
  }
}

export function queryParam(name: string): string | null {
  return typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get(name);
}

export function embedParentOrigin(): string | null {
  return queryParam('parent_origin') ?? readSession(PARENT_ORIGIN_KEY);
}

/** The parent page URL, only when it belongs to the parent origin. */
export function embedParentUrl(): string | null {
  const url = queryParam('parent_url') ?? readSession(PARENT_URL_KEY);
  const origin = embedParentOrigin();
  if (!url || !origin) return null;
  try {
    return new URL(url).origin === origin ? url : null;
  } catch {
    return null;
  }
}
