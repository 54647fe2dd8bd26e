/**
 * Logging in from a page (spec 2.5, DESIGN 5), apart from identity.ts (which every page loads) because only the
 * checkout needs the embed's part: outside the embed the browser goes to the main site's /login; in the embed a
 * first-party window opens, posts back a one-time code, and the embed trades it for its bearer token.
 */
import { apiUrl } from '../lib/api-url.ts';
import { EMBED_CODE_MESSAGE, currentContext, keepEmbedToken, loadIdentity, loginHref, mainOrigin } from './identity.ts';

/**
 * Starts a login from any page. Outside the embed the browser goes to the main site's /login.
 * In the embed a first-party window opens instead and `onDone` runs once the embed holds its token.
 */
export function startLogin(options: { educatorId?: string | null; onDone?: () => void } = {}): void {
  if (currentContext() !== 'embed') {
    location.assign(loginHref(options));
    return;
  }
  // Spec 2.5 / 2.16: the login link carries the current URL as `redirect`, in the embed's window too (the
  // window hands the session back by postMessage; the login page keeps `redirect` out of its stored redirect).
  const url = new URL(loginHref({ educatorId: options.educatorId }));
  url.searchParams.set('mode', 'embed');
  const origin = mainOrigin();
  const stop = listenForEmbedCode(origin, () => {
    stop();
    options.onDone?.();
  });
  const popup = window.open(url.toString(), 'marketplace-login', 'popup,width=480,height=720');
  if (!popup) {
    stop();
    // Pop-ups blocked: a new tab still logs in; the embed picks the session up when the window returns.
    window.open(url.toString(), '_blank', 'noopener');
  }
}

/** Inside the embed: trades a one-time code from the login window for the embed's bearer token. */
export async function acceptEmbedCode(code: string): Promise<boolean> {
  try {
    const res = await fetch(apiUrl('/auth/embed/exchange'), {
      method: 'POST',
      credentials: 'include',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ code }),
    });
    if (!res.ok) return false;
    const body = (await res.json()) as { token?: string };
    if (!body.token) return false;
    keepEmbedToken(body.token);
    await loadIdentity(true);
    return true;
  } catch {
    return false;
  }
}

/** Listens for the login window's code, from the main site's origin only. Returns the unsubscribe function. */
export function listenForEmbedCode(origin: string, onLogin: () => void): () => void {
  const handler = async (event: MessageEvent) => {
    if (event.origin !== origin) return;
    const data = event.data as { type?: string; code?: string } | null;
    if (!data || data.type !== EMBED_CODE_MESSAGE || typeof data.code !== 'string') return;
    if (await acceptEmbedCode(data.code)) onLogin();
  };
  window.addEventListener('message', handler);
  return () => window.removeEventListener('message', handler);
}
