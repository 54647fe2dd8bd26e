/**
 * The rules of an educator's profile as the admin edits it (spec 3 "Educator", 1 "Educator switches", 9 "Branding"):
 * what a slug may be, the analytics ids, the opening hours, and the defaults a new educator starts with. Pure: the
 * API (api/admin/educators.ts) and the admin's islands both use these, so the form says what the server will say.
 */
import { SLUG_PATTERN } from '../slugs.ts';
import { slugFromName } from '../text.ts';
import { RESERVED_EMBED_EDUCATORS, RESERVED_TOP_LEVEL } from '../routes.ts';
import { WEEKDAYS, type Weekday, type WorkingHours, type WorkingRange } from '../workingHours.ts';
import { DEFAULT_TAX_LABEL } from '../vat.ts';
import { DEFAULT_ON_BRAND_COLOUR } from '../avatars.ts';

/**
 * An educator's slug is a path segment (/{slug}/…, /embed/{slug}/…) and a host label ({slug}.{host}), so besides
 * the database's slug rule (src/domain/slugs.ts, migration 0160) it has no underscore (not allowed in a host name)
 * and at most 63 characters (one DNS label).
 */
export const EDUCATOR_SLUG_MIN_LENGTH = 3;
export const EDUCATOR_SLUG_MAX_LENGTH = 63;
export const EDUCATOR_SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
export const EDUCATOR_SLUG_FORMAT_MESSAGE = 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit';
export const EDUCATOR_SLUG_RESERVED_MESSAGE = 'is reserved; choose another';
export const EDUCATOR_SLUG_TAKEN_MESSAGE = 'is already taken; choose another';

/**
 * Host labels the platform keeps for itself: a minisite at `{slug}.{host}` must not look like one of our own hosts
 * (the admin host's first label is refused by the server too, api/http/context.ts).
 */
export const RESERVED_HOST_LABELS: ReadonlySet<string> = new Set([
  'www', 'admin', 'api', 'app', 'mail', 'email', 'smtp', 'cdn', 'static', 'assets', 'media', 'status', 'help',
  'support', 'docs', 'blog', 'dashboard', 'account', 'accounts', 'auth', 'billing', 'payments', 'marketplace',
]);

/** Whether a slug is one of our own words: a marketplace path, the embed's enquiry shell or one of our hosts. */
export function isReservedEducatorSlug(slug: string): boolean {
  return RESERVED_TOP_LEVEL.has(slug) || RESERVED_EMBED_EDUCATORS.has(slug) || RESERVED_HOST_LABELS.has(slug);
}

/** The message for a slug an educator may not have (before asking whether it is taken), or null. */
export function educatorSlugProblem(slug: string): string | null {
  if (slug.length < EDUCATOR_SLUG_MIN_LENGTH) return `must be at least ${EDUCATOR_SLUG_MIN_LENGTH} characters`;
  if (slug.length > EDUCATOR_SLUG_MAX_LENGTH) return `must be at most ${EDUCATOR_SLUG_MAX_LENGTH} characters`;
  // The database's rule first (it also allows '_'), then the host label's.
  if (!SLUG_PATTERN.test(slug) || !EDUCATOR_SLUG_PATTERN.test(slug)) return EDUCATOR_SLUG_FORMAT_MESSAGE;
  if (isReservedEducatorSlug(slug)) return EDUCATOR_SLUG_RESERVED_MESSAGE;
  return null;
}

/** A slug suggested from a name ('Clay & Co. Studio' → 'clay-co-studio'); the admin may edit it. */
export function suggestEducatorSlug(name: string): string {
  return slugFromName(name, EDUCATOR_SLUG_MAX_LENGTH);
}

/** A GA4 measurement id: 'G-' and 4 to 16 letters or digits (e.g. G-1A2B3C4D5E). */
export const GA4_ID_PATTERN = /^G-[A-Z0-9]{4,16}$/;
export const GA4_ID_MESSAGE = 'must be a GA4 measurement id such as G-1A2B3C4D5E';
/** A Meta (Facebook) pixel id: 8 to 20 digits. */
export const PIXEL_ID_PATTERN = /^[0-9]{8,20}$/;
export const PIXEL_ID_MESSAGE = 'must be a pixel id of 8 to 20 digits';

/** A brand colour as stored: '#rrggbb', lower-case. */
export const HEX_COLOUR_PATTERN = /^#[0-9a-f]{6}$/;
export const HEX_COLOUR_MESSAGE = 'must be a colour such as #1d4ed8';

/** '#ABC' or '#AaBbCc' as '#aabbcc'; null when it is not a hex colour. */
export function normaliseHexColour(value: string): string | null {
  const v = value.trim().toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(v);
  if (short) return `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`;
  return HEX_COLOUR_PATTERN.test(v) ? v : null;
}

/** Opening hours: a day holds at most this many ranges. */
export const MAX_RANGES_PER_DAY = 6;
export const DAY_SECONDS = 86_400;

/** 'HH:MM' (00:00–24:00) as seconds from midnight, or null. */
export function parseTimeOfDay(value: string): number | null {
  const m = /^([01]\d|2[0-4]):([0-5]\d)$/.exec(value.trim());
  if (!m) return null;
  const seconds = Number(m[1]) * 3600 + Number(m[2]) * 60;
  return seconds <= DAY_SECONDS ? seconds : null;
}

export interface FieldProblem { key: string; message: string }

/**
 * Spec 3 "Working hours", per weekday: null (Closed), [] (Open 24 hours) or ranges in seconds from midnight. Each
 * range starts before it ends, within the day, on a whole minute; ranges of a day do not overlap. Keys are the
 * field paths the form shows the messages beside ('working_hours.monday.0.until').
 */
export function workingHoursProblems(hours: WorkingHours): FieldProblem[] {
  const out: FieldProblem[] = [];
  for (const day of Object.keys(hours)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) out.push({ key: `working_hours.${day}`, message: 'is not a day of the week' });
  }
  for (const day of WEEKDAYS) {
    const ranges = hours[day];
    if (ranges == null) continue;
    if (ranges.length > MAX_RANGES_PER_DAY) {
      out.push({ key: `working_hours.${day}`, message: `must have at most ${MAX_RANGES_PER_DAY} opening times` });
      continue;
    }
    const before = out.length;
    ranges.forEach((r, i) => {
      const at = `working_hours.${day}.${i}`;
      if (!Number.isInteger(r.from) || r.from < 0 || r.from >= DAY_SECONDS || r.from % 60 !== 0) out.push({ key: `${at}.from`, message: 'must be a time of day from 00:00 to 23:59' });
      else if (!Number.isInteger(r.until) || r.until > DAY_SECONDS || r.until % 60 !== 0) out.push({ key: `${at}.until`, message: 'must be a time of day up to 24:00' });
      else if (r.until <= r.from) out.push({ key: `${at}.until`, message: 'must be after the opening time' });
    });
    // Overlaps are judged once each range is a range.
    if (out.length > before) continue;
    const sorted = ranges.map((r, i) => ({ ...r, i })).sort((a, b) => a.from - b.from);
    for (let k = 1; k < sorted.length; k++) {
      if (sorted[k]!.from < sorted[k - 1]!.until) out.push({ key: `working_hours.${day}.${sorted[k]!.i}.from`, message: 'overlaps another opening time of the day' });
    }
  }
  return out;
}

/** The day's ranges sorted by opening time (what is stored). */
export function sortedWorkingHours(hours: WorkingHours): Partial<Record<Weekday, WorkingRange[] | null>> {
  const out: Partial<Record<Weekday, WorkingRange[] | null>> = {};
  for (const day of WEEKDAYS) {
    const ranges = hours[day];
    out[day] = ranges == null ? null : [...ranges].map((r) => ({ from: r.from, until: r.until })).sort((a, b) => a.from - b.from);
  }
  return out;
}

/** `cancellation_allowed` (days of free cancellation before a date): none, or 0 to this many. */
export const MAX_CANCELLATION_DAYS = 365;

/** Spec 3 / 1 / 9: what a new educator starts with, before its admin changes anything. */
export function newEducatorDefaults() {
  return {
    bio: '',
    cover_url: null,
    logo_url: null,
    address: null,
    tos: null,
    cancellation_allowed: null,
    can_be_contacted: true,
    claimed: true,
    feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
    third_party_codes: {},
    vat_settings: { enabled: false, is_vat_absorbed: false, tax_label: DEFAULT_TAX_LABEL },
    color_brand: null,
    on_color_brand: DEFAULT_ON_BRAND_COLOUR,
    whitelabelling_enabled: false,
    links: {},
    working_hours: {},
    enquiry_types: [] as { label: string }[],
    form_ref: null,
  };
}

/** Each educator a user may create (onboarding); more is refused, so one account cannot fill the catalogue. */
export const MAX_EDUCATORS_PER_USER = 10;
