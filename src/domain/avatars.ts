/**
 * Avatars, collection gradients and brand colours (spec 2.7, 3 "Collection",
 * 3 "Educator.Branding", 9 "Branding", 9 "Public pages").
 */

/** Spec 9: the 30-colour palette for initials avatars (all readable with white text). */
export const INITIALS_PALETTE: readonly string[] = [
  '#e53935', '#d81b60', '#8e24aa', '#5e35b1', '#3949ab',
  '#1e88e5', '#039be5', '#00838f', '#00897b', '#43a047',
  '#558b2f', '#827717', '#ef6c00', '#f4511e', '#6d4c41',
  '#546e7a', '#c62828', '#ad1457', '#6a1b9a', '#4527a0',
  '#283593', '#1565c0', '#0277bd', '#006064', '#00695c',
  '#2e7d32', '#33691e', '#e65100', '#bf360c', '#4e342e',
];

/** Spec 9: the 32-colour palette for collection gradients. */
export const COLLECTION_PALETTE: readonly string[] = [
  '#f44336', '#e91e63', '#9c27b0', '#673ab7', '#3f51b5', '#2196f3', '#03a9f4', '#00bcd4',
  '#009688', '#4caf50', '#8bc34a', '#cddc39', '#ffc107', '#ff9800', '#ff5722', '#795548',
  '#ef9a9a', '#f48fb1', '#ce93d8', '#b39ddb', '#9fa8da', '#90caf9', '#81d4fa', '#80deea',
  '#80cbc4', '#a5d6a7', '#c5e1a5', '#e6ee9c', '#ffe082', '#ffcc80', '#ffab91', '#bcaaa4',
];

/** First character (a whole code point), upper-cased; '' when empty. */
function firstLetter(value: string | null | undefined): string {
  const first = Array.from((value ?? '').trim())[0];
  return first ? first.toUpperCase() : '';
}

/**
 * First and last name. When no last name is given, a full name in the first
 * argument is split on white space ('Ada King Lovelace' → 'Ada', 'Lovelace').
 */
function nameParts(firstName: string | null | undefined, lastName: string | null | undefined): [string, string] {
  if (lastName != null) return [firstName ?? '', lastName];
  const words = (firstName ?? '').trim().split(/\s+/).filter(Boolean);
  return words.length > 1 ? [words[0], words[words.length - 1]] : [words[0] ?? '', ''];
}

/** Spec 2.7: initials from the first letters of first and last name ('Ada', 'Lovelace' → 'AL'; 'Ada Lovelace' → 'AL'). */
export function initials(firstName: string | null | undefined, lastName?: string | null): string {
  const [first, last] = nameParts(firstName, lastName);
  return `${firstLetter(first)}${firstLetter(last)}`;
}

/**
 * Spec 9: the initials colour, from the 30-colour palette indexed by the sum of
 * the char codes of the first letters (upper-cased) modulo 30.
 */
export function initialsColour(firstName: string | null | undefined, lastName?: string | null): string {
  const letters = initials(firstName, lastName);
  let sum = 0;
  for (const letter of letters) sum += letter.codePointAt(0) ?? 0;
  return INITIALS_PALETTE[sum % INITIALS_PALETTE.length];
}

/** A 32-bit FNV-1a hash of a string (unsigned). */
export function hashString(value: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < value.length; i += 1) {
    hash ^= value.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Spec 3 "Collection": without an image, a gradient from two palette colours:
 * the first from the hash of the name, the second from the hash of the id
 * (moved one step on when both land on the same colour).
 */
export function collectionGradient(name: string, id: string): { from: string; to: string; css: string } {
  const size = COLLECTION_PALETTE.length;
  const first = hashString(name) % size;
  let second = hashString(id) % size;
  if (second === first) second = (second + 1) % size;
  const from = COLLECTION_PALETTE[first];
  const to = COLLECTION_PALETTE[second];
  return { from, to, css: `linear-gradient(135deg, ${from}, ${to})` };
}

/** Spec 9: the product's blue. */
export const DEFAULT_BRAND_COLOUR = '#2563eb';
/** Spec 3 / 9: `on_color_brand` defaults to white. */
export const DEFAULT_ON_BRAND_COLOUR = '#ffffff';

/** Parses '#rgb' or '#rrggbb' (case-insensitive) into channels, or null. */
export function parseHexColour(colour: string | null | undefined): [number, number, number] | null {
  const value = (colour ?? '').trim();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  if (short) return [parseInt(short[1] + short[1], 16), parseInt(short[2] + short[2], 16), parseInt(short[3] + short[3], 16)];
  const long = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(value);
  if (long) return [parseInt(long[1], 16), parseInt(long[2], 16), parseInt(long[3], 16)];
  return null;
}

function toHex(channels: [number, number, number]): string {
  return `#${channels.map((channel) => channel.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Spec 3 / 1: the brand colour in use: the educator's `color_brand` when
 * white-labelling is on and it is a valid hex colour, else the default blue.
 */
export function brandColour(educator: { color_brand?: string | null; whitelabellingEnabled?: boolean | null } | null | undefined): string {
  if (educator?.whitelabellingEnabled && parseHexColour(educator.color_brand)) return (educator.color_brand as string).trim().toLowerCase();
  return DEFAULT_BRAND_COLOUR;
}

/** Spec 9: the hover colour mixes 10% of the brand colour into white (invalid input → the default brand). */
export function hoverColour(brand: string | null | undefined): string {
  const channels = parseHexColour(brand) ?? (parseHexColour(DEFAULT_BRAND_COLOUR) as [number, number, number]);
  return toHex(channels.map((channel) => Math.round((255 * 9 + channel) / 10)) as [number, number, number]);
}

/** Spec 3 / 9: the text colour on the brand colour, default white. */
export function onBrandColour(onColorBrand: string | null | undefined): string {
  return onColorBrand?.trim() || DEFAULT_ON_BRAND_COLOUR;
}

/** Spec 2.17: the "Powered by" banner is hidden in the marketplace and when branding is off (white-labelling on). */
export function showPoweredBy(context: 'marketplace' | 'minisite' | 'embed', whitelabellingEnabled: boolean | null | undefined): boolean {
  return context !== 'marketplace' && !whitelabellingEnabled;
}
