/**
 * Randomly generated (but seeded) educators and courses: the bulk of the demo catalogue.
 * The showcase educators (showcase.ts) also use these helpers for their filler courses.
 */
import type { DurationPricing, EducatorLinks, ReviewBreakdown, WorkingHours } from '../schema.ts';
import {
  DAY, HOUR, MINUTE, WEEK, type CourseRef, type EducatorBuilder, type FieldSpec, type LocationRef, type OfferSpec,
  londonTime, postcode, slugify,
} from './builder.ts';
import {
  BUILDINGS, CITIES, COMMON_FAQS, COURSE_IMAGES_PER_VERTICAL, type City, type CourseIdea, FIRST_NAMES, PLACE_WORDS,
  RESPONSES, REVIEW_MESSAGES_BAD, REVIEW_MESSAGES_GOOD, REVIEW_MESSAGES_MIXED, STOCK_AUTHORS, STREETS, SURNAMES,
  type Vertical, VERTICALS, autoImage, collectionImage, courseImage, coverImage, logoImage,
} from './content.ts';
import type { Random } from './random.ts';
import { courseDescription, longBio, mediumBio, metaDescription, shortBio, termsHtml } from './texts.ts';

export interface EducatorContext {
  locations: LocationRef[];
  faqIds: string[];
  courses: CourseRef[];
  /** Names already used for this educator's courses. */
  usedIdeas: Set<string>;
}

export function newContext(): EducatorContext {
  return { locations: [], faqIds: [], courses: [], usedIdeas: new Set() };
}

// ---------------------------------------------------------------------------------------------
// Small generators

export const at = (hour: number, minute = 0): number => hour * HOUR + minute * MINUTE;

export const WORKING_HOURS_TEMPLATES: WorkingHours[] = [
  {
    monday: [{ from: at(9), until: at(17) }], tuesday: [{ from: at(9), until: at(17) }],
    wednesday: [{ from: at(9), until: at(17) }], thursday: [{ from: at(9), until: at(17) }],
    friday: [{ from: at(9), until: at(17) }], saturday: null, sunday: null,
  },
  {
    monday: null, tuesday: [{ from: at(10), until: at(21) }], wednesday: [{ from: at(10), until: at(21) }],
    thursday: [{ from: at(10), until: at(21) }], friday: [{ from: at(10), until: at(18) }],
    saturday: [{ from: at(9), until: at(17) }], sunday: [{ from: at(10), until: at(16) }],
  },
  {
    monday: [{ from: at(8, 30), until: at(12, 30) }, { from: at(13, 30), until: at(17, 30) }],
    tuesday: [{ from: at(8, 30), until: at(12, 30) }, { from: at(13, 30), until: at(17, 30) }],
    wednesday: [{ from: at(8, 30), until: at(12, 30) }, { from: at(13, 30), until: at(17, 30) }],
    thursday: [{ from: at(8, 30), until: at(12, 30) }, { from: at(13, 30), until: at(17, 30) }],
    friday: [{ from: at(8, 30), until: at(12, 30) }], saturday: null, sunday: null,
  },
  {},
];

export function randomPerson(rng: Random): string {
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(SURNAMES)}`;
}

export function reviewerName(rng: Random): string {
  const surname = rng.pick(SURNAMES).replace(/[^A-Za-z]/g, '');
  return rng.chance(0.5) ? `${rng.pick(FIRST_NAMES)} ${surname.charAt(0)}.` : `${rng.pick(FIRST_NAMES)} ${surname}`;
}

export function phoneFor(rng: Random, city: City): string {
  return `${city.phone}${String(rng.int(0, 999)).padStart(3, '0')}`;
}

export function streetAddress(rng: Random): string {
  return rng.chance(0.4) ? `${rng.pick(BUILDINGS)}, ${rng.int(1, 120)} ${rng.pick(STREETS)}` : `${rng.int(1, 240)} ${rng.pick(STREETS)}`;
}

export function randomLocation(b: EducatorBuilder, city: City = b.city, name: string | null = null): LocationRef {
  return b.location({ name, city, line1: streetAddress(b.rng), postcode: postcode(b.rng, b.rng.pick(city.outward)) });
}

function price(rng: Random, [min, max]: [number, number]): number {
  return Math.max(500, Math.round(rng.int(min, max) / 500) * 500);
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}

export function breakdownNear(rng: Random, rating: number): ReviewBreakdown {
  const near = () => Math.max(1, Math.min(5, rating + rng.pick([-1, 0, 0, 0, 1])));
  return {
    material: near(), facilitator: near(), organiser: near(), resources: near(), delivery: near(), communication: near(),
  };
}

function nextIdea(b: EducatorBuilder, ctx: EducatorContext): CourseIdea {
  const v = b.vertical;
  const fresh = v.courses.filter((c) => !ctx.usedIdeas.has(c.name));
  let idea: CourseIdea;
  if (fresh.length > 0) {
    idea = b.rng.pick(fresh);
  } else {
    // Every base name is taken: vary one with a modifier, trying a few times for an unused name
    // (the slug stays unique either way: uniqueCourseSlug adds -2, -3… as a last resort).
    idea = v.courses[0];
    for (let attempt = 0; attempt < 12; attempt++) {
      const base = b.rng.pick(v.courses);
      const modifier = b.rng.pick(['Evening', 'Weekend', 'Intensive', 'Summer', 'Improvers', 'One-Day', 'Advanced', 'Taster']);
      idea = { ...base, name: `${modifier} ${base.name}`, level: modifier === 'Advanced' ? 'Advanced' : base.level };
      if (!ctx.usedIdeas.has(idea.name)) break;
    }
  }
  ctx.usedIdeas.add(idea.name);
  return idea;
}

function startHour(rng: Random, minutes: number): [number, number] {
  if (minutes >= 300) return [rng.pick([9, 10]), rng.pick([0, 30])];
  if (minutes >= 150) return [rng.pick([10, 13, 14, 18]), rng.pick([0, 30])];
  return [rng.pick([10, 11, 12, 18, 19]), rng.pick([0, 30])];
}

/** End of an occurrence: long courses run over several days, 7 hours a day, finishing at 16:30. */
function occurrenceEnd(b: EducatorBuilder, day: number, start: number, minutes: number): number | undefined {
  if (minutes <= 480) return undefined;
  const days = Math.ceil(minutes / 420);
  return Math.max(start + HOUR, londonTime(b.now, day + days - 1, 16, 30));
}

// ---------------------------------------------------------------------------------------------
// Courses

export interface RandomCourseOptions {
  idea?: CourseIdea;
  type?: 'class' | 'blended' | 'on-demand' | 'on-request';
  published?: boolean;
}

// eslint-disable-next-line max-lines-per-function -- seed data: a random course's settings read best in one place
export function randomCourse(b: EducatorBuilder, ctx: EducatorContext, options: RandomCourseOptions = {}): CourseRef {
  const rng = b.rng;
  const v = b.vertical;
  const idea = options.idea ?? nextIdea(b, ctx);
  const onRequestWeight = v.key === 'first-aid' || v.key === 'business' ? 0.35 : 0.15;
  const type = options.type ?? rng.weighted<'class' | 'blended' | 'on-demand' | 'on-request'>([
    ['class', 0.55], ['blended', 0.1], ['on-demand', 0.15], ['on-request', onRequestWeight],
  ]);
  const keyword = rng.pick(v.keywords);
  const level = idea.level === undefined ? rng.pick(['Beginner', 'Intermediate', 'Advanced', 'All', null]) : idea.level;
  const imageCount = rng.weighted([[0, 0.2], [1, 0.4], [2, 0.15], [3, 0.15], [4, 0.1]]);
  const images = rng.sample(Array.from({ length: COURSE_IMAGES_PER_VERTICAL }, (_, i) => i + 1), imageCount);
  const pricing = type === 'on-demand'
    ? rng.weighted<'price-offers' | 'free' | 'price-range'>([['price-offers', 0.8], ['free', 0.1], ['price-range', 0.1]])
    : rng.weighted<'price-offers' | 'free' | 'price-on-enquiry' | 'price-range'>([
      ['price-offers', 0.72], ['free', 0.07], ['price-on-enquiry', type === 'on-request' ? 0.2 : 0.04], ['price-range', 0.13],
    ]);
  const location = rng.pick(ctx.locations);
  const basePrice = price(rng, v.price);

  const c = b.course({
    name: idea.name,
    slug: slugify(idea.name),
    level,
    keyword,
    type,
    description: courseDescription(rng, v, keyword, level),
    meta_description: metaDescription(idea.name, b.educator.name, location.city),
    img_urls: images.map((n) => courseImage(v.key, n)),
    autoimg: images.length === 0 ? { url: autoImage(v.key), author: rng.pick(STOCK_AUTHORS) } : null,
    faq_ids: rng.sample(ctx.faqIds, rng.int(0, Math.min(3, ctx.faqIds.length))),
    pricing_type: pricing,
    published: options.published ?? true,
    course_duration: idea.minutes,
    created_at: b.now - rng.int(20, 700) * DAY,
    form_ref: 'system_default',
  });
  ctx.courses.push(c);

  if (type === 'class' || type === 'blended') {
    const mode = rng.weighted<'in-person' | 'online' | 'hybrid'>([['in-person', 0.6], ['online', 0.25], ['hybrid', 0.15]]);
    const mixed = type === 'class' && mode === 'in-person' && rng.chance(0.1);
    c.row.delivery_modes = mixed ? ['in-person', 'online'] : [mode];
    if (mode !== 'online') {
      c.row.address = location.address;
      c.row.lat = location.lat;
      c.row.lng = location.lng;
    }
    c.row.spaces = rng.int(6, 20);
    const count = type === 'blended' ? rng.int(1, 3) : rng.int(1, 6);
    const days = Array.from({ length: count }, () => (rng.chance(0.15) ? -rng.int(1, 60) : rng.int(1, 180))).sort((x, y) => x - y);
    for (const [i, day] of days.entries()) {
      const [hour, minute] = startHour(rng, idea.minutes);
      const start = londonTime(b.now, day, hour, minute);
      const spaces = c.row.spaces;
      const available = day < 0 ? rng.int(0, spaces) : rng.chance(0.06) ? 0 : rng.int(1, spaces);
      const delivery = mixed ? (i % 2 === 0 ? 'in-person' : 'online') : mode;
      b.occurrence(c, {
        day, hour, minute, minutes: idea.minutes, end: occurrenceEnd(b, day, start, idea.minutes),
        delivery, spaces, available, visibility: rng.chance(0.03) ? 'private' : 'public',
      });
    }
    if (type === 'blended') {
      const lessonNames = rng.shuffle(v.lessons);
      const sectionCount = rng.int(1, Math.min(3, v.sections.length));
      const per = Math.max(1, Math.floor(lessonNames.length / sectionCount));
      b.sections(c, Array.from({ length: sectionCount }, (_, s) => ({
        name: v.sections[s],
        lessons: lessonNames.slice(s * per, s === sectionCount - 1 ? undefined : (s + 1) * per),
      })));
    }
  } else if (type === 'on-demand') {
    c.row.delivery_modes = ['on-demand'];
    c.row.spaces = rng.chance(0.3) ? rng.int(20, 200) : null;
    const sectionCount = rng.int(1, Math.min(4, v.sections.length));
    const lessons = v.lessons;
    b.sections(c, Array.from({ length: sectionCount }, (_, s) => ({
      name: v.sections[s],
      lessons: rng.sample(lessons, rng.int(2, Math.min(5, lessons.length))),
    })));
    c.row.course_duration = c.lessons * rng.pick([15, 20, 30, 45]);
  } else {
    const online = rng.chance(0.6);
    const inPerson = !online || rng.chance(0.7);
    c.row.available_for_online_delivery = online;
    c.row.available_for_in_person_delivery = inPerson;
    c.row.delivery_modes = [...(online ? ['online'] : []), ...(inPerson ? ['in-person'] : [])];
    c.row.spaces = null;
    const durations = rng.sample([60, 90, 120, 180, 240, 360, 480, 1440, 2880], rng.weighted([[0, 0.15], [1, 0.45], [2, 0.2], [3, 0.2]]))
      .sort((x, y) => x - y);
    c.row.duration_pricing = durations.map((duration, i): DurationPricing => ({
      _id: `dur_${c.row.id.slice(4)}_${i + 1}`,
      duration,
      label: rng.chance(0.5) ? durationLabel(duration) : null,
      description: rng.chance(0.4) ? 'Includes preparation time and a written summary afterwards.' : null,
      extra_cost: i > 0 && rng.chance(0.5) ? rng.int(2, 12) * 1000 : null,
    }));
    c.row.course_duration = durations[0] ?? null;
    if (durations.length > 0 && durations.every((d) => d <= 1440) && rng.chance(0.4)) c.row.date_requests = 'calendar_based';
    if (inPerson) {
      const educatorTravels = rng.chance(0.5);
      const studentTravels = rng.chance(0.5) || (!online && !educatorTravels);
      c.row.educator_travel_settings = educatorTravels
        ? { enabled: true, type: rng.pick(['UK Wide', 'Internationally', null] as const) }
        : { enabled: false, type: null };
      c.row.student_travel_settings = studentTravels
        ? { enabled: true, locations: rng.sample(ctx.locations, rng.int(1, ctx.locations.length)).map((l) => l.id) }
        : { enabled: false, locations: [] };
      if (studentTravels) {
        c.row.address = location.address;
        c.row.lat = location.lat;
        c.row.lng = location.lng;
      }
    }
  }

  // Pricing
  if (pricing === 'price-offers') {
    const offers: OfferSpec[] = type === 'on-demand'
      ? [{ name: 'Full access', price: basePrice }]
      : type === 'on-request'
        ? [{ name: 'Per person', price: basePrice }]
        : [
          { name: 'Standard', price: basePrice },
          ...(rng.chance(0.5) ? [{ name: 'Concession', price: roundTo(basePrice * 0.8, 100), description: 'Students, over-65s and jobseekers' }] : []),
          ...(rng.chance(0.25) ? [{ name: 'Bring a friend (2 places)', price: roundTo(basePrice * 1.8, 100), spaces: 2 }] : []),
        ];
    for (const o of offers) b.offer(c, null, o);
    // Occasionally an early-bird price on the last date, whose window closes two weeks before it.
    const last = b.rows.occurrences.filter((o) => o.course_id === c.row.id).at(-1);
    if (last && rng.chance(0.1)) {
      b.offer(c, last.id, { name: 'Early bird', price: roundTo(basePrice * 0.85, 100), end_at: last.start_datetime - 2 * WEEK });
    }
  } else if (pricing === 'free') {
    b.offer(c, null, { name: 'Free place', price: 0 });
  } else if (pricing === 'price-range') {
    const min = basePrice;
    const max = rng.chance(0.2) ? min : roundTo(min * rng.pick([1.5, 2, 3]), 500);
    c.row.minimum_price = min;
    c.row.maximum_price = max;
    b.offer(c, null, { name: max === min ? 'Standard' : 'From', price: min });
    if (max !== min) b.offer(c, null, { name: 'Premium', price: max, description: 'Includes one-to-one feedback' });
  }
  if ((type === 'class' || type === 'blended') && pricing !== 'price-on-enquiry' && rng.chance(0.2)) {
    for (const a of rng.sample(v.addOns, rng.int(1, 2))) b.addOn(c, null, a);
  }
  return c;
}

export function durationLabel(minutes: number): string {
  if (minutes < 60) return `${minutes} minutes`;
  if (minutes < 1440) return minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${(minutes / 60).toFixed(1)} hours`;
  const days = minutes / 1440;
  return `${days} day${days === 1 ? '' : 's'}`;
}

export function fillCourses(b: EducatorBuilder, ctx: EducatorContext, count: number): CourseRef[] {
  return Array.from({ length: count }, () => randomCourse(b, ctx));
}

// ---------------------------------------------------------------------------------------------
// Reviews

export function randomReviews(b: EducatorBuilder, ctx: EducatorContext, count: number): void {
  const rng = b.rng;
  const published = ctx.courses.filter((c) => c.row.published);
  for (let i = 0; i < count; i++) {
    const course = published.length > 0 && rng.chance(0.6) ? rng.pick(published) : null;
    const source = course
      ? 'marketplace'
      : rng.weighted<'marketplace' | 'googlemaps' | 'facebook' | 'trustpilot'>([
        ['marketplace', 0.6], ['googlemaps', 0.17], ['facebook', 0.13], ['trustpilot', 0.1],
      ]);
    const rating = rng.weighted([[5, 0.55], [4, 0.28], [3, 0.1], [2, 0.04], [1, 0.03]]);
    const message = rating >= 4 ? rng.pick(REVIEW_MESSAGES_GOOD) : rating === 3 ? rng.pick(REVIEW_MESSAGES_MIXED) : rng.pick(REVIEW_MESSAGES_BAD);
    b.review({
      age: Math.floor(rng.next() ** 2 * 3 * 365 * DAY) + 600,
      rating,
      course,
      source,
      breakdown: course && rng.chance(0.4) ? breakdownNear(rng, rating) : null,
      verified: source === 'marketplace' ? rng.chance(0.7) : false,
      name: reviewerName(rng),
      message,
      response: rng.chance(0.25) ? (rating >= 4 ? rng.pick([RESPONSES[0], RESPONSES[3]]) : rng.pick([RESPONSES[1], RESPONSES[2]])) : null,
      archived: rng.chance(0.03),
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Whole educators

export interface Identity {
  name: string;
  slug: string;
  vertical: Vertical;
  city: City;
  area: string;
}

/** Picks a vertical, a city and a name; `taken` decides whether a slug is already used. */
export function randomIdentity(rng: Random, n: number, taken: (slug: string) => boolean): Identity {
  const vertical = rng.pick(VERTICALS);
  const city = rng.chance(0.25) ? CITIES[0] : rng.pick(CITIES);
  const area = rng.pick(city.areas);
  const pattern = rng.pick(vertical.names);
  const name = pattern
    .replace('{place}', rng.chance(0.6) ? area : rng.pick(PLACE_WORDS))
    .replace('{surname}', rng.pick(SURNAMES));
  let slug = slugify(name);
  if (taken(slug)) slug = `${slug}-${slugify(city.name)}`;
  if (taken(slug)) slug = `${slugify(name)}-${n}`;
  return { name, slug, vertical, city, area };
}

const BRAND_COLOURS: [string, string][] = [
  ['#0F766E', '#FFFFFF'], ['#B91C1C', '#FFFFFF'], ['#7C3AED', '#FFFFFF'], ['#C2410C', '#FFFFFF'],
  ['#1D4ED8', '#FFFFFF'], ['#15803D', '#FFFFFF'], ['#FACC15', '#111827'], ['#F9A8D4', '#1F2937'],
];

const VOUCHER_CODES = ['WELCOME10', 'SAVE5', 'SPRING15', 'FRIEND20', 'TAKE10', 'GIFT25', 'LEARN10', 'NEWYOU15'];

const EXTRA_FIELDS: FieldSpec[] = [
  { id: 'phone', label: 'Phone number', data_type: 'tel', required: true },
  { id: 'dietary', label: 'Dietary requirements', data_type: 'textarea' },
  { id: 'experience', label: 'Your experience', data_type: 'radio', items: ['None', 'Some', 'Lots'], required: true },
  { id: 'heard_from', label: 'How did you hear about us?', data_type: 'dropdown', items: ['Search engine', 'Friend', 'Social media', 'Other'] },
  { id: 'company', label: 'Company name', data_type: 'text' },
  { id: 'dob', label: 'Date of birth', data_type: 'date' },
  { id: 'educator_marketing_consent', label: 'Keep me posted about new dates', data_type: 'boolean' },
];

export const SYSTEM_FIELDS: FieldSpec[] = [
  { id: 'system_first_name', label: 'First Name', data_type: 'first_name', required: true },
  { id: 'system_last_name', label: 'Last Name', data_type: 'last_name', required: true },
  { id: 'system_email', label: 'Email', data_type: 'email', required: true },
];

// eslint-disable-next-line max-lines-per-function -- seed data: a random educator's settings read best in one place
export function randomEducator(b: EducatorBuilder, identity: Identity): void {
  const rng = b.rng;
  const { name, slug, vertical: v, city, area } = identity;
  const web = rng.chance(0.8) ? `https://${slug}.example` : null;
  const bioKind = rng.weighted([['long', 0.3], ['medium', 0.4], ['short', 0.3]]);
  const cancellation = rng.pick([null, 1, 2, 3, 7, 14]);
  const whitelabel = rng.chance(0.06);
  const [brand, onBrand] = rng.pick(BRAND_COLOURS);
  const vat = rng.weighted([['off', 0.5], ['absorbed', 0.3], ['added', 0.2]]);
  const socials: EducatorLinks = {};
  if (web) socials.web = web;
  const handle = slug.replace(/-/g, '');
  if (rng.chance(0.7)) socials.facebook = `https://www.facebook.com/${handle}`;
  if (rng.chance(0.6)) socials.instagram = `https://www.instagram.com/${handle}`;
  if (rng.chance(0.2)) socials.twitter = `https://twitter.com/${handle}`;
  if (rng.chance(0.1)) socials.pinterest = `https://www.pinterest.co.uk/${handle}`;
  if (rng.chance(0.2)) socials.linkedin = `https://www.linkedin.com/company/${slug}`;
  if (rng.chance(0.15)) socials.youtube = `https://www.youtube.com/@${handle}`;
  const line1 = streetAddress(rng);
  const pc = postcode(rng, rng.pick(city.outward));

  b.setEducator({
    slug,
    name,
    bio: bioKind === 'long' ? longBio(rng, name, v, city, area, web) : bioKind === 'medium' ? mediumBio(rng, name, v, city) : shortBio(v, city),
    cover_url: rng.chance(0.9) ? coverImage(v.key) : null,
    logo_url: rng.chance(0.9) ? logoImage(v.key) : null,
    address: { line1, city: city.name, postcode: pc },
    phone_number: rng.chance(0.9) ? phoneFor(rng, city) : null,
    email: `hello@${slug}.example`,
    tos: rng.chance(0.6) ? termsHtml(name, cancellation, web) : null,
    cancellation_allowed: cancellation,
    can_be_contacted: rng.chance(0.95),
    claimed: rng.chance(0.93),
    feature_flags: {
      hide_marketing_consent: rng.chance(0.05), hide_terms: rng.chance(0.04),
      hide_pricing: rng.chance(0.03), hide_social_prompts: rng.chance(0.05),
    },
    third_party_codes: rng.chance(0.08) ? { ga4_id: `G-${String(rng.int(1e9, 9e9))}`, facebook_pixel_id: rng.chance(0.5) ? String(rng.int(1e9, 9e9)) + '12345' : null } : {},
    vat_settings: vat === 'off'
      ? { enabled: false, is_vat_absorbed: false, tax_label: null, rate_bp: 2000 }
      : { enabled: true, is_vat_absorbed: vat === 'absorbed', tax_label: rng.chance(0.7) ? 'VAT' : null, rate_bp: 2000 },
    color_brand: whitelabel || rng.chance(0.2) ? brand : null,
    on_color_brand: whitelabel ? onBrand : null,
    whitelabelling_enabled: whitelabel,
    links: socials,
    working_hours: rng.pick(WORKING_HOURS_TEMPLATES),
    enquiry_types: rng.chance(0.3)
      ? rng.sample(['General question', 'Private booking', 'Corporate booking', 'Gift vouchers', 'Accessibility'], rng.int(1, 3)).map((label) => ({ label }))
      : [],
    created_at: b.now - rng.int(60, 2500) * DAY,
  });

  const ctx = newContext();
  ctx.locations.push(b.location({ name: `${area} studio`, line1, postcode: pc }));
  for (let i = rng.int(0, 2); i > 0; i--) ctx.locations.push(randomLocation(b, rng.chance(0.5) ? city : rng.pick(CITIES)));
  for (const f of [...v.faqs, ...rng.sample(COMMON_FAQS, rng.int(0, 2))]) ctx.faqIds.push(b.faq(f.question, f.answer));

  if (rng.chance(0.25)) {
    b.educator.form_ref = b.form('booker', 'Booking form', [...SYSTEM_FIELDS, ...rng.sample(EXTRA_FIELDS, rng.int(1, 3))]);
  }
  const guestForm = rng.chance(0.15)
    ? b.form('guest', 'Attendee details', [...SYSTEM_FIELDS.slice(0, 2), { id: 'dietary', label: 'Dietary or access needs', data_type: 'textarea' }])
    : null;

  fillCourses(b, ctx, rng.int(4, 16));
  for (const c of ctx.courses) {
    if (b.educator.form_ref && rng.chance(0.6)) c.row.form_ref = b.educator.form_ref;
    if (guestForm && c.row.type !== 'on-request' && rng.chance(0.5)) {
      c.row.capture_guests = true;
      c.row.guest_form_ref = guestForm;
    }
    if (rng.chance(0.04)) c.row.approval_required = true;
    if (rng.chance(0.02)) c.row.restricted = true;
    if (rng.chance(0.04)) c.row.published = false;
  }

  randomReviews(b, ctx, rng.weighted([[0, 0.15], [rng.int(1, 5), 0.45], [rng.int(6, 15), 0.35], [rng.int(16, 30), 0.05]]));

  if (rng.chance(0.3)) {
    for (let i = rng.int(1, 2); i > 0; i--) {
      b.collection({
        name: rng.pick(['Start here', 'Gift ideas', 'Weekend workshops', 'Evening classes', 'Online options', 'Most popular']) + (i > 1 ? ` ${i}` : ''),
        image_url: rng.chance(0.5) ? collectionImage(v.key) : null,
        published: rng.chance(0.8),
        courses: rng.sample(ctx.courses, rng.int(2, Math.min(4, ctx.courses.length))),
      });
    }
  }

  if (rng.chance(0.35)) {
    const combo = rng.pick([
      { card: true, paypal: true },
      { card: true, klarna: true },
      { card: true, paypal: true, klarna: true },
      { card: true, invoice: true },
      { card: false, invoice: true },
      { card: true, manual: true, manual_label: 'Pay on the day', manual_message: 'Cash or card at the start of the session.' },
      { card: true, paypal: true, klarna: true, invoice: true, manual: true },
    ]);
    b.paymentOptions(combo);
  }

  if (rng.chance(0.2)) {
    for (const code of rng.sample(VOUCHER_CODES, rng.int(1, 2))) {
      const percent = rng.chance(0.5);
      b.voucher({
        code,
        kind: percent ? 'percent' : 'fixed',
        amount: percent ? rng.pick([5, 10, 15, 20]) : rng.pick([500, 1000, 2000]),
        expires_at: rng.chance(0.3) ? b.now + rng.int(-60, 300) * DAY : null,
        max_uses: rng.chance(0.3) ? rng.int(10, 100) : null,
        uses: rng.int(0, 9),
      });
    }
  }
}
