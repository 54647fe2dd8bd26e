/**
 * Spec 1 "Contexts": where a page is shown — the marketplace ({host}/{educatorSlug}/…), the educator's minisite
 * ({educatorSlug}.{host}/…) or an embed (/embed/{educatorSlug}/…). The one declaration of the type: the server's
 * request context (api/http/context.ts), the pages, links and the checkout all read it from here.
 */
export type AppContext = 'marketplace' | 'minisite' | 'embed';
