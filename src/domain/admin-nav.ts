/**
 * The admin app's screens (docs/admin.md): one list, so the navigation, the pages and the tests agree. Paths are
 * on the admin host and take the educator as `?educator-context={educatorId}` (spec 2.5's links into the admin).
 */
export interface AdminScreen {
  path: string;
  label: string;
  /** The group it is listed under in the navigation. */
  group: 'Catalogue' | 'Business' | 'Settings';
}

export const ADMIN_SCREENS: readonly AdminScreen[] = [
  { path: '/', label: 'Overview', group: 'Catalogue' },
  { path: '/courses', label: 'Courses', group: 'Catalogue' },
  { path: '/forms', label: 'Forms', group: 'Catalogue' },
  { path: '/locations', label: 'Locations', group: 'Catalogue' },
  { path: '/collections', label: 'Collections', group: 'Catalogue' },
  { path: '/promo-codes', label: 'Promo codes', group: 'Catalogue' },
  { path: '/gift-vouchers', label: 'Gift vouchers', group: 'Catalogue' },
  { path: '/memberships', label: 'Memberships', group: 'Catalogue' },
  { path: '/bookings', label: 'Bookings', group: 'Business' },
  { path: '/requests', label: 'Approvals & requests', group: 'Business' },
  { path: '/registers', label: 'Registers', group: 'Business' },
  { path: '/inbox', label: 'Inbox', group: 'Business' },
  { path: '/reviews', label: 'Reviews', group: 'Business' },
  { path: '/money', label: 'Money', group: 'Business' },
  { path: '/numbers', label: 'Numbers', group: 'Business' },
  { path: '/profile', label: 'Profile & branding', group: 'Settings' },
  { path: '/payments', label: 'Payment options', group: 'Settings' },
  { path: '/activity', label: 'Activity', group: 'Settings' },
];

/** An admin path for an educator: `{path}?educator-context={educatorId}` (with any further query). */
export function adminPath(path: string, educatorId: string, query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ 'educator-context': educatorId, ...query });
  return `${path}?${params.toString()}`;
}

/**
 * Which educator a screen is about: the `educator-context` the URL names when the user administers it, else their
 * only (or first) educator; null when they administer none (then the screen offers to create one).
 */
export function chooseEducatorContext(requested: string | null, administered: readonly string[]): string | null {
  if (requested && administered.includes(requested)) return requested;
  return administered[0] ?? null;
}
