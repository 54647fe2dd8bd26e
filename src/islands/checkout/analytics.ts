/**
 * The checkout's own analytics (spec 1 "Analytics"): begin_checkout and purchase go to the educator's GA4 id
 * and ad-pixel id (third_party_codes.ga4_id / facebook_pixel_id) when these are set. Nothing is loaded when
 * neither id exists; otherwise a tiny loader adds the provider's script once and queues the events
 * (window.dataLayer / window.fbq), so an event sent before the script arrives is not lost.
 * The pixel receives its standard events (InitiateCheckout, Purchase).
 */
import { PIXEL_EVENTS, checkoutEventParams } from '../../domain/checkout/ui.ts';
import { BEGIN_CHECKOUT, PURCHASE } from '../../domain/analytics.ts';
import { ANALYTICS_ID } from '../../lib/script-policy.ts';

type Gtag = (...args: unknown[]) => void;
interface Fbq {
  (...args: unknown[]): void;
  queue?: unknown[][];
  callMethod?: (...args: unknown[]) => void;
  loaded?: boolean;
  version?: string;
  push?: Fbq;
}

declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
    fbq?: Fbq;
    _fbq?: Fbq;
  }
}

export interface ThirdPartyCodes {
  ga4_id?: string | null;
  facebook_pixel_id?: string | null;
}

const ID = ANALYTICS_ID;
const loaded = new Set<string>();

function addScript(src: string): void {
  if (document.querySelector(`script[src="${src}"]`)) return;
  const script = document.createElement('script');
  script.async = true;
  script.src = src;
  document.head.appendChild(script);
}

function ga4(id: string): Gtag {
  window.dataLayer = window.dataLayer ?? [];
  if (!window.gtag) {
    window.gtag = function gtag() {
      // gtag.js reads the arguments object itself.
      // eslint-disable-next-line prefer-rest-params
      window.dataLayer!.push(arguments);
    };
  }
  if (!loaded.has(`ga4:${id}`)) {
    loaded.add(`ga4:${id}`);
    window.gtag('js', new Date());
    window.gtag('config', id, { send_page_view: false });
    addScript(`https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`);
  }
  return window.gtag;
}

function pixel(id: string): Fbq {
  if (!window.fbq) {
    const fbq: Fbq = function (...args: unknown[]) {
      if (fbq.callMethod) fbq.callMethod(...args);
      else fbq.queue!.push(args);
    } as Fbq;
    fbq.queue = [];
    fbq.loaded = true;
    fbq.version = '2.0';
    fbq.push = fbq;
    window.fbq = fbq;
    window._fbq = window._fbq ?? fbq;
  }
  if (!loaded.has(`pixel:${id}`)) {
    loaded.add(`pixel:${id}`);
    window.fbq('init', id);
    addScript('https://connect.facebook.net/en_US/fbevents.js');
  }
  return window.fbq;
}

function send(codes: ThirdPartyCodes, event: typeof BEGIN_CHECKOUT | typeof PURCHASE, params: ReturnType<typeof checkoutEventParams>): void {
  try {
    const gaId = codes.ga4_id?.trim();
    const pixelId = codes.facebook_pixel_id?.trim();
    if (gaId && ID.test(gaId)) ga4(gaId)('event', event, { ...params, send_to: gaId });
    if (pixelId && ID.test(pixelId)) {
      const { value, currency } = params;
      pixel(pixelId)('trackSingle', pixelId, PIXEL_EVENTS[event], value === undefined ? { currency } : { value, currency });
    }
  } catch {
    /* analytics never breaks the checkout */
  }
}

export function trackBeginCheckout(codes: ThirdPartyCodes, params: ReturnType<typeof checkoutEventParams>): void {
  send(codes, BEGIN_CHECKOUT, params);
}

export function trackPurchase(codes: ThirdPartyCodes, params: ReturnType<typeof checkoutEventParams>): void {
  send(codes, PURCHASE, params);
}

/** Each event once per checkout in this tab (a reload resuming the checkout does not send it again). */
export function once(key: string): boolean {
  try {
    const storageKey = `checkout_event:${key}`;
    if (sessionStorage.getItem(storageKey)) return false;
    sessionStorage.setItem(storageKey, '1');
    return true;
  } catch {
    if (loaded.has(`event:${key}`)) return false;
    loaded.add(`event:${key}`);
    return true;
  }
}
