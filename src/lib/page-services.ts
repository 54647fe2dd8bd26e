/**
 * What on-demand pages ask the server for. Pages never import the API's modules: the server (api/app.ts) hands
 * each on-demand render an implementation of this contract as Astro.locals.services (api/pages/services.ts), so
 * the arrows run one way — api → src, never back — and pages hold no queries of their own.
 */
import type { AstroGlobal } from 'astro';
import type { CheckoutBootstrap } from '../islands/checkout/types.ts';
import type { AppContext } from '../domain/app-context.ts';
import type { BookingPageResult } from '../../api/pages/booking-page.ts';
import type { AddReviewPage } from '../../api/pages/add-review-page.ts';
import type { Account } from '../../api/auth/users.ts';
import type { ProfileItem, listOwnReviews } from '../../db/queries/accounts.ts';
import type { listSavedCourses } from '../../db/queries/saved-courses.ts';
import type { Educator } from '../../db/schema.ts';
import type { GiftCardView } from '../../api/gifts/views.ts';
import type { PayInvoiceView } from '../../db/queries/bookings.ts';
import type { AdminPageServices } from './admin-page-services.ts';

export interface CheckoutPageData {
  bootstrap: CheckoutBootstrap;
  brand: { color_brand: string | null; on_color_brand: string | null } | null;
}

export interface LoginPageData {
  educator: { name: string; logo: string | null } | null;
  link: { token: string; email: string | null; valid: boolean; purpose: 'magic-link' | 'signup' | null } | null;
}

export interface PageServices {
  /** The main site's origin ('https://{host}') and host name without port. */
  mainOrigin(): string;
  mainHostname(): string;
  /** The address the visitor used for a path (Astro sees minisite pages under /minisite/{slug}). */
  visitorUrl(astro: Pick<AstroGlobal, 'locals' | 'url'>, path: string): string;
  /** The checkout island's bootstrap (catalogue facts, payment widgets) and the educator's brand colours. */
  checkoutPage(url: URL, context: AppContext): Promise<CheckoutPageData>;
  /**
   * The gift voucher checkout of an educator (minisite and embed /gift-checkout): the checkout page for the
   * giftVoucher flow, and whether the educator sells gift vouchers (else the page is the not-found page, 404).
   */
  giftCheckoutPage(url: URL, educatorSlug: string, context: 'minisite' | 'embed'): Promise<CheckoutPageData & { onSale: boolean }>;
  /** "Pay Invoice" (spec 2.15): the booking or order, when it is this user's. */
  payInvoice(kind: 'booking' | 'order', id: string, userId: string): Promise<PayInvoiceView | null>;
  /** The booking and order pages of spec 2.4, and the page of a booking without a date (`dates`). */
  outcomePage(astro: AstroGlobal, context: 'marketplace' | 'minisite', kind: 'booking' | 'order' | 'dates'): Promise<BookingPageResult>;
  /** The add-review pages (spec 2.3); null means 404. */
  addReviewPage(astro: AstroGlobal, context: 'marketplace' | 'minisite', educatorSlug: string | undefined, courseSlug: string | null): Promise<AddReviewPage | null>;
  loginPage(educatorId: string | null, token: string | null): Promise<LoginPageData>;
  claimPage(slug: string, userId: string | null): Promise<{ educator: Educator | null; requested: boolean }>;
  profile(studentId: string): Promise<{ items: ProfileItem[]; reviews: Awaited<ReturnType<typeof listOwnReviews>> }>;
  savedCourses(studentId: string): ReturnType<typeof listSavedCourses>;
  /** Whether the educator sells gift vouchers (the spec's `vouchers_app_installed`). */
  giftVouchersOn(educatorId: string): Promise<boolean>;
  /** Whether the educator has membership plans listed (the Memberships tab). */
  membershipPlansListed(educatorId: string): Promise<boolean>;
  /** The learner's gift cards, bought and received, with balance and expiry. */
  giftCards(user: { id: string; email: string }): Promise<GiftCardView[]>;
  accountSettings(userId: string): Promise<Account | null>;
  /** The admin app's services (src/lib/admin-page-services.ts). */
  admin: AdminPageServices;
}

/** The server's services for this render (present whenever api/server.ts renders the page). */
export function pageServices(astro: Pick<AstroGlobal, 'locals'>): PageServices {
  const services = (astro.locals as { services?: PageServices }).services;
  if (!services) throw new Error('On-demand pages are rendered by the server (api/server.ts), which provides their services.');
  return services;
}
