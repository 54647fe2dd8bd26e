/**
 * Page analytics (spec 1 "Analytics"): the page view event described by [data-page-analytics]
 * (educator profile view, or course page view with educator and course ids), and 'External Redirect'
 * for clicks on social links ([data-social-link]).
 */
import { sendAnalyticsEvent } from '../analytics.ts';
import { EXTERNAL_REDIRECT } from '../../domain/analytics.ts';

let started = false;

/** Sends the page's view event and follows social link clicks (once; PageAnalytics.astro calls it). */
export function initPageAnalytics(): void {
  if (started) return;
  started = true;
  const marker = document.querySelector<HTMLElement>('[data-page-analytics]');
  if (marker?.dataset.name && marker.dataset.educatorRef) {
    sendAnalyticsEvent({
      name: marker.dataset.name,
      educator_ref: marker.dataset.educatorRef,
      ...(marker.dataset.courseRef ? { course_ref: marker.dataset.courseRef } : {}),
    });
  }

  document.addEventListener('click', (event) => {
    const link = (event.target as Element | null)?.closest<HTMLAnchorElement>('a[data-social-link]');
    if (!link?.dataset.educatorRef) return;
    sendAnalyticsEvent({ name: EXTERNAL_REDIRECT, educator_ref: link.dataset.educatorRef, link_type: link.dataset.socialLink });
  });
}
