/**
 * The embed's parent page: its URL (for the checkout's "Back to Website") comes from ?parent_url
 * (public/embed.js sets it; links inside the frame carry it on, see src/components/EmbedResize.astro),
 * else what the frame remembered in sessionStorage when third-party storage is allowed.
 */
export const PARENT_ORIGIN_KEY = 'marketplace:parent_origin';
export const PARENT_URL_KEY = 'marketplace:parent_url';

function read(key: string): string | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage.getItem(key);
  } catch {
    return null;
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
