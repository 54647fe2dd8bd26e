/**
 * The few scripts that must run inline, before anything else on the page, as text the build owns. A component
 * renders one with `<script is:inline set:html={…} />`, and the build hashes the same constants into the pages'
 * Content-Security-Policy (src/integrations/script-hashes.ts): an inline script is allowed because the build
 * wrote it, never because it was found in a page. Keep them free of anything that varies per page.
 */

/**
 * Embed pages tell their parent how tall they are (DESIGN 5); the parent's origin and URL travel in the URL
 * (src/components/EmbedResize.astro says how).
 */
export const EMBED_RESIZE_SCRIPT = `(function () {
  var KEY = 'marketplace:parent_origin', URL_KEY = 'marketplace:parent_url';
  function originOf(value) { try { return new URL(value).origin; } catch (e) { return null; } }
  function store(key, value) { try { sessionStorage.setItem(key, value); } catch (e) {} }
  function stored(key) { try { return sessionStorage.getItem(key); } catch (e) { return null; } }
  if (window.parent === window) return;
  var params = new URLSearchParams(location.search);
  var origin = originOf(params.get('parent_origin') || '') || stored(KEY);
  if (!origin && document.referrer) {
    var ref = originOf(document.referrer);
    if (ref && ref !== location.origin) origin = ref;
  }
  if (!origin || origin === 'null') return;
  store(KEY, origin);
  var parentUrl = params.get('parent_url') || stored(URL_KEY);
  if (parentUrl && originOf(parentUrl) !== origin) parentUrl = null;
  if (parentUrl) store(URL_KEY, parentUrl);

  document.addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[href]') : null;
    if (!link || link.target === '_blank') return;
    var url;
    try { url = new URL(link.href, location.href); } catch (e) { return; }
    if (url.origin !== location.origin) return;
    if (!url.searchParams.has('parent_origin')) url.searchParams.set('parent_origin', origin);
    if (parentUrl && !url.searchParams.has('parent_url')) url.searchParams.set('parent_url', parentUrl);
    link.href = url.href;
  }, true);

  var last = 0;
  function post() {
    var height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === last) return;
    last = height;
    window.parent.postMessage({ type: 'marketplace:resize', height: height }, origin);
  }
  if ('ResizeObserver' in window) new ResizeObserver(post).observe(document.documentElement);
  window.addEventListener('load', post);
  post();
})();
`;

/**
 * Accounts area: a minisite of localhost (no shared cookie domain) collects its session from the main host once
 * per tab, before the page is used: see api/auth/README.md and /api/auth/handoff. Nothing happens on real domains.
 */
export const MINISITE_HANDOFF_SCRIPT = `(function () {
  try {
    var host = location.hostname, dot = host.indexOf('.');
    if (dot < 0) return;
    var base = host.slice(dot + 1);
    if (base.indexOf('.') >= 0 && !/^[0-9.]+$/.test(base)) return;
    if (sessionStorage.getItem('marketplace:handoff-checked')) return;
    sessionStorage.setItem('marketplace:handoff-checked', '1');
    location.replace('/api/auth/handoff/start?return=' + encodeURIComponent(location.href));
  } catch (e) { /* no storage: no hand-off */ }
})();
`;

/**
 * A course page opened for a chosen date (?occurrence=, from its dates list) is pre-rendered without it: the booking
 * box puts the date in its button's link once it has hydrated, which on a slow phone can be after the learner has
 * already tapped it. Until then, a click on that button's link ([data-chosen-date]) still inside an island that has
 * not hydrated (astro-island[ssr]) carries the page's date, so the checkout opens at it rather than at the date step.
 * Once hydrated, the island's own link is the truth (a sold-out date there offers its waitlist instead).
 */
export const CHOSEN_DATE_SCRIPT = `(function () {
  var chosen = new URLSearchParams(location.search).get('occurrence');
  if (!chosen) return;
  document.addEventListener('click', function (event) {
    var link = event.target && event.target.closest ? event.target.closest('a[data-chosen-date]') : null;
    if (!link || !link.closest('astro-island[ssr]')) return;
    var url;
    try { url = new URL(link.href, location.href); } catch (e) { return; }
    if (url.searchParams.has('occurrence')) return;
    url.searchParams.set('occurrence', chosen);
    link.href = url.href;
  }, true);
})();
`;

/** Every inline script the pages may carry (hashed by the build). */
export const INLINE_SCRIPTS: readonly string[] = [EMBED_RESIZE_SCRIPT, MINISITE_HANDOFF_SCRIPT, CHOSEN_DATE_SCRIPT];
