/**
 * Links per app context (spec 2.1–2.5, 2.16). Host and protocol are always
 * passed in (e.g. 'localhost:4321', 'http'); nothing here reads the environment.
 */
import type { AppContext } from './app-context.ts';
import type { CheckoutOrigin } from './checkout/origins.ts';

/** A link and whether it opens in a new tab. */
export interface Link {
  href: string;
  newTab: boolean;
}

/** Spec 2.3: add-review links always carry rel="nofollow". */
export interface NofollowLink extends Link {
  rel: 'nofollow';
}

/** 'https', 'https:' → 'https:' (default 'https:'). */
export function normaliseProtocol(protocol: string | null | undefined): string {
  const value = (protocol ?? 'https').trim() || 'https';
  return value.endsWith(':') ? value : `${value}:`;
}

/** Spec 1: an educator's minisite origin, '{protocol}//{educatorSlug}.{host}'. */
export function minisiteOrigin(educatorSlug: string, host: string, protocol?: string | null): string {
  return `${normaliseProtocol(protocol)}//${educatorSlug}.${host}`;
}

/** The main site's origin, '{protocol}//{host}'. */
export function mainOrigin(host: string, protocol?: string | null): string {
  return `${normaliseProtocol(protocol)}//${host}`;
}

function query(params: Record<string, string | number | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Spec 2.1: educator navigation links (null where the table says "none"). */
export interface EducatorLinks {
  courses: string;
  about: string | null;
  reviews: string;
  enquiry: string;
  memberships: string;
  vouchers: string | null;
}

/** Spec 2.1 table. */
export function educatorLinks(context: AppContext, educatorSlug: string): EducatorLinks {
  switch (context) {
    case 'marketplace':
      return {
        courses: `/${educatorSlug}/courses`,
        about: `/${educatorSlug}`,
        reviews: `/${educatorSlug}/reviews`,
        enquiry: `/${educatorSlug}/enquiry`,
        memberships: `/${educatorSlug}/memberships`,
        vouchers: null,
      };
    case 'minisite':
      return {
        courses: '/',
        about: '/about',
        reviews: '/reviews',
        enquiry: '/enquiry',
        memberships: '/memberships',
        vouchers: '/gift-checkout',
      };
    case 'embed':
      return {
        courses: `/embed/${educatorSlug}`,
        about: null,
        reviews: `/embed/${educatorSlug}/reviews`,
        enquiry: '/embed/enquiry',
        memberships: `/embed/${educatorSlug}/memberships`,
        vouchers: `/embed/${educatorSlug}/gift-checkout`,
      };
  }
}

/** Spec 2.1: a course list filtered by a collection: the courses link plus '?list={collectionId}'. */
export function collectionLink(context: AppContext, educatorSlug: string, collectionId: string): string {
  return `${educatorLinks(context, educatorSlug).courses}${query({ list: collectionId })}`;
}

/** Where a link is built and for which educator (spec 2.2–2.4 "same / another educator"). */
export interface LinkTarget {
  educatorSlug: string;
  /** The minisite's own educator; when different from educatorSlug the link leaves the minisite. */
  currentEducatorSlug?: string | null;
  host: string;
  protocol?: string | null;
}

/** True in a minisite whose educator is the link's educator. */
function isSameMinisite(context: AppContext, target: LinkTarget): boolean {
  return context === 'minisite' && target.currentEducatorSlug === target.educatorSlug;
}

/**
 * Spec 2.2 course page link:
 * - marketplace: /{educatorSlug}/{courseSlug}[?occurrence=]
 * - minisite, same educator: /{courseSlug}[?occurrence=]
 * - minisite, another educator: {protocol}//{educatorSlug}.{host}/{courseSlug}, new tab
 *   (the spec gives no occurrence parameter here, so none is added)
 * - embed: /embed/{educatorSlug}/{courseSlug}[?occurrence=]
 */
export function courseLink(
  context: AppContext,
  target: LinkTarget & { courseSlug: string; occurrenceId?: string | null },
): Link {
  const occurrence = query({ occurrence: target.occurrenceId });
  switch (context) {
    case 'marketplace':
      return { href: `/${target.educatorSlug}/${target.courseSlug}${occurrence}`, newTab: false };
    case 'minisite':
      return isSameMinisite(context, target)
        ? { href: `/${target.courseSlug}${occurrence}`, newTab: false }
        : { href: `${minisiteOrigin(target.educatorSlug, target.host, target.protocol)}/${target.courseSlug}`, newTab: true };
    case 'embed':
      return { href: `/embed/${target.educatorSlug}/${target.courseSlug}${occurrence}`, newTab: false };
  }
}

/**
 * Spec 2.3 course add-review link (always nofollow):
 * marketplace /{educatorSlug}/{courseSlug}/add-review; minisite same educator
 * /{courseSlug}/add-review; minisite another educator and embed: the
 * educator's subdomain URL {origin}/{courseSlug}/add-review in a new tab.
 */
export function courseAddReviewLink(context: AppContext, target: LinkTarget & { courseSlug: string }): NofollowLink {
  if (context === 'marketplace') {
    return { href: `/${target.educatorSlug}/${target.courseSlug}/add-review`, newTab: false, rel: 'nofollow' };
  }
  if (isSameMinisite(context, target)) {
    return { href: `/${target.courseSlug}/add-review`, newTab: false, rel: 'nofollow' };
  }
  return {
    href: `${minisiteOrigin(target.educatorSlug, target.host, target.protocol)}/${target.courseSlug}/add-review`,
    newTab: true,
    rel: 'nofollow',
  };
}

/**
 * Spec 2.3 educator add-review link (always nofollow):
 * marketplace /{educatorSlug}/reviews/add-review; minisite same educator
 * /reviews/add-review; otherwise the educator's subdomain URL
 * {origin}/reviews/add-review. The spec does not say "new tab" here; it opens in
 * a new tab like the course link, since from an embed or another minisite it
 * leaves the current site.
 */
export function educatorAddReviewLink(context: AppContext, target: LinkTarget): NofollowLink {
  if (context === 'marketplace') return { href: `/${target.educatorSlug}/reviews/add-review`, newTab: false, rel: 'nofollow' };
  if (isSameMinisite(context, target)) return { href: '/reviews/add-review', newTab: false, rel: 'nofollow' };
  return { href: `${minisiteOrigin(target.educatorSlug, target.host, target.protocol)}/reviews/add-review`, newTab: true, rel: 'nofollow' };
}

/** Spec 2.4 context rule applied to a path relative to the educator ('/{courseSlug}/…'). */
function educatorScopedLink(context: AppContext, target: LinkTarget, path: string): Link {
  if (context === 'marketplace') return { href: `/${target.educatorSlug}${path}`, newTab: false };
  if (isSameMinisite(context, target)) return { href: path, newTab: false };
  return { href: `${minisiteOrigin(target.educatorSlug, target.host, target.protocol)}${path}`, newTab: true };
}

/**
 * Spec 2.4: link to a course occurrence from a booking.
 * Path /{courseSlug}/details/{occurrenceId}?booking={bookingId}; with no
 * occurrence id, /{courseSlug}/dates?booking={bookingId} (the spec's
 * "dates?booking=" read as a sibling of 'details' under the course).
 * marketplace prefixes /{educatorSlug}; a minisite of the same educator is
 * relative; another minisite or an embed opens the educator's minisite URL in a new tab.
 */
export function occurrenceLinkFromBooking(
  context: AppContext,
  target: LinkTarget & { courseSlug: string; occurrenceId?: string | null; bookingId?: string | null },
): Link {
  const booking = query({ booking: target.bookingId });
  const path = target.occurrenceId
    ? `/${target.courseSlug}/details/${target.occurrenceId}${booking}`
    : `/${target.courseSlug}/dates${booking}`;
  return educatorScopedLink(context, target, path);
}

/** Spec 2.4: course details from an order, /{courseSlug}/details?orderId={orderId}, same context rules. */
export function orderDetailsLink(context: AppContext, target: LinkTarget & { courseSlug: string; orderId: string }): Link {
  return educatorScopedLink(context, target, `/${target.courseSlug}/details${query({ orderId: target.orderId })}`);
}

/** Spec 2.5: category listing, /courses/{categorySlug}. */
export function categoryLink(categorySlug: string): string {
  return `/courses/${categorySlug}`;
}

/** Spec 2.5 / 2.7: the profile routes and their labels. */
export const PROFILE_LINKS = [
  { href: '/profile', label: 'My Courses & Bookings' },
  { href: '/profile/saved-courses', label: 'Saved' },
  { href: '/profile/settings', label: 'User Settings' },
] as const;

/** Spec 2.7: the account section label. */
export function accountSectionLabel(administeredEducatorCount: number): 'Student Profile' | 'User Profile' {
  return administeredEducatorCount > 0 ? 'Student Profile' : 'User Profile';
}

/** Spec 2.5: /{educatorSlug}/claim-profile with "Own this business?": marketplace only, unclaimed educators only. */
export function claimProfileLink(context: AppContext, educator: { slug: string; claimed?: boolean | null }): { href: string; text: string } | null {
  if (context !== 'marketplace' || educator.claimed) return null;
  return { href: `/${educator.slug}/claim-profile`, text: 'Own this business?' };
}

/**
 * Spec 2.5 / 2.16: '{protocol}//{host}/login?redirect={currentUrl}&educator={educatorId}'.
 * The educator parameter is left out when the origin is the marketplace (or no id is known).
 */
export function loginUrl(input: {
  host: string;
  currentUrl: string;
  educatorId?: string | null;
  origin?: CheckoutOrigin | AppContext | null;
  protocol?: string | null;
}): string {
  const educator = input.origin === 'marketplace' ? undefined : input.educatorId;
  return `${mainOrigin(input.host, input.protocol)}/login${query({ redirect: input.currentUrl, educator })}`;
}

/** Spec 2.5: '/logout', or '/logout?redirect={url}' as the checkout uses it. */
export function logoutUrl(redirect?: string | null): string {
  return `/logout${query({ redirect })}`;
}

/** Spec 2.5: links into the admin dashboard ({adminHost} includes the protocol). */
export interface AdminLinks {
  dashboard: string;
  profile: string;
  course: (courseId: string) => Link;
}

/** Spec 2.5: the admin dashboard root and profile with ?educator-context=, and per-course links in a new tab. */
export function adminLinks(adminHost: string, educatorId: string): AdminLinks {
  const base = adminHost.replace(/\/+$/, '');
  const context = query({ 'educator-context': educatorId });
  return {
    dashboard: `${base}/${context}`,
    profile: `${base}/profile${context}`,
    course: (courseId: string) => ({ href: `${base}/courses/${courseId}${context}`, newTab: true }),
  };
}

/**
 * Spec 2.5 last bullet: the educator page is {host}/{educatorSlug} for the
 * marketplace origin and {educatorSlug}.{host} for the embed and landing_page origins.
 */
export function educatorPageUrl(origin: CheckoutOrigin, host: string, educatorSlug: string, protocol?: string | null): string {
  return origin === 'marketplace' ? `${mainOrigin(host, protocol)}/${educatorSlug}` : minisiteOrigin(educatorSlug, host, protocol);
}

/** Spec 2.5: the course page is {educator page}/{courseSlug}. */
export function coursePageUrl(origin: CheckoutOrigin, host: string, educatorSlug: string, courseSlug: string, protocol?: string | null): string {
  return `${educatorPageUrl(origin, host, educatorSlug, protocol)}/${courseSlug}`;
}

/** Spec 2.15: "Pay Invoice" links. */
export function payInvoiceLink(kind: 'booking' | 'order', id: string): string {
  return kind === 'booking' ? `/complete-booking/${id}` : `/complete-order/${id}`;
}

/** Spec 4 "App context": embed is treated as minisite for review listing and course search. */
export function listingContext(context: AppContext): 'marketplace' | 'minisite' {
  return context === 'marketplace' ? 'marketplace' : 'minisite';
}

/** A relative or absolute link with query parameters set (replacing any of the same name); the rest of it kept. */
export function withQuery(href: string, params: Record<string, string>): string {
  const [beforeHash, hash = ''] = href.split('#', 2) as [string, string?];
  const [path, query = ''] = beforeHash.split('?', 2) as [string, string?];
  const search = new URLSearchParams(query);
  for (const [k, v] of Object.entries(params)) search.set(k, v);
  const qs = search.toString();
  return `${path}${qs ? `?${qs}` : ''}${hash ? `#${hash}` : ''}`;
}
