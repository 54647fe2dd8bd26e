/**
 * Analytics events from the browser (spec 1 "Analytics"): POST /api/analytics/events → 202.
 * Sent with navigator.sendBeacon (survives navigation), or fetch keepalive when beacons are unavailable.
 */
import { API_ORIGIN, apiUrl } from './api-url.ts';

export interface AnalyticsEvent {
  name: string;
  educator_ref: string;
  course_ref?: string;
  link_type?: string;
  educator_name?: string;
}

export function sendAnalyticsEvent(event: AnalyticsEvent): void {
  try {
    const url = apiUrl('/analytics/events');
    const body = JSON.stringify(event);
    // A JSON beacon is only allowed to our own origin; a separate API host gets fetch keepalive (CORS).
    const sent = API_ORIGIN === '' && typeof navigator !== 'undefined' && typeof navigator.sendBeacon === 'function'
      && navigator.sendBeacon(url, new Blob([body], { type: 'application/json' }));
    if (!sent) {
      void fetch(url, { method: 'POST', body, keepalive: true, credentials: 'include', headers: { 'content-type': 'application/json' } }).catch(() => {});
    }
  } catch {
    /* analytics never breaks a page */
  }
}
