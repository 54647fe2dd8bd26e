/**
 * HTML and plain text for the demo catalogue: bios, course descriptions, terms.
 * Only simple tags are used (p, strong, em, ul, li, a), as educator HTML would be.
 */
import type { City, Vertical } from './content.ts';
import { escapeHtml as esc } from './builder.ts';
import type { Random } from './random.ts';

const HIGHLIGHTS = [
  'Small groups, never more than ten learners',
  'All materials and equipment included',
  'Friendly, qualified tutors',
  'Gift vouchers for any course',
  'Step-free access and an accessible toilet',
  'Free tea, coffee and biscuits',
  'Weekday, evening and weekend dates',
  'Private and corporate sessions on request',
];

/** A bio whose text is well over 520 characters (the About page collapses it). */
export function longBio(rng: Random, name: string, vertical: Vertical, city: City, area: string, web: string | null): string {
  const since = rng.int(2005, 2019);
  const [a, b, c] = vertical.blurbs;
  const items = rng.sample(HIGHLIGHTS, 4).map((h) => `<li>${esc(h)}</li>`).join('');
  const link = web ? `<a href="${esc(web)}">our website</a>` : 'our website';
  return [
    `<p><strong>${esc(name)}</strong> has been teaching in ${esc(area)}, ${esc(city.name)} since ${since}. ${esc(a)} ${esc(b)}</p>`,
    `<p>${esc(c)} Over the years we have welcomed thousands of learners through our doors, from complete beginners `,
    `to people returning after a long break, and we still get excited every time someone surprises themselves. `,
    `Whatever brings you here, you will be looked after by people who <em>genuinely love</em> what they do.</p>`,
    `<ul>${items}</ul>`,
    `<p>Have a question before you book? Send us a message or visit ${link}. We usually reply within one working day, `,
    `and we are always happy to help you choose the right course.</p>`,
  ].join('');
}

/** A short bio, under 280 characters (never truncated on the course page). */
export function shortBio(vertical: Vertical, city: City): string {
  return `<p>${esc(vertical.blurbs[0])} Based in ${esc(city.name)}.</p>`;
}

/** A mid-length bio: longer than 280 characters (truncated on the course page), under 520. */
export function mediumBio(rng: Random, name: string, vertical: Vertical, city: City): string {
  const [a, b] = rng.sample(vertical.blurbs, 2);
  return `<p><strong>${esc(name)}</strong> is based in ${esc(city.name)}. ${esc(a)}</p><p>${esc(b)} `
    + 'Every course is designed to be practical, sociable and good value. '
    + 'Browse our dates below, or get in touch if you would like a private session for a group.</p>';
}

const INTROS = [
  'A practical, friendly {word} for anyone who wants to learn properly.',
  'Learn by doing in this hands-on {word}, taught by people who love their craft.',
  'Our most popular {word}, refined over many years of teaching.',
  'A relaxed {word} with plenty of individual attention.',
];

export function courseDescription(
  rng: Random, vertical: Vertical, keyword: string | null, level: string | null,
): string {
  const word = keyword ?? 'course';
  const outcomes = rng.sample(vertical.outcomes, 3).map((o) => `<li>${esc(capitalise(o))}</li>`).join('');
  const who = level && level !== 'All'
    ? `This ${esc(word)} is pitched at <strong>${esc(level.toLowerCase())}</strong> level.`
    : `This ${esc(word)} is open to <strong>all levels</strong>, including complete beginners.`;
  return [
    `<p>${esc(rng.pick(INTROS).replace('{word}', word))} ${esc(rng.pick(vertical.blurbs))}</p>`,
    `<p><strong>By the end you will be able to:</strong></p>`,
    `<ul>${outcomes}</ul>`,
    `<p>${who} ${esc(rng.pick(vertical.blurbs))}</p>`,
    `<p><em>Please arrive ten minutes early.</em></p>`,
  ].join('');
}

export function metaDescription(name: string, educatorName: string, city: string | null): string {
  return `${name} with ${educatorName}${city ? ` in ${city}` : ''}. Book online, small groups, friendly tutors.`;
}

export function termsHtml(educatorName: string, cancellationDays: number | null, web: string | null): string {
  const cancel = cancellationDays === null
    ? 'Bookings are non-refundable, but you may transfer your place to a friend.'
    : `You may cancel free of charge up to ${cancellationDays} day${cancellationDays === 1 ? '' : 's'} before the start.`;
  const link = web ? ` Full terms are on <a href="${esc(web)}/terms">our website</a>.` : '';
  return [
    `<p><strong>${esc(educatorName)}: booking terms</strong></p>`,
    '<ul>',
    `<li>${esc(cancel)}</li>`,
    '<li>If we have to cancel, you will receive a full refund or a place on another date.</li>',
    '<li>Please tell us about any access or medical needs before the day.</li>',
    '</ul>',
    `<p>By booking you agree to follow the venue\u2019s safety rules.${link}</p>`,
  ].join('');
}

export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
