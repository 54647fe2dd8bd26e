/**
 * Small text rules used by public pages (spec 2.8, 2.13, 3 "Course").
 * Pure string functions: no DOM, no I/O.
 */

/** Spec 2.8 / 9: the About page bio collapses when its text is longer than this. */
export const BIO_COLLAPSE_THRESHOLD = 520;

/** Spec 2.13 / 9: the provider bio on the course page is cut to this many characters. */
export const BIO_TRUNCATE_LENGTH = 280;

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
};

/** Decodes the handful of HTML entities that matter for counting text (named basics and numeric). */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? whole;
  });
}

/**
 * Plain text of an HTML fragment: tags removed, entities decoded and runs of
 * white space collapsed to one space (as a browser renders it), trimmed.
 */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  const withoutTags = html
    .replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<\/(p|div|li|h[1-6])\s*>/gi, ' ')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(withoutTags).replace(/\s+/g, ' ').trim();
}

/** Spec 2.8: the bio is collapsible ("Read more") when its text exceeds 520 characters. */
export function bioIsCollapsible(html: string | null | undefined): boolean {
  return htmlToText(html).length > BIO_COLLAPSE_THRESHOLD;
}

/**
 * Spec 2.13 (13): the bio cut to `max` characters plus '...'.
 * Text at or under the limit is returned unchanged. Trailing white space of the
 * cut part is dropped so the result never reads "word ...".
 */
export function truncateBio(text: string | null | undefined, max: number = BIO_TRUNCATE_LENGTH): string {
  const value = text ?? '';
  if (value.length <= max) return value;
  return `${value.slice(0, max).trimEnd()}...`;
}

/** Spec 3 "Level display": 'All' → 'All levels'; any other value → '{level} level'; empty → ''. */
export function levelLabel(level: string | null | undefined): string {
  if (!level) return '';
  return level === 'All' ? 'All levels' : `${level} level`;
}

/** The course fields the keyword helpers read. */
export interface KeywordSource {
  keyword?: string | null;
}

/**
 * Spec 3 "keyword": a word that replaces "course" in texts. Falls back to
 * lower-case 'course' (for "{keyword or course}" texts).
 */
export function courseKeyword(course: KeywordSource | null | undefined): string {
  const keyword = course?.keyword?.trim();
  return keyword ? keyword : 'course';
}

/** As {@link courseKeyword}, falling back to capitalised 'Course' (for "{keyword or Course}" texts). */
export function courseKeywordTitle(course: KeywordSource | null | undefined): string {
  const keyword = course?.keyword?.trim();
  return keyword ? keyword : 'Course';
}

/**
 * Title-cases an identifier or phrase: splits on '_', '-', '.', white space and
 * camelCase boundaries, capitalises each word and joins them with one space.
 * 'first_name' → 'First Name', 'billingAddress' → 'Billing Address'.
 */
export function titleCase(input: string): string {
  return input
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_\-.]+/)
    .filter((word) => word.length > 0)
    .map((word) => word[0].toUpperCase() + word.slice(1))
    .join(' ');
}

/** English plural helper: `plural(1, 'lesson')` → '1 lesson', `plural(2, 'lesson')` → '2 lessons'. */
export function plural(count: number, singular: string, pluralForm: string = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}

/** A course content section (spec 3 "Content"). */
export interface ContentSection {
  name?: string | null;
  contents?: ReadonlyArray<{ type?: string; ref?: string }> | null;
}

/** Spec 2.13 (10): 'N sections • M lessons' (singular for 1). Only 'lesson' items count as lessons. */
export function courseContentSummary(sections: ReadonlyArray<ContentSection>): string {
  const lessons = sections.reduce(
    (sum, section) => sum + (section.contents ?? []).filter((item) => (item.type ?? 'lesson') === 'lesson').length,
    0,
  );
  return `${plural(sections.length, 'section')} • ${plural(lessons, 'lesson')}`;
}

/** Spec 2.13 (10): a section is named 'Contents' when it is the only one. */
export function sectionTitle(section: ContentSection, sectionCount: number): string {
  return sectionCount === 1 ? 'Contents' : (section.name ?? '');
}

/** Spec 2.13 (10): the content block shows only for blended and on-demand courses with lessons and sections. */
export function showCourseContent(courseType: string | null | undefined, sections: ReadonlyArray<ContentSection> | null | undefined): boolean {
  if (courseType !== 'blended' && courseType !== 'on-demand') return false;
  const list = sections ?? [];
  return list.length > 0 && list.some((section) => (section.contents ?? []).length > 0);
}

/**
 * A URL slug from a name: accents dropped, '&' read as 'and', anything else that is not a lowercase letter or a
 * digit becomes one hyphen ('Clay & Co. Studio' → 'clay-and-co-studio'), at most `maxLength` characters.
 */
export function slugFromName(name: string, maxLength: number): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, maxLength)
    .replace(/-+$/g, '');
}
