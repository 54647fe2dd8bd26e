/**
 * Location texts (spec 3 "Course.address", 5 "Delivery badge", 7 "Locations").
 */

/** Spec 7: city text: '{city}', '{a} or {b}', '{first} and N more' (N = count − 1); '' for none. */
export function locationCityText(cities: ReadonlyArray<string>): string {
  if (cities.length === 0) return '';
  if (cities.length === 1) return cities[0];
  if (cities.length === 2) return `${cities[0]} or ${cities[1]}`;
  return `${cities[0]} and ${cities.length - 1} more`;
}

/** Spec 7: for more than 3 locations a tooltip lists them all as 'a, b, and c'; otherwise null. */
export function locationTooltip(cities: ReadonlyArray<string>): string | null {
  if (cities.length <= 3) return null;
  return `${cities.slice(0, -1).join(', ')}, and ${cities[cities.length - 1]}`;
}

export type Address = Record<string, unknown>;

/**
 * Spec 3: the location text is the address object's values joined (', '),
 * in the object's key order, skipping empty and non-text values.
 */
export function locationText(address: Address | null | undefined): string {
  if (!address) return '';
  return Object.values(address)
    .filter((value): value is string | number => (typeof value === 'string' && value.trim() !== '') || typeof value === 'number')
    .map((value) => String(value).trim())
    .join(', ');
}

/** Spec 5: the badge location text: the first location, or '{first} & {n} more' (n = count − 1). */
export function deliveryLocationText(locations: ReadonlyArray<string>): string {
  if (locations.length === 0) return '';
  if (locations.length === 1) return locations[0];
  return `${locations[0]} & ${locations.length - 1} more`;
}

export type DeliveryMode = 'online' | 'on-demand' | 'hybrid' | 'in-person' | 'on-request' | (string & {});

/** Fallback for an in-person badge when the course has no location text. */
export const IN_PERSON_FALLBACK = 'In-person';

/**
 * Spec 5 "Delivery badge" for course cards.
 * - Several modes (without on-request), or on-request together with online
 *   and in-person → one badge '{location} or Online'.
 * - Otherwise one badge per mode: online 'Online', on-demand 'On-demand',
 *   hybrid '{location} & Online', in-person '{location}'. on-request alone
 *   has no badge of its own (the spec gives none).
 * An empty location text falls back to 'In-person'.
 */
export function deliveryBadges(course: { delivery?: ReadonlyArray<DeliveryMode> | DeliveryMode | null }, location: string): string[] {
  const raw = course.delivery;
  const modes = Array.from(new Set(raw == null ? [] : typeof raw === 'string' ? [raw] : raw));
  const place = location.trim() || IN_PERSON_FALLBACK;
  const onRequest = modes.includes('on-request');
  if (
    (!onRequest && modes.length > 1) ||
    (onRequest && modes.includes('online') && modes.includes('in-person'))
  ) {
    return [`${place} or Online`];
  }
  const badges: string[] = [];
  for (const mode of modes) {
    if (mode === 'online') badges.push('Online');
    else if (mode === 'on-demand') badges.push('On-demand');
    else if (mode === 'hybrid') badges.push(`${place} & Online`);
    else if (mode === 'in-person') badges.push(place);
  }
  return badges;
}

/**
 * Spec 2.13 (12): the Location section is hidden for on-request courses, online delivery, or without an
 * address. A course is delivered online unless one of its modes meets in a place (in person or hybrid).
 */
export function showLocationSection(input: { courseType?: string | null; deliveryModes?: ReadonlyArray<string> | null; addressText?: string | null }): boolean {
  if (input.courseType === 'on-request') return false;
  if (!(input.deliveryModes ?? []).some((mode) => mode === 'in-person' || mode === 'hybrid')) return false;
  return !!input.addressText?.trim();
}
