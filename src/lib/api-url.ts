/**
 * The JSON API's address from the browser: the build-time PUBLIC_API_ORIGIN (default '': the page's own origin).
 * Its own module (api.ts re-exports it) so the site-wide scripts (identity, analytics) do not load the API calls
 * of the search, reviews and enquiry islands.
 */
export const API_ORIGIN: string = ((import.meta.env.PUBLIC_API_ORIGIN as string | undefined) ?? '').replace(/\/+$/, '');

export function apiUrl(path: string): string {
  return `${API_ORIGIN}/api${path.startsWith('/') ? path : `/${path}`}`;
}
