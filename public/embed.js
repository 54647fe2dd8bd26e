/*!
 * Course Marketplace embed snippet (docs/embed.md).
 *
 *   <div data-marketplace-embed data-educator="your-slug"></div>
 *   <script async src="https://{marketplace host}/embed.js"></script>
 *
 * Options on the element: data-page="courses" (default) | "reviews" | "enquiry" | "course" | "waitlist" |
 * "memberships" | "vouchers" (the gift voucher checkout),
 * data-course="{courseSlug}" (for data-page="course"), data-title="…" (iframe title), data-height="600"
 * (initial height in px). The frame grows and shrinks with its content: embed pages post
 * {type: 'marketplace:resize', height} to this page, and only messages from the marketplace's own
 * origin are applied.
 */
(function () {
  'use strict';
  var script = document.currentScript;
  var ORIGIN;
  try {
    ORIGIN = new URL(script && script.src ? script.src : '/', window.location.href).origin;
  } catch (e) {
    return;
  }
  var SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
  var frames = [];

  function pathFor(el) {
    var educator = el.getAttribute('data-educator') || '';
    var page = el.getAttribute('data-page') || 'courses';
    var course = el.getAttribute('data-course') || '';
    if (!SLUG.test(educator)) return null;
    switch (page) {
      case 'reviews': return { path: '/embed/' + educator + '/reviews', query: {} };
      case 'enquiry': return { path: '/embed/enquiry', query: { educator: educator } };
      case 'waitlist': return { path: '/embed/' + educator + '/waitlist', query: {} };
      case 'memberships': return { path: '/embed/' + educator + '/memberships', query: {} };
      case 'vouchers': return { path: '/embed/' + educator + '/gift-checkout', query: {} };
      case 'course': return SLUG.test(course) ? { path: '/embed/' + educator + '/' + course, query: {} } : null;
      default: return { path: '/embed/' + educator, query: {} };
    }
  }

  function mount(el) {
    if (el.getAttribute('data-marketplace-mounted')) return;
    var target = pathFor(el);
    if (!target) {
      if (window.console) console.warn('[marketplace embed] data-educator (and data-course for a course) must be a slug', el);
      return;
    }
    var url = new URL(target.path, ORIGIN);
    Object.keys(target.query).forEach(function (k) { url.searchParams.set(k, target.query[k]); });
    // The embed page posts its height to this origin; the checkout's "Back to Website" returns to this page.
    url.searchParams.set('parent_origin', window.location.origin);
    url.searchParams.set('parent_url', window.location.href.split('#')[0]);
    var iframe = document.createElement('iframe');
    iframe.src = url.href;
    iframe.title = el.getAttribute('data-title') || 'Courses and booking';
    iframe.setAttribute('allow', 'payment');
    iframe.setAttribute('loading', 'lazy');
    iframe.setAttribute('referrerpolicy', 'strict-origin-when-cross-origin');
    iframe.style.width = '100%';
    iframe.style.border = '0';
    iframe.style.display = 'block';
    iframe.style.height = (parseInt(el.getAttribute('data-height') || '', 10) || 600) + 'px';
    el.setAttribute('data-marketplace-mounted', 'true');
    el.appendChild(iframe);
    frames.push(iframe);
  }

  window.addEventListener('message', function (event) {
    if (event.origin !== ORIGIN) return; // only our own pages may resize our frames
    var data = event.data;
    if (!data || data.type !== 'marketplace:resize' || typeof data.height !== 'number' || !isFinite(data.height)) return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === event.source) {
        frames[i].style.height = Math.max(120, Math.min(Math.ceil(data.height), 20000)) + 'px';
        return;
      }
    }
  });

  function mountAll() {
    var list = document.querySelectorAll('[data-marketplace-embed]');
    for (var i = 0; i < list.length; i++) mount(list[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll);
  else mountAll();
  window.MarketplaceEmbed = { mount: mount, mountAll: mountAll };
})();
