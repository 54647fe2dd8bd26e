/**
 * Time rules and labels (spec 5 "Money, time and ratings", spec 9 tables).
 * All times are epoch seconds; `now` is always a parameter.
 */
export const MINUTE = 60;
export const HOUR = 3600;
export const DAY = 86400;
export const WEEK = 604800;

/** Spec 9: default time zone and display locale for dates. */
export const DEFAULT_TIME_ZONE = 'Europe/London';
export const DEFAULT_DISPLAY_LOCALE = 'en-GB';
/** Spec 9: default locale until the page loads in the browser. */
export const DEFAULT_SERVER_LOCALE = 'en-US';

/** Spec 9 "Relative age of a review": a 'month' is 4 weeks. */
export const REVIEW_MONTH_SECONDS = 2419200;
/** A 'year' in the same table: 12 of those months (48 weeks). */
export const REVIEW_YEAR_SECONDS = 29030400;
/** Remainder at or above which months round up (see {@link reviewMonths}). */
export const REVIEW_MONTH_ROUND_UP_REMAINDER = 3110400;

/**
 * Spec 9: months of 2419200 s, rounded up when the remainder is 3110400 or more,
 * otherwise rounded (half up). The remainder of a division by 2419200 is always
 * below 3110400, so in practice this is plain rounding; the branch is kept as written.
 */
export function reviewMonths(ageSeconds: number): number {
  const remainder = ageSeconds % REVIEW_MONTH_SECONDS;
  return remainder >= REVIEW_MONTH_ROUND_UP_REMAINDER
    ? Math.ceil(ageSeconds / REVIEW_MONTH_SECONDS)
    : Math.round(ageSeconds / REVIEW_MONTH_SECONDS);
}

/**
 * Spec 9 "Relative age of a review" (age in seconds):
 * <86400 'Today'; <172800 'Yesterday'; <1209600 '{ceil days} days ago';
 * <4838400 '{ceil weeks} weeks ago'; <29030400 '{months} months ago';
 * <43545600 '1 year ago'; otherwise '{ceil years} years ago' (year = 29030400 s).
 * Negative ages (a clock ahead of the server) count as 'Today'.
 */
export function relativeReviewAge(ageSeconds: number): string {
  if (ageSeconds < 86400) return 'Today';
  if (ageSeconds < 172800) return 'Yesterday';
  if (ageSeconds < 1209600) return `${Math.ceil(ageSeconds / DAY)} days ago`;
  if (ageSeconds < 4838400) return `${Math.ceil(ageSeconds / WEEK)} weeks ago`;
  if (ageSeconds < 29030400) {
    const months = reviewMonths(ageSeconds);
    return months === 1 ? '1 month ago' : `${months} months ago`;
  }
  if (ageSeconds < 43545600) return '1 year ago';
  return `${Math.ceil(ageSeconds / REVIEW_YEAR_SECONDS)} years ago`;
}

/** Intl formatters are slow to make and a page shows many dates: one per locale (and time zone), kept. */
const shortDateTimes = new Map<string, Intl.DateTimeFormat>();
const relativeTimes = new Map<string, Intl.RelativeTimeFormat>();

/** Short numeric date and time, e.g. '14/11/2023, 22:13' in en-GB, Europe/London. */
export function formatShortDateTime(epochSeconds: number, locale: string = DEFAULT_DISPLAY_LOCALE, timeZone: string = DEFAULT_TIME_ZONE): string {
  const key = `${locale} ${timeZone}`;
  let f = shortDateTimes.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { dateStyle: 'short', timeStyle: 'short', timeZone });
    shortDateTimes.set(key, f);
  }
  return f.format(new Date(epochSeconds * 1000));
}

/**
 * Spec 9 "Relative time labels": under 1 minute seconds, under 1 hour minutes,
 * under 1 day hours, under 3 days days (Intl.RelativeTimeFormat, numeric
 * 'always', whole units rounded down); otherwise the short numeric date and time
 * of `now - ageSeconds`. Negative ages count as 0 seconds.
 */
export function relativeTimeLabel(
  ageSeconds: number,
  now: number,
  locale: string = DEFAULT_DISPLAY_LOCALE,
  timeZone: string = DEFAULT_TIME_ZONE,
): string {
  const age = Math.max(0, ageSeconds);
  let rtf = relativeTimes.get(locale);
  if (!rtf) {
    rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'always' });
    relativeTimes.set(locale, rtf);
  }
  if (age < MINUTE) return rtf.format(-Math.floor(age), 'second');
  if (age < HOUR) return rtf.format(-Math.floor(age / MINUTE), 'minute');
  if (age < DAY) return rtf.format(-Math.floor(age / HOUR), 'hour');
  if (age < 3 * DAY) return rtf.format(-Math.floor(age / DAY), 'day');
  return formatShortDateTime(now - age, locale, timeZone);
}

/** Spec 9 "Duration label": a 'month' of 2629757 s (an average Gregorian month). */
export const DURATION_MONTH_SECONDS = 2629757;
/** Remainder at or above which the duration months round up (8 days). */
export const DURATION_MONTH_ROUND_UP_REMAINDER = 691200;

function minutesPart(minutes: number): string {
  return minutes === 1 ? '1 minute' : `${minutes} minutes`;
}

/**
 * Spec 9 "Duration label on the course page" (seconds). Ranges are half-open
 * except where the table says "up to":
 * - ≤ 0 → '';
 * - < 1 h → 'N minutes' (minutes rounded down, at least 1; '1 minute' singular);
 * - [1 h, 2 h) → '1 hour M minutes', or '1 hour' when M is 0;
 * - [2 h, 7 h) → 'N hours M minutes', or 'N hours' when M is 0;
 * - [7 h, 27 h) → 'Full day';
 * - [27 h, 48 h] → 'Two days' (48 h exactly is two days);
 * - ≤ 14 days → '{ceil days} days';
 * - ≤ 6 weeks → '{ceil weeks} weeks';
 * - otherwise months of 2629757 s, rounded down unless the remainder is
 *   691200 s or more → '{N} months'.
 * Singular forms ('1 day', '1 week', '1 month') exist for completeness; the
 * ranges above never reach them.
 */
export function courseDurationLabel(seconds: number): string {
  if (!(seconds > 0)) return '';
  if (seconds < HOUR) return minutesPart(Math.max(1, Math.floor(seconds / MINUTE)));
  if (seconds < 2 * HOUR) {
    const minutes = Math.floor((seconds - HOUR) / MINUTE);
    return minutes === 0 ? '1 hour' : `1 hour ${minutesPart(minutes)}`;
  }
  if (seconds < 7 * HOUR) {
    const hours = Math.floor(seconds / HOUR);
    const minutes = Math.floor((seconds % HOUR) / MINUTE);
    return minutes === 0 ? `${hours} hours` : `${hours} hours ${minutesPart(minutes)}`;
  }
  if (seconds < 27 * HOUR) return 'Full day';
  if (seconds <= 48 * HOUR) return 'Two days';
  if (seconds <= 14 * DAY) {
    const days = Math.ceil(seconds / DAY);
    return days === 1 ? '1 day' : `${days} days`;
  }
  if (seconds <= 6 * WEEK) {
    const weeks = Math.ceil(seconds / WEEK);
    return weeks === 1 ? '1 week' : `${weeks} weeks`;
  }
  const whole = Math.floor(seconds / DURATION_MONTH_SECONDS);
  const months = seconds % DURATION_MONTH_SECONDS >= DURATION_MONTH_ROUND_UP_REMAINDER ? whole + 1 : whole;
  return months === 1 ? '1 month' : `${months} months`;
}

/**
 * Spec 9 "Duration text in the checkout" (minutes): Days, Hours and Minutes,
 * capitalised, zero parts left out: 60 → '1 Hour', 1440 → '1 Day',
 * 3000 → '2 Days 2 Hours', 90 → '1 Hour 30 Minutes'. 0 or less → '0 Minutes'.
 */
export function checkoutDurationText(minutes: number): string {
  const total = Math.max(0, Math.floor(minutes));
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const mins = total % 60;
  const parts: string[] = [];
  if (days > 0) parts.push(`${days} ${days === 1 ? 'Day' : 'Days'}`);
  if (hours > 0) parts.push(`${hours} ${hours === 1 ? 'Hour' : 'Hours'}`);
  if (mins > 0 || parts.length === 0) parts.push(`${mins} ${mins === 1 ? 'Minute' : 'Minutes'}`);
  return parts.join(' ');
}

/** Day of the week in Date#getDay numbering: 0 = Sunday, 1 = Monday … 6 = Saturday. */
export type WeekDayIndex = 0 | 1 | 2 | 3 | 4 | 5 | 6;

/**
 * Spec 2.17 / 9: the first day of the week for a locale, in Date#getDay
 * numbering (0 = Sunday, 1 = Monday). Monday when the runtime has no week
 * information for the locale or the locale is invalid.
 */
export function weekStartsOn(locale: string | null | undefined): WeekDayIndex {
  if (!locale) return 1;
  try {
    const loc = new Intl.Locale(locale) as Intl.Locale & {
      weekInfo?: { firstDay?: number };
      getWeekInfo?: () => { firstDay?: number };
    };
    const info = typeof loc.getWeekInfo === 'function' ? loc.getWeekInfo() : loc.weekInfo;
    const firstDay = info?.firstDay;
    if (typeof firstDay !== 'number' || firstDay < 1 || firstDay > 7) return 1;
    return (firstDay % 7) as WeekDayIndex;
  } catch {
    return 1;
  }
}
