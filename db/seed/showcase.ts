/**
 * The showcase educators: the first twelve educators of every demo catalogue, hand-designed so
 * that each variant the spec distinguishes exists on a stable, named educator and course
 * (docs/demo-catalogue.md lists them). Their ids and slugs do not depend on the seed; only their
 * filler courses (random, after the hand-designed ones) do.
 */
import {
  DAY, HOUR, WEEK, type CourseRef, type EducatorBuilder, type FieldSpec, type ReviewSpec, londonTime,
} from './builder.ts';
import {
  CITIES, COMMON_FAQS, type City, VERTICAL_BY_KEY, type Vertical, autoImage, collectionImage, courseImage, coverImage,
  logoImage,
} from './content.ts';
import {
  SYSTEM_FIELDS, at, fillCourses, newContext, randomEducator, type EducatorContext,
} from './random-educator.ts';
import { courseDescription, longBio, mediumBio, metaDescription, shortBio, termsHtml } from './texts.ts';

export interface ShowcaseEducator {
  n: number;
  id: string;
  slug: string;
  vertical: Vertical;
  city: City;
  build(b: EducatorBuilder): void;
}

const city = (name: string): City => {
  const found = CITIES.find((c) => c.name === name);
  if (!found) throw new Error(`unknown city ${name}`);
  return found;
};

/** Ages (seconds before the anchor) covering every relative-age label (spec 9). */
export const AGE = {
  today: 30 * 60,
  yesterday: DAY + 30 * 60,
  days3: 3 * DAY + HOUR,
  days10: 10 * DAY,
  weeks3: 3 * WEEK + DAY,
  weeks6: 6 * WEEK,
  months2: 62 * DAY,
  months4: 122 * DAY,
  months7: 214 * DAY,
  months10: 305 * DAY,
  year1: 400 * DAY,
  years2: 2 * 365 * DAY + 10 * DAY,
  years3: 3 * 365 * DAY + 40 * DAY,
} as const;

const FULL = (m: number, f: number, o: number, r: number, d: number, c: number) => ({
  material: m, facilitator: f, organiser: o, resources: r, delivery: d, communication: c,
});

/** Course fields shared by the hand-designed courses: description and meta text from the name. */
function described(b: EducatorBuilder, name: string, keyword: string | null, level: string | null) {
  return {
    name,
    keyword,
    level,
    description: courseDescription(b.rng, b.vertical, keyword, level),
    meta_description: metaDescription(name, b.educator.name, b.city.name),
  };
}

function useAddress(c: CourseRef, loc: { address: Record<string, string>; lat: number; lng: number }): void {
  c.row.address = loc.address;
  c.row.lat = loc.lat;
  c.row.lng = loc.lng;
}

function fillers(b: EducatorBuilder, ctx: EducatorContext, hand: CourseRef[], count: number): void {
  ctx.courses.push(...hand);
  for (const c of hand) ctx.usedIdeas.add(c.row.name);
  fillCourses(b, ctx, count);
}

// ---------------------------------------------------------------------------------------------
// 1. Clay & Kiln: the flagship. Dates, offers and their sale windows, series, sold out, private,
//    the race-test occurrence, every form field type, >20 reviews, collections, vouchers.

export const RACE_OCCURRENCE_ID = 'occ_0001_01_01';

const CLAY_BOOKER_FIELDS: FieldSpec[] = [
  ...SYSTEM_FIELDS,
  { id: 'phone', label: 'Mobile number', data_type: 'tel', description: 'In case we need to reach you on the day.', required: true },
  { id: 'home_address', label: 'Home address', data_type: 'address' },
  { id: 'date_of_birth', label: 'Date of birth', data_type: 'date', description: 'Learners must be 16 or over.' },
  { id: 'wheel_experience', label: 'Have you used a pottery wheel before?', data_type: 'radio', items: ['Never', 'A few times', 'Regularly'], required: true },
  { id: 'heard_from', label: 'How did you hear about us?', data_type: 'dropdown', items: ['Search engine', 'Instagram', 'A friend', 'Gift voucher', 'Other'] },
  { id: 'techniques', label: 'Which techniques interest you?', data_type: 'checkbox', items: ['Throwing', 'Handbuilding', 'Glazing', 'Raku'] },
  { id: 'access_needs', label: 'Access needs or anything we should know', data_type: 'textarea' },
  { id: 'portfolio_url', label: 'Instagram or portfolio link', data_type: 'url' },
  { id: 'party_size', label: 'How many in your party have used clay before?', data_type: 'number' },
  { id: 'apron_size', label: 'Apron size (S, M or L)', data_type: 'text' },
  { id: 'photo_consent', label: 'I am happy to appear in studio photos', data_type: 'boolean' },
  { id: 'studio_rules', label: 'Studio rules: please wear closed shoes and tie back long hair. Clay is messy!', data_type: 'statement' },
  { id: 'educator_marketing_consent', label: 'Send me studio news and new dates', data_type: 'boolean' },
];

// eslint-disable-next-line max-lines-per-function -- seed data: one educator's catalogue reads best in one place
function clayAndKiln(b: EducatorBuilder): void {
  const now = b.now;
  const web = 'https://clayandkiln.example';
  const name = 'Clay & Kiln Pottery Studio';
  b.setEducator({
    slug: 'clay-and-kiln-pottery',
    name,
    bio: longBio(b.rng, name, b.vertical, b.city, 'Hackney', web),
    cover_url: coverImage('pottery'),
    logo_url: logoImage('pottery'),
    address: { line1: 'Unit 3, Kiln Yard, 21 Mare Street', city: 'London', postcode: 'E8 4RP' },
    phone_number: '020 7946 0123',
    email: 'hello@clayandkiln.example',
    tos: termsHtml(name, 1, web),
    cancellation_allowed: 1,
    third_party_codes: { ga4_id: 'G-CLAYKILN01', facebook_pixel_id: '100000000000001' },
    vat_settings: { enabled: true, is_vat_absorbed: true, tax_label: null, rate_bp: 2000 },
    links: {
      web,
      facebook: 'https://www.facebook.com/clayandkilnpottery',
      instagram: 'https://www.instagram.com/clayandkiln',
      twitter: 'https://twitter.com/clayandkiln',
      pinterest: 'https://www.pinterest.co.uk/clayandkiln',
      linkedin: 'https://www.linkedin.com/company/clay-and-kiln',
      youtube: 'https://www.youtube.com/@clayandkiln',
    },
    // Monday closed (null), Sunday absent (also closed), Wednesday and Saturday with two ranges.
    working_hours: {
      monday: null,
      tuesday: [{ from: at(10), until: at(18) }],
      wednesday: [{ from: at(10), until: at(13) }, { from: at(14), until: at(21) }],
      thursday: [{ from: at(10), until: at(18) }],
      friday: [{ from: at(10), until: at(18) }],
      saturday: [{ from: at(9), until: at(12, 30) }, { from: at(13, 30), until: at(17) }],
    },
    enquiry_types: [{ label: 'Private party' }, { label: 'Corporate team day' }, { label: 'Gift vouchers' }, { label: 'General question' }],
    created_at: now - 1500 * DAY,
  });
  const ctx = newContext();
  const hackney = b.location({ name: 'Hackney studio', line1: 'Unit 3, Kiln Yard, 21 Mare Street', postcode: 'E8 4RP' });
  const peckham = b.location({ name: 'Peckham studio', line1: 'Arch 14, Blenheim Grove', postcode: 'SE15 4QL' });
  ctx.locations.push(hackney, peckham);
  const [collect, wear] = b.vertical.faqs.map((f) => b.faq(f.question, f.answer));
  const [cancel, access, gift] = COMMON_FAQS.map((f) => b.faq(f.question, f.answer));
  ctx.faqIds.push(collect, wear, cancel, access, gift);

  const booker = b.form('booker', 'Studio booking form', CLAY_BOOKER_FIELDS);
  const guest = b.form('guest', 'Guest details', [
    ...SYSTEM_FIELDS,
    { id: 'wheel_experience', label: 'Has this guest used a pottery wheel before?', data_type: 'radio', items: ['Never', 'A few times', 'Regularly'], required: true },
    { id: 'access_needs', label: 'Access needs', data_type: 'textarea' },
  ]);
  b.educator.form_ref = booker;

  // 01: the race-test taster — occurrence occ_0001_01_01 has exactly 10 spaces left.
  const taster = b.course({
    ...described(b, 'Beginners Wheel Throwing Taster', 'workshop', 'Beginner'),
    slug: 'beginners-wheel-throwing-taster',
    img_urls: [1, 2, 3, 4].map((n) => courseImage('pottery', n)),
    faq_ids: [collect, wear, gift],
    spaces: 10,
    course_duration: 150,
    form_ref: booker,
    capture_guests: true,
    guest_form_ref: guest,
  });
  useAddress(taster, hackney);
  b.occurrence(taster, { day: 21, hour: 18, minute: 30, minutes: 150, spaces: 10, available: 10 });
  b.occurrence(taster, { day: 6, hour: 18, minute: 30, minutes: 150, spaces: 10, available: 0 }); // sold out
  b.occurrence(taster, { day: -12, hour: 18, minute: 30, minutes: 150, spaces: 10, available: 2 }); // past
  b.occurrence(taster, { day: 35, hour: 10, minute: 30, minutes: 150, spaces: 10, available: 7 });
  b.occurrence(taster, { day: 63, hour: 10, minute: 30, minutes: 150, spaces: 10, available: 10 });
  b.offer(taster, null, { name: 'Taster place', price: 4500, description: 'Includes clay, glazing and firing of two pieces' });
  b.addOn(taster, null, { name: 'Apron to keep', price: 1500 });

  // 02: a six-week course as a parent occurrence with child sessions that are NOT individually bookable.
  const sixWeek = b.course({
    ...described(b, 'Six-Week Wheel Throwing Course', null, 'Beginner'),
    slug: 'six-week-wheel-throwing-course',
    img_urls: [courseImage('pottery', 2), courseImage('pottery', 4)],
    faq_ids: [collect, cancel],
    spaces: 8,
    course_duration: 150,
  });
  useAddress(sixWeek, hackney);
  for (const first of [14, 84]) {
    const parent = b.occurrence(sixWeek, {
      day: first, hour: 19, minutes: 150, end: londonTime(now, first + 35, 21, 30), spaces: 8, available: first === 14 ? 5 : 8,
    });
    for (let week = 0; week < 6; week++) {
      b.occurrence(sixWeek, {
        day: first + week * 7, hour: 19, minutes: 150, spaces: 8, available: first === 14 ? 5 : 8, parent, bookable: false,
      });
    }
  }
  b.offer(sixWeek, null, { name: 'Full six-week course', price: 29500 });
  b.offer(sixWeek, null, { name: 'Concession', price: 25000, description: 'Students and over-65s' });

  // 03: a drop-in series whose child sessions ARE individually bookable.
  const dropIn = b.course({
    ...described(b, 'Handbuilding Drop-in Sessions', 'class', 'All'),
    slug: 'handbuilding-drop-in-sessions',
    img_urls: [courseImage('pottery', 3)],
    spaces: 12,
    course_duration: 120,
  });
  useAddress(dropIn, peckham);
  const series = b.occurrence(dropIn, { day: 9, hour: 11, minutes: 120, end: londonTime(now, 9 + 35, 13), spaces: 12, available: 9 });
  for (let week = 0; week < 6; week++) {
    b.occurrence(dropIn, { day: 9 + week * 7, hour: 11, minutes: 120, spaces: 12, available: 12 - week, parent: series, bookable: true });
  }
  b.offer(dropIn, null, { name: 'Drop-in place', price: 3500 });

  // 04: sale windows. occ _01: one offer ended, one on sale, one not yet on sale.
  //     occ _02: every offer has ended (dropped from the date list). occ _03: private. occ _04: past.
  const glaze = b.course({
    ...described(b, 'Glaze Lab: Colour and Surface', 'workshop', 'Intermediate'),
    slug: 'glaze-lab-colour-and-surface',
    img_urls: [courseImage('pottery', 3)],
    faq_ids: [collect],
    spaces: 10,
    course_duration: 180,
  });
  useAddress(glaze, hackney);
  const g1 = b.occurrence(glaze, { day: 30, hour: 10, minutes: 180, available: 8 });
  const g1Start = b.occurrenceRow(g1).start_datetime;
  b.offer(glaze, g1, { name: 'Early bird', price: 5500, end_at: now - 2 * DAY });
  b.offer(glaze, g1, { name: 'Standard', price: 6500, start_at: now - 20 * DAY, end_at: g1Start });
  b.offer(glaze, g1, { name: 'Last-minute returns', price: 5000, start_at: now + 25 * DAY, end_at: g1Start });
  b.addOn(glaze, g1, { name: 'Take-home glaze test tiles', price: 600 });
  const g2 = b.occurrence(glaze, { day: 12, hour: 10, minutes: 180, available: 6 });
  b.offer(glaze, g2, { name: 'Early bird', price: 5500, end_at: now - 5 * DAY });
  b.offer(glaze, g2, { name: 'Standard', price: 6500, end_at: now });
  const g3 = b.occurrence(glaze, { day: 40, hour: 14, minutes: 180, visibility: 'private', available: 10 });
  b.offer(glaze, g3, { name: 'Private group rate', price: 6000 });
  const g4 = b.occurrence(glaze, { day: -20, hour: 10, minutes: 180, available: 1 });
  b.offer(glaze, g4, { name: 'Standard', price: 6500, end_at: b.occurrenceRow(g4).start_datetime });
  b.addOn(glaze, null, { name: 'Glaze materials pack', price: 1200 });

  // 05: occurrences of different lengths ('Multiple Durations (see dates)'); exactly one review.
  const raku = b.course({
    ...described(b, 'Raku Firing Day', 'workshop', 'All'),
    slug: 'raku-firing-day',
    img_urls: [courseImage('pottery', 1), courseImage('pottery', 2)],
    spaces: 8,
    course_duration: 180,
  });
  useAddress(raku, hackney);
  b.occurrence(raku, { day: 18, hour: 10, minutes: 180, available: 8 });
  b.occurrence(raku, { day: 46, hour: 9, minute: 30, minutes: 360, available: 4 });
  b.occurrence(raku, { day: 74, hour: 10, minutes: 180, available: 8 });
  b.offer(raku, null, { name: 'Raku day', price: 8500 });

  // 06: no keyword, guests captured, a two-space offer; no reviews of its own.
  const dateNight = b.course({
    ...described(b, 'Pottery Date Night', null, 'All'),
    slug: 'pottery-date-night',
    img_urls: [courseImage('pottery', 4), courseImage('pottery', 1)],
    spaces: 12,
    course_duration: 120,
    capture_guests: true,
    guest_form_ref: guest,
  });
  useAddress(dateNight, peckham);
  for (const day of [4, 11, 25, 39]) b.occurrence(dateNight, { day, hour: 19, minutes: 120, available: day === 4 ? 2 : 12 });
  b.offer(dateNight, null, { name: 'Couple (2 places)', price: 11000, spaces: 2 });
  b.offer(dateNight, null, { name: 'Single place', price: 5800 });

  // 07: on-request, two durations (one with an extra cost), calendar based, student travel to two studios.
  const party = b.course({
    ...described(b, 'Private Pottery Party', 'workshop', 'All'),
    slug: 'private-pottery-party',
    type: 'on-request',
    delivery_modes: ['in-person'],
    img_urls: [courseImage('pottery', 2)],
    spaces: null,
    course_duration: 120,
    duration_pricing: [
      { _id: 'dur_0001_07_1', duration: 120, label: '2 hours', description: null, extra_cost: null },
      { _id: 'dur_0001_07_2', duration: 180, label: '3 hours', description: 'Includes prosecco and nibbles', extra_cost: 4000 },
    ],
    date_requests: 'calendar_based',
    available_for_in_person_delivery: true,
    student_travel_settings: { enabled: true, locations: [hackney.id, peckham.id] },
  });
  useAddress(party, hackney);
  b.offer(party, null, { name: 'Per guest', price: 4000 });

  fillers(b, ctx, [taster, sixWeek, dropIn, glaze, raku, dateNight, party], 3);

  // Reviews: 26 visible (+1 archived) — every source, course and educator level, ages from today to years.
  const R: ReviewSpec[] = [
    { age: AGE.today, rating: 5, course: taster, breakdown: FULL(5, 5, 5, 5, 5, 5), name: 'Amelia R.', message: 'Booked this on a whim and loved every minute. Already signed up for the six-week course!', response: 'Thank you Amelia, see you on the wheel soon!' },
    { age: AGE.yesterday, rating: 4, course: taster, breakdown: FULL(4, 5, 4, 3, 4, 4), verified: false, name: 'Tom Fletcher', message: 'Great teacher, slightly cramped room but a brilliant evening.' },
    { age: AGE.days3, rating: 5, course: taster, breakdown: { material: 5, facilitator: 5, organiser: 4, resources: null, delivery: 5, communication: 5 }, name: 'Priya S.', message: 'My first time on a wheel and I made two bowls I am proud of.' },
    { age: AGE.days10, rating: 5, course: taster, name: 'Oliver Hughes', message: 'Perfect gift experience. Clear instructions and lots of laughs.' },
    { age: AGE.weeks3, rating: 3, course: taster, breakdown: FULL(3, 4, 2, 3, 3, 3), name: 'Megan T.', message: 'Fun, but it started 20 minutes late and felt rushed at the end.', response: 'Sorry about the late start Megan, we have changed how we run check-in.' },
    { age: AGE.months2, rating: 5, course: taster, verified: false, name: 'Declan Murphy', message: 'Absolutely brilliant. The studio is gorgeous.' },
    { age: AGE.months7, rating: 4, course: taster, name: 'Zara Khan', message: 'Really enjoyed it. Pots arrived three weeks later, beautifully glazed.' },
    { age: AGE.years2, rating: 5, course: taster, breakdown: FULL(5, 5, 5, 4, 5, 5), name: 'Hannah Okoye', message: 'The best evening out we have had in ages.' },
    { age: AGE.months4, rating: 2, course: taster, name: 'Archived Reviewer', message: 'This review was withdrawn by its author.', archived: true },
    { age: AGE.weeks6, rating: 5, course: glaze, breakdown: FULL(5, 5, 4, 5, 4, 5), name: 'Ruth Campbell', message: 'Learned more about glaze chemistry in three hours than in a year of YouTube.' },
    { age: AGE.months4, rating: 4, course: glaze, name: 'Kwame Mensah', message: 'Excellent demos, would have liked more test tiles.', response: 'Great idea Kwame, we now include extra test tiles.' },
    { age: AGE.year1, rating: 5, course: glaze, verified: false, name: 'Siân Evans', message: 'Inspiring tutor and gorgeous results.' },
    { age: AGE.months10, rating: 5, course: raku, breakdown: FULL(5, 5, 5, 5, 5, 4), name: 'Callum Reid', message: 'Watching the pots come out of the raku kiln glowing was unforgettable.' },
    { age: AGE.days3, rating: 5, course: sixWeek, name: 'Freya W.', message: 'Six weeks flew by. I can finally centre clay!' },
    { age: AGE.years3, rating: 4, course: sixWeek, breakdown: FULL(4, 4, 4, 4, 4, 4), name: 'Imran Ali', message: 'Solid course, good progression week to week.' },
    { age: AGE.today + 2 * HOUR, rating: 5, source: 'facebook', name: 'Grace Thompson', message: 'Such a welcoming studio, highly recommend to anyone nervous about trying pottery.' },
    { age: AGE.weeks3, rating: 4, source: 'facebook', name: 'Ben Clarke', message: 'Lovely people, lovely space.', response: 'Thanks Ben!' },
    { age: AGE.years2, rating: 5, source: 'facebook', name: 'Chloe Wright', message: 'We did a team day here and everyone loved it.' },
    { age: AGE.yesterday, rating: 5, source: 'googlemaps', name: 'Ravi Patel', message: 'Friendly, well equipped and spotless.' },
    { age: AGE.months2, rating: 3, source: 'googlemaps', name: 'Euan Fraser', message: 'Good classes but hard to find the entrance.', response: 'Thanks Euan, we have put up a new sign by the gate.' },
    { age: AGE.year1, rating: 1, source: 'googlemaps', name: 'Joe Nowak', message: 'Class cancelled at short notice.' },
    { age: AGE.days10, rating: 5, source: 'trustpilot', name: 'Isla MacDonald', message: 'Easy booking, great experience, pots were gorgeous.' },
    { age: AGE.months7, rating: 4, source: 'trustpilot', name: 'Samir Ahmed', message: 'Booking was simple and the tutor was excellent.', response: 'Thank you Samir!' },
    { age: AGE.weeks6, rating: 5, name: 'Niamh Doyle', message: 'The whole team is lovely. Cannot recommend enough.' },
    { age: AGE.months4, rating: 4, verified: false, name: 'George Harris', message: 'Great atmosphere, good value.' },
    { age: AGE.months10, rating: 5, name: 'Aisha Begum', message: 'Came for a taster, stayed for two years of classes.', response: 'We love having you Aisha!' },
    { age: AGE.years3, rating: 5, name: 'Lewis Morgan', message: 'A gem of a studio.' },
  ];
  R.forEach((r) => b.review(r));

  b.collection({ name: 'Start here', image_url: collectionImage('pottery'), courses: [taster, dropIn, raku] });
  b.collection({ name: 'Date nights & gifts', image_url: null, courses: [dateNight, party] });
  b.collection({ name: 'Coming soon (draft)', image_url: collectionImage('pottery'), published: false, courses: [sixWeek] });

  b.voucher({ code: 'WELCOME10', kind: 'percent', amount: 10 });
  b.voucher({ code: 'TENOFF', kind: 'fixed', amount: 1000, expires_at: now + 365 * DAY, max_uses: 500, uses: 12 });
  b.voucher({ code: 'SPRING20', kind: 'percent', amount: 20, expires_at: now - 30 * DAY, uses: 41 });
  b.voucher({ code: 'FIRST5', kind: 'fixed', amount: 500, max_uses: 5, uses: 5 });
  b.voucher({ code: 'GLAZE15', kind: 'percent', amount: 15, course: glaze, expires_at: now + 180 * DAY });

  b.paymentOptions({ card: true, paypal: true, klarna: true });

  b.membershipPlan({
    name: 'Clay Club', interval: 'month', price: 3900, creditsPerPeriod: 2, discountPercent: 10, courses: [dropIn, taster, glaze],
    description: 'Two drop-in or taster sessions a month and 10% off glaze workshops.',
  });
}

// ---------------------------------------------------------------------------------------------
// 2. CodeForge Academy: white-labelled, blended and on-demand content with sections, price ranges,
//    VAT added with label 'VAT', invoice only, hide_social_prompts, web link without a scheme.

// eslint-disable-next-line max-lines-per-function -- seed data: one educator's catalogue reads best in one place
function codeforge(b: EducatorBuilder): void {
  const now = b.now;
  const name = 'CodeForge Academy';
  b.setEducator({
    slug: 'codeforge-academy',
    name,
    bio: mediumBio(b.rng, name, b.vertical, b.city),
    cover_url: coverImage('coding'),
    logo_url: logoImage('coding'),
    address: { line1: 'Floor 4, 101 Portland Street', city: 'Manchester', postcode: 'M1 6DF' },
    phone_number: '0161 496 0742',
    email: 'admissions@codeforge-academy.example',
    tos: termsHtml(name, 14, 'https://codeforge-academy.example'),
    cancellation_allowed: 14,
    feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: true },
    vat_settings: { enabled: true, is_vat_absorbed: false, tax_label: 'VAT', rate_bp: 2000 },
    color_brand: '#4F46E5',
    on_color_brand: '#FFFFFF',
    whitelabelling_enabled: true,
    links: {
      web: 'codeforge-academy.example',
      linkedin: 'https://www.linkedin.com/school/codeforge-academy',
      youtube: 'https://www.youtube.com/@codeforgeacademy',
    },
    working_hours: {
      monday: [{ from: at(9), until: at(21) }], tuesday: [{ from: at(9), until: at(21) }],
      wednesday: [{ from: at(9), until: at(21) }], thursday: [{ from: at(9), until: at(21) }],
      friday: [{ from: at(9), until: at(17) }], saturday: [{ from: at(10), until: at(16) }], sunday: null,
    },
    created_at: now - 900 * DAY,
  });
  const ctx = newContext();
  const campus = b.location({ name: 'CodeForge campus', line1: 'Floor 4, 101 Portland Street', postcode: 'M1 6DF' });
  ctx.locations.push(campus);
  const faqs = b.vertical.faqs.map((f) => b.faq(f.question, f.answer));
  ctx.faqIds.push(...faqs);
  const booker = b.form('booker', 'Application details', [
    ...SYSTEM_FIELDS,
    { id: 'experience', label: 'Coding experience', data_type: 'dropdown', items: ['None', 'Some tutorials', 'Built a project', 'Professional'], required: true },
    { id: 'own_laptop', label: 'I will bring my own laptop', data_type: 'boolean' },
    { id: 'github', label: 'GitHub profile', data_type: 'url' },
    { id: 'employer', label: 'Current employer (if any)', data_type: 'text' },
  ]);
  b.educator.form_ref = booker;

  // 01: blended, several sections, price range, hybrid cohorts.
  const fullStack = b.course({
    ...described(b, 'Full-Stack JavaScript Bootcamp', 'bootcamp', 'Intermediate'),
    slug: 'full-stack-javascript-bootcamp',
    type: 'blended',
    delivery_modes: ['hybrid'],
    img_urls: [1, 2, 3].map((n) => courseImage('coding', n)),
    faq_ids: faqs,
    spaces: 24,
    pricing_type: 'price-range',
    minimum_price: 450000,
    maximum_price: 650000,
    course_duration: 420,
    form_ref: booker,
  });
  useAddress(fullStack, campus);
  for (const day of [28, 112]) {
    b.occurrence(fullStack, { day, hour: 9, minute: 30, minutes: 420, end: londonTime(now, day + 83, 17), delivery: 'hybrid', available: day === 28 ? 6 : 24 });
  }
  b.offer(fullStack, null, { name: 'Part-time (evenings and weekends)', price: 450000 });
  b.offer(fullStack, null, { name: 'Full-time (12 weeks)', price: 650000 });
  b.sections(fullStack, [
    { name: 'Week 1: Foundations', lessons: ['Setting up your editor', 'HTML and CSS refresher', 'JavaScript syntax'] },
    { name: 'Week 2: The browser', lessons: ['The DOM', 'Events', 'Fetching data', 'Accessibility basics'] },
    { name: 'Week 3: The server', lessons: ['Node.js', 'HTTP APIs', 'Databases'] },
    { name: 'Week 4: Shipping', lessons: ['Testing', 'Deploying', 'Portfolio review'] },
  ]);

  // 02: on-demand, ONE section (displayed as 'Contents'), price-offers.
  const python = b.course({
    ...described(b, 'Python for Data Analysis (Self-Paced)', null, 'Beginner'),
    slug: 'python-for-data-analysis-self-paced',
    type: 'on-demand',
    delivery_modes: ['on-demand'],
    img_urls: [courseImage('coding', 4)],
    spaces: null,
    course_duration: 360,
  });
  b.offer(python, null, { name: 'Lifetime access', price: 14900 });
  b.sections(python, [{ name: 'Course materials', lessons: ['Installing Python', 'Variables and types', 'Lists and loops', 'Pandas DataFrames', 'Charts with Matplotlib', 'Your first analysis'] }]);

  // 03: on-demand, several sections, price range with min == max, no image (auto image).
  const sql = b.course({
    ...described(b, 'SQL Fundamentals (Self-Paced)', 'course', 'Beginner'),
    slug: 'sql-fundamentals-self-paced',
    type: 'on-demand',
    delivery_modes: ['on-demand'],
    autoimg: { url: autoImage('coding'), author: 'Jamie Lee' },
    spaces: 500,
    pricing_type: 'price-range',
    minimum_price: 9900,
    maximum_price: 9900,
    course_duration: 240,
  });
  b.offer(sql, null, { name: 'Full access', price: 9900 });
  b.sections(sql, [
    { name: 'Querying', lessons: ['SELECT and WHERE', 'Sorting and limiting', 'Aggregates'] },
    { name: 'Joining', lessons: ['Inner joins', 'Outer joins'] },
    { name: 'Changing data', lessons: ['INSERT, UPDATE, DELETE', 'Transactions'] },
  ]);

  // 04: a live online evening class.
  const intro = b.course({
    ...described(b, 'Intro to Web Development (Evening Class)', 'class', 'Beginner'),
    slug: 'intro-to-web-development-evening-class',
    delivery_modes: ['online'],
    img_urls: [courseImage('coding', 1)],
    spaces: 30,
    course_duration: 180,
  });
  for (const day of [8, 15, 22, 50]) b.occurrence(intro, { day, hour: 18, minute: 30, minutes: 180, delivery: 'online', available: 30 - day % 7 });
  b.offer(intro, null, { name: 'Standard', price: 9500 });

  // 05: blended with ONE section, in person, price range.
  const cloud = b.course({
    ...described(b, 'Cloud Foundations Bootcamp', 'bootcamp', 'Intermediate'),
    slug: 'cloud-foundations-bootcamp',
    type: 'blended',
    delivery_modes: ['in-person'],
    img_urls: [courseImage('coding', 2), courseImage('coding', 3)],
    spaces: 16,
    pricing_type: 'price-range',
    minimum_price: 120000,
    maximum_price: 180000,
    course_duration: 420,
  });
  useAddress(cloud, campus);
  b.occurrence(cloud, { day: 45, hour: 9, minutes: 420, end: londonTime(now, 49, 17), available: 11 });
  b.offer(cloud, null, { name: 'Self-funded', price: 120000 });
  b.offer(cloud, null, { name: 'Employer-funded', price: 180000 });
  b.sections(cloud, [{ name: 'Pre-course learning', lessons: ['What is the cloud?', 'Accounts and billing', 'Identity and access'] }]);

  // 06: advanced live class.
  const react = b.course({
    ...described(b, 'React Masterclass Live', 'class', 'Advanced'),
    slug: 'react-masterclass-live',
    delivery_modes: ['online'],
    img_urls: [courseImage('coding', 3)],
    spaces: 20,
    course_duration: 420,
  });
  for (const day of [33, 61]) b.occurrence(react, { day, hour: 9, minute: 30, minutes: 420, delivery: 'online', available: 20 });
  b.offer(react, null, { name: 'Standard', price: 34900 });

  fillers(b, ctx, [fullStack, python, sql, intro, cloud, react], 3);

  const reviews: ReviewSpec[] = [
    { age: AGE.days3, rating: 5, course: fullStack, breakdown: FULL(5, 5, 4, 5, 4, 5), name: 'Dylan Roberts', message: 'Changed my career. Landed a junior developer role two months after graduating.', response: 'Congratulations Dylan!' },
    { age: AGE.weeks6, rating: 4, course: fullStack, breakdown: FULL(5, 4, 3, 4, 4, 3), name: 'Maya Chen', message: 'Intense but worth it. Some weeks felt disorganised.' },
    { age: AGE.months4, rating: 5, course: python, name: 'Gareth Price', message: 'Clear videos, useful exercises.' },
    { age: AGE.months7, rating: 4, course: sql, breakdown: FULL(4, 4, 4, 4, 4, 4), name: 'Fatima Ali', message: 'Good introduction, would like more practice questions.' },
    { age: AGE.weeks3, rating: 5, course: intro, name: 'Leo Stewart', message: 'Friendly tutor, great pace for total beginners.' },
    { age: AGE.year1, rating: 5, source: 'trustpilot', name: 'Olivia Green', message: 'Excellent admissions team and teaching.' },
    { age: AGE.years2, rating: 3, source: 'trustpilot', name: 'Noah Walker', message: 'Good content but expensive.', response: 'Thanks Noah, we now offer monthly payments.' },
    { age: AGE.days10, rating: 5, name: 'Ellie Robinson', message: 'Best decision I made this year.' },
  ];
  reviews.forEach((r) => b.review(r));

  b.collection({ name: 'Career changers', image_url: null, courses: [fullStack, cloud, intro] });
  b.voucher({ code: 'CODE50', kind: 'fixed', amount: 5000, max_uses: 20, uses: 3, expires_at: now + 120 * DAY });
  b.paymentOptions({ card: false, invoice: true, invoice_due_days: 30 });
}

// ---------------------------------------------------------------------------------------------
// 3. Lifeline First Aid Training: on-request courses (0/1/many durations, extra costs, calendar
//    based, > 1440 minutes), every travel setting, approval required, manual payment with a label,
//    hide_terms and hide_marketing_consent, open 24 hours.

// eslint-disable-next-line max-lines-per-function -- seed data: one educator's catalogue reads best in one place
function lifeline(b: EducatorBuilder): void {
  const now = b.now;
  const name = 'Lifeline First Aid Training';
  b.setEducator({
    slug: 'lifeline-first-aid-training',
    name,
    bio: longBio(b.rng, name, b.vertical, b.city, 'Digbeth', 'https://lifeline-first-aid.example'),
    cover_url: coverImage('first-aid'),
    logo_url: logoImage('first-aid'),
    address: { line1: '2nd Floor, 45 Fazeley Street', city: 'Birmingham', postcode: 'B5 5RR' },
    phone_number: '0121 496 0311',
    email: 'bookings@lifeline-first-aid.example',
    tos: termsHtml(name, 7, 'https://lifeline-first-aid.example'),
    cancellation_allowed: 7,
    feature_flags: { hide_marketing_consent: true, hide_terms: true, hide_pricing: false, hide_social_prompts: false },
    vat_settings: { enabled: true, is_vat_absorbed: false, tax_label: null, rate_bp: 2000 },
    links: { web: 'https://lifeline-first-aid.example', facebook: 'https://www.facebook.com/lifelinefirstaid', linkedin: 'https://www.linkedin.com/company/lifeline-first-aid' },
    // Open 24 hours Monday to Saturday ([]), closed on Sunday (null).
    working_hours: { monday: [], tuesday: [], wednesday: [], thursday: [], friday: [], saturday: [], sunday: null },
    enquiry_types: [{ label: 'Onsite training for my team' }, { label: 'Public course booking' }, { label: 'Certificate re-issue' }],
    created_at: now - 2000 * DAY,
  });
  const ctx = newContext();
  const centre = b.location({ name: 'Lifeline Training Centre', line1: '2nd Floor, 45 Fazeley Street', postcode: 'B5 5RR' });
  ctx.locations.push(centre);
  const faqs = b.vertical.faqs.map((f) => b.faq(f.question, f.answer));
  ctx.faqIds.push(...faqs);

  // 01: both travel settings (educator UK Wide + student 1 location), one duration ≤ 1440, calendar based.
  const efaw = b.course({
    ...described(b, 'Emergency First Aid at Work (EFAW) Onsite', 'course', 'All'),
    slug: 'emergency-first-aid-at-work-onsite',
    type: 'on-request',
    delivery_modes: ['in-person'],
    img_urls: [courseImage('first-aid', 1), courseImage('first-aid', 2)],
    faq_ids: faqs,
    spaces: null,
    course_duration: 360,
    duration_pricing: [{ _id: 'dur_0003_01_1', duration: 360, label: 'One day (6 hours)', description: 'Ofqual-regulated Level 3 award', extra_cost: null }],
    date_requests: 'calendar_based',
    available_for_in_person_delivery: true,
    educator_travel_settings: { enabled: true, type: 'UK Wide' },
    student_travel_settings: { enabled: true, locations: [centre.id] },
  });
  useAddress(efaw, centre);
  b.offer(efaw, null, { name: 'Per learner', price: 8500 });

  // 02: many durations with extra costs (one > 1440), calendar based, educator travel only, approval required.
  const faw = b.course({
    ...described(b, 'First Aid at Work Requalification', null, 'All'),
    slug: 'first-aid-at-work-requalification',
    type: 'on-request',
    delivery_modes: ['in-person'],
    img_urls: [courseImage('first-aid', 3)],
    spaces: null,
    course_duration: 180,
    duration_pricing: [
      { _id: 'dur_0003_02_1', duration: 180, label: 'Half-day refresher', description: null, extra_cost: null },
      { _id: 'dur_0003_02_2', duration: 360, label: 'Full day', description: 'Includes the annual refresher', extra_cost: 4500 },
      { _id: 'dur_0003_02_3', duration: 2880, label: null, description: 'Full requalification over two days', extra_cost: 9000 },
    ],
    date_requests: 'calendar_based',
    available_for_in_person_delivery: true,
    educator_travel_settings: { enabled: true, type: 'UK Wide' },
    approval_required: true,
  });
  b.offer(faw, null, { name: 'Per learner', price: 16500 });

  // 03: no durations ('To be confirmed'), price on enquiry, online and in person, neither travel setting.
  const mhfa = b.course({
    ...described(b, 'Mental Health First Aid Bespoke Sessions', null, 'All'),
    slug: 'mental-health-first-aid-bespoke',
    type: 'on-request',
    delivery_modes: ['online', 'in-person'],
    img_urls: [courseImage('first-aid', 4)],
    spaces: null,
    pricing_type: 'price-on-enquiry',
    available_for_online_delivery: true,
    available_for_in_person_delivery: true,
  });

  // 04: one duration > 1440 minutes, preferred dates (not calendar based), student travel only.
  const paediatric = b.course({
    ...described(b, 'Paediatric First Aid (Two Days)', 'course', 'All'),
    slug: 'paediatric-first-aid-two-days',
    type: 'on-request',
    delivery_modes: ['in-person'],
    autoimg: { url: autoImage('first-aid'), author: 'Hannah Okoye' },
    spaces: null,
    course_duration: 2880,
    duration_pricing: [{ _id: 'dur_0003_04_1', duration: 2880, label: 'Two days', description: null, extra_cost: null }],
    available_for_in_person_delivery: true,
    student_travel_settings: { enabled: true, locations: [centre.id] },
  });
  useAddress(paediatric, centre);
  b.offer(paediatric, null, { name: 'Per learner', price: 12500 });

  // 05: a scheduled public course that needs approval.
  const publicEfaw = b.course({
    ...described(b, 'Emergency First Aid at Work Public Course', 'course', 'All'),
    slug: 'emergency-first-aid-at-work-public-course',
    img_urls: [courseImage('first-aid', 2)],
    spaces: 12,
    course_duration: 360,
    approval_required: true,
  });
  useAddress(publicEfaw, centre);
  for (const day of [10, 24, 52, 80]) b.occurrence(publicEfaw, { day, hour: 9, minutes: 360, available: day === 10 ? 3 : 12 });
  b.offer(publicEfaw, null, { name: 'Standard', price: 9500 });

  // 06: a short live online class.
  const aed = b.course({
    ...described(b, 'Defibrillator Awareness Online', null, 'All'),
    slug: 'defibrillator-awareness-online',
    delivery_modes: ['online'],
    img_urls: [courseImage('first-aid', 1)],
    spaces: 40,
    course_duration: 90,
  });
  for (const day of [5, 19, 33]) b.occurrence(aed, { day, hour: 12, minutes: 90, delivery: 'online', available: 40 });
  b.offer(aed, null, { name: 'Standard', price: 2500 });

  fillers(b, ctx, [efaw, faw, mhfa, paediatric, publicEfaw, aed], 2);

  const reviews: ReviewSpec[] = [
    { age: AGE.days10, rating: 5, source: 'googlemaps', name: 'Kirsty Stewart', message: 'Brilliant trainer, really practical.' },
    { age: AGE.months2, rating: 5, source: 'googlemaps', name: 'Owen Davies', message: 'Trained our whole office on site. Excellent.', response: 'Thank you Owen, it was a pleasure.' },
    { age: AGE.years2, rating: 4, source: 'googlemaps', name: 'Bethan Jones', message: 'Good course, long day.' },
    { age: AGE.weeks3, rating: 5, course: publicEfaw, breakdown: FULL(5, 5, 5, 4, 5, 5), name: 'Mohammed K.', message: 'Confident I could help someone now.' },
    { age: AGE.months4, rating: 4, course: publicEfaw, name: 'Rhys Evans', message: 'Very clear, great manikins.' },
    { age: AGE.months7, rating: 5, course: efaw, name: 'Sophie Wood', message: 'They came to our warehouse and trained 12 of us in a day.' },
  ];
  reviews.forEach((r) => b.review(r));

  b.paymentOptions({
    card: true, manual: true, manual_label: 'Pay on the day (cash or card)',
    manual_message: 'Pay your trainer at registration. We accept cash and contactless card.',
  });
}

// ---------------------------------------------------------------------------------------------
// 4. Stillwater Yoga: hide_pricing, free and price-on-enquiry, short bio, no social links,
//    no terms, no enquiry types, VAT off, no cancellation, manual payment without a label.

const YOGA_DAY = [{ from: at(6, 30), until: at(9) }, { from: at(12), until: at(13) }, { from: at(18), until: at(21) }];

// eslint-disable-next-line max-lines-per-function -- seed data: one educator's catalogue reads best in one place
function stillwater(b: EducatorBuilder): void {
  const now = b.now;
  b.setEducator({
    slug: 'stillwater-yoga',
    name: 'Stillwater Yoga',
    bio: shortBio(b.vertical, b.city),
    cover_url: coverImage('yoga'),
    logo_url: logoImage('yoga'),
    address: { line1: '2 Picton Street', city: 'Bristol', postcode: 'BS6 5QA' },
    phone_number: '0117 496 0588',
    email: 'namaste@stillwater-yoga.example',
    tos: null,
    cancellation_allowed: null,
    feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: true, hide_social_prompts: false },
    vat_settings: { enabled: false, is_vat_absorbed: false, tax_label: null, rate_bp: 0 },
    links: {},
    // Three ranges on weekdays.
    working_hours: {
      monday: YOGA_DAY, tuesday: YOGA_DAY, wednesday: YOGA_DAY, thursday: YOGA_DAY, friday: YOGA_DAY,
      saturday: [{ from: at(8), until: at(12) }], sunday: null,
    },
    created_at: now - 700 * DAY,
  });
  const ctx = newContext();
  const studio = b.location({ name: 'Stillwater studio', line1: '2 Picton Street', postcode: 'BS6 5QA' });
  ctx.locations.push(studio);
  ctx.faqIds.push(...b.vertical.faqs.map((f) => b.faq(f.question, f.answer)));

  // 01: free.
  const sunrise = b.course({
    ...described(b, 'Community Sunrise Flow', 'class', 'All'),
    slug: 'community-sunrise-flow',
    pricing_type: 'free',
    img_urls: [courseImage('yoga', 1)],
    spaces: 20,
    course_duration: 60,
  });
  useAddress(sunrise, studio);
  // Twelve weekly dates: more than one page in the date list (5) and the checkout's Date step (10).
  for (let k = 0; k < 12; k++) b.occurrence(sunrise, { day: 2 + 7 * k, hour: 6, minute: 45, minutes: 60, available: 20 - k });
  b.offer(sunrise, null, { name: 'Free place', price: 0 });

  // 02: on request, price on enquiry, one duration, calendar based, online or at the studio.
  const private121 = b.course({
    ...described(b, 'Private One-to-One Yoga', null, 'All'),
    slug: 'private-one-to-one-yoga',
    type: 'on-request',
    delivery_modes: ['online', 'in-person'],
    img_urls: [courseImage('yoga', 2)],
    spaces: null,
    pricing_type: 'price-on-enquiry',
    course_duration: 60,
    duration_pricing: [{ _id: 'dur_0004_02_1', duration: 60, label: '1 hour', description: null, extra_cost: null }],
    date_requests: 'calendar_based',
    available_for_online_delivery: true,
    available_for_in_person_delivery: true,
    student_travel_settings: { enabled: true, locations: [studio.id] },
  });
  useAddress(private121, studio);

  // 03 / 04: paid classes (prices hidden by hide_pricing).
  const yin = b.course({
    ...described(b, 'Yin Yoga Evening', 'class', 'All'),
    slug: 'yin-yoga-evening',
    img_urls: [courseImage('yoga', 3), courseImage('yoga', 4)],
    spaces: 16,
    course_duration: 75,
  });
  useAddress(yin, studio);
  for (let k = 0; k < 5; k++) b.occurrence(yin, { day: 3 + 7 * k, hour: 19, minute: 30, minutes: 75, available: 16 - 2 * k });
  b.offer(yin, null, { name: 'Drop-in', price: 1400 });
  b.offer(yin, null, { name: 'Concession', price: 1000 });
  const vinyasa = b.course({
    ...described(b, 'Live Online Vinyasa', 'class', 'Intermediate'),
    slug: 'live-online-vinyasa',
    delivery_modes: ['online'],
    img_urls: [courseImage('yoga', 2)],
    spaces: 50,
    course_duration: 60,
  });
  for (let k = 0; k < 4; k++) b.occurrence(vinyasa, { day: 1 + 7 * k, hour: 18, minutes: 60, delivery: 'online', available: 50 });
  b.offer(vinyasa, null, { name: 'Live class', price: 1000 });

  // 05: blended, price on enquiry, several sections.
  const ytt = b.course({
    ...described(b, 'Yoga Teacher Training (200 Hour)', 'course', 'Advanced'),
    slug: 'yoga-teacher-training-200-hour',
    type: 'blended',
    img_urls: [courseImage('yoga', 4)],
    spaces: 14,
    pricing_type: 'price-on-enquiry',
    course_duration: 420,
  });
  useAddress(ytt, studio);
  b.occurrence(ytt, { day: 60, hour: 9, minutes: 420, end: londonTime(now, 60 + 180, 17), available: 5 });
  b.sections(ytt, [
    { name: 'Philosophy', lessons: ['The Yoga Sutras', 'Ethics for teachers'] },
    { name: 'Anatomy', lessons: ['The spine', 'Hips and shoulders', 'Injury prevention'] },
    { name: 'Teaching practice', lessons: ['Sequencing', 'Cueing', 'Holding space'] },
  ]);

  // 06: on-demand, free, one section.
  const meditation = b.course({
    ...described(b, 'Mindful Meditation Course', null, 'Beginner'),
    slug: 'mindful-meditation-course',
    type: 'on-demand',
    delivery_modes: ['on-demand'],
    pricing_type: 'free',
    img_urls: [courseImage('yoga', 1)],
    spaces: null,
    course_duration: 90,
  });
  b.offer(meditation, null, { name: 'Free access', price: 0 });
  b.sections(meditation, [{ name: 'Meditations', lessons: ['Arriving', 'Body scan', 'Breath counting', 'Loving kindness'] }]);

  fillers(b, ctx, [sunrise, private121, yin, vinyasa, ytt, meditation], 2);

  [
    { age: AGE.days3, rating: 5, name: 'Isla B.', message: 'The calmest hour of my week.' },
    { age: AGE.months2, rating: 5, name: 'Tariq Singh', message: 'Kind teachers and a beautiful room.' },
    { age: AGE.years3, rating: 4, verified: false, name: 'Harry Lewis', message: 'Lovely classes, gets busy on Mondays.' },
  ].forEach((r) => b.review(r));

  b.paymentOptions({ card: true, manual: true, manual_label: null, manual_message: null });

  // Memberships (docs/gifts-and-memberships.md): credits, a percentage, a pass on selected classes.
  b.membershipPlan({
    name: 'Unlimited Calm', interval: 'month', price: 4900, creditsPerPeriod: 8, discountPercent: 20,
    description: 'Eight classes a month, and 20% off everything else we run, workshops and trainings included.',
  });
  b.membershipPlan({
    name: 'Annual Friend', interval: 'year', price: 9900, discountPercent: 15,
    description: 'A year of 15% off every class, course and retreat.',
  });
  b.membershipPlan({
    name: 'Five-Class Pass', interval: 'pass', passMonths: 3, price: 5500, creditsPerPeriod: 5, courses: [yin, vinyasa],
    description: 'Five drop-in classes to use within three months.',
  });
}

// ---------------------------------------------------------------------------------------------
// 5. Lingua Franca: white-labelled (dark text on yellow), every payment method on plus a course
//    override, international educator travel, student travel to three locations, a restricted
//    course, hybrid delivery, VAT absorbed with label 'VAT'.

// eslint-disable-next-line max-lines-per-function -- seed data: one educator's catalogue reads best in one place
function linguaFranca(b: EducatorBuilder): void {
  const now = b.now;
  const name = 'Lingua Franca Language School';
  const web = 'https://lingua-franca.example';
  b.setEducator({
    slug: 'lingua-franca-languages',
    name,
    bio: longBio(b.rng, name, b.vertical, b.city, 'New Town', web),
    cover_url: coverImage('languages'),
    logo_url: logoImage('languages'),
    address: { line1: '12 Queen Street', city: 'Edinburgh', postcode: 'EH2 1JE' },
    phone_number: '0131 496 0907',
    email: 'hola@lingua-franca.example',
    tos: termsHtml(name, 3, web),
    cancellation_allowed: 3,
    vat_settings: { enabled: true, is_vat_absorbed: true, tax_label: 'VAT', rate_bp: 2000 },
    color_brand: '#F2C14E',
    on_color_brand: '#1B1B1B',
    whitelabelling_enabled: true,
    links: { web, facebook: 'https://www.facebook.com/linguafrancaedinburgh', instagram: 'https://www.instagram.com/linguafranca.edi' },
    working_hours: {
      monday: [{ from: at(8), until: at(20) }], tuesday: [{ from: at(8), until: at(20) }], wednesday: [{ from: at(8), until: at(20) }],
      thursday: [{ from: at(8), until: at(20) }], friday: [{ from: at(8), until: at(17) }], saturday: [{ from: at(9), until: at(13) }], sunday: null,
    },
    created_at: now - 1200 * DAY,
  });
  const ctx = newContext();
  const edinburgh = b.location({ name: 'Edinburgh school', line1: '12 Queen Street', postcode: 'EH2 1JE' });
  const glasgow = b.location({ name: 'Glasgow classroom', city: city('Glasgow'), line1: '88 West George Street', postcode: 'G2 1PJ' });
  const aberdeen = b.location({ name: 'Aberdeen classroom', city: city('Aberdeen'), line1: '5 Union Terrace', postcode: 'AB10 1NJ' });
  ctx.locations.push(edinburgh, glasgow, aberdeen);
  ctx.faqIds.push(...b.vertical.faqs.map((f) => b.faq(f.question, f.answer)), b.faq(COMMON_FAQS[0].question, COMMON_FAQS[0].answer));

  const spanish = b.course({
    ...described(b, 'Spanish for Beginners (A1)', 'class', 'Beginner'),
    slug: 'spanish-for-beginners-a1',
    delivery_modes: ['hybrid'],
    img_urls: [courseImage('languages', 1), courseImage('languages', 2)],
    faq_ids: ctx.faqIds.slice(0, 2),
    spaces: 12,
    course_duration: 90,
  });
  useAddress(spanish, edinburgh);
  for (const day of [7, 35, 63, 91]) b.occurrence(spanish, { day, hour: 18, minutes: 90, delivery: 'hybrid', available: 12 - (day % 5) });
  b.offer(spanish, null, { name: 'Ten-week course', price: 22000 });
  b.offer(spanish, null, { name: 'Concession', price: 18000 });

  const french = b.course({
    ...described(b, 'Conversational French Online', 'class', 'Intermediate'),
    slug: 'conversational-french-online',
    delivery_modes: ['online'],
    img_urls: [courseImage('languages', 3)],
    spaces: 8,
    course_duration: 60,
  });
  for (const day of [2, 9, 16, 23]) b.occurrence(french, { day, hour: 12, minutes: 60, delivery: 'online', available: 8 });
  b.offer(french, null, { name: 'Single session', price: 1800 });

  const italian = b.course({
    ...described(b, 'Italian Immersion Weekend', null, 'Advanced'),
    slug: 'italian-immersion-weekend',
    img_urls: [courseImage('languages', 4)],
    spaces: 10,
    course_duration: 720,
  });
  useAddress(italian, glasgow);
  for (const day of [26, 82]) b.occurrence(italian, { day, hour: 9, minute: 30, minutes: 720, end: londonTime(now, day + 1, 16, 30), address: glasgow.address, available: 10 });
  b.offer(italian, null, { name: 'Weekend place', price: 24000 });

  // 04: on-request, educator travels internationally, student travel to three locations, own payment options.
  const inCompany = b.course({
    ...described(b, 'In-Company Language Training', 'programme', 'All'),
    slug: 'in-company-language-training',
    type: 'on-request',
    delivery_modes: ['online', 'in-person'],
    img_urls: [courseImage('languages', 2), courseImage('languages', 3), courseImage('languages', 1)],
    spaces: null,
    course_duration: 90,
    duration_pricing: [
      { _id: 'dur_0005_04_1', duration: 90, label: 'Standard lesson', description: 'Up to 8 learners', extra_cost: null },
      { _id: 'dur_0005_04_2', duration: 180, label: 'Half-day intensive', description: 'Includes course materials', extra_cost: 9000 },
      { _id: 'dur_0005_04_3', duration: 1440, label: 'Immersion day', description: null, extra_cost: 30000 },
    ],
    available_for_online_delivery: true,
    available_for_in_person_delivery: true,
    educator_travel_settings: { enabled: true, type: 'Internationally' },
    student_travel_settings: { enabled: true, locations: [edinburgh.id, glasgow.id, aberdeen.id] },
  });
  useAddress(inCompany, edinburgh);
  b.offer(inCompany, null, { name: 'Per learner per session', price: 6000 });

  // 05: restricted to the school's alumni.
  const german = b.course({
    ...described(b, 'Business German for Alumni', 'class', 'Advanced'),
    slug: 'business-german-alumni',
    delivery_modes: ['online'],
    img_urls: [courseImage('languages', 1)],
    spaces: 10,
    course_duration: 90,
    restricted: true,
  });
  for (const day of [13, 41]) b.occurrence(german, { day, hour: 17, minutes: 90, delivery: 'online', available: 10 });
  b.offer(german, null, { name: 'Alumni place', price: 15000 });

  const mandarin = b.course({
    ...described(b, 'Mandarin Chinese Self-Study', 'course', 'Beginner'),
    slug: 'mandarin-chinese-self-study',
    type: 'on-demand',
    delivery_modes: ['on-demand'],
    img_urls: [courseImage('languages', 4)],
    spaces: null,
    course_duration: 600,
  });
  b.offer(mandarin, null, { name: 'Twelve months access', price: 4900 });
  b.sections(mandarin, [
    { name: 'Pinyin and tones', lessons: ['The four tones', 'Initials and finals'] },
    { name: 'Everyday Mandarin', lessons: ['Greetings', 'Numbers and money', 'Ordering food'] },
    { name: 'Characters', lessons: ['Radicals', 'Your first 50 characters'] },
  ]);

  // 07: no level, no keyword, no image.
  const japanese = b.course({
    ...described(b, 'Japanese Taster Session', null, null),
    slug: 'japanese-taster-session',
    autoimg: { url: autoImage('languages'), author: 'Priya Shah' },
    spaces: 16,
    course_duration: 120,
  });
  useAddress(japanese, edinburgh);
  b.occurrence(japanese, { day: 17, hour: 11, minutes: 120, available: 16 });
  b.offer(japanese, null, { name: 'Taster', price: 2500 });

  fillers(b, ctx, [spanish, french, italian, inCompany, german, mandarin, japanese], 2);

  [
    { age: AGE.months2, rating: 5, source: 'trustpilot' as const, name: 'Euan Reid', message: 'Professional and friendly, my Spanish improved fast.' },
    { age: AGE.year1, rating: 4, source: 'trustpilot' as const, name: 'Alfie Wilson', message: 'Great teachers, the website could be easier.' },
    { age: AGE.weeks3, rating: 5, course: spanish, breakdown: FULL(5, 5, 4, 4, 5, 5), name: 'Chloe M.', message: 'Hybrid option is brilliant when I travel for work.' },
    { age: AGE.months4, rating: 4, course: spanish, name: 'James Kelly', message: 'Good pace, friendly group.' },
    { age: AGE.days10, rating: 5, course: inCompany, name: 'Priya Patel', message: 'They ran sessions for our Lisbon office. Superb.', response: 'Obrigado Priya!' },
  ].forEach((r) => b.review(r));

  b.paymentOptions({
    card: true, paypal: true, klarna: true, invoice: true, manual: true,
    manual_label: 'Pay at reception', manual_message: 'Pay at our Edinburgh reception before your first lesson.',
  });
  b.paymentOptions({ course: inCompany, card: false, invoice: true, invoice_due_days: 30 });
}

// ---------------------------------------------------------------------------------------------
// 6. Saffron Kitchen: courses without images (auto image), one image, many; an unpublished course
//    with a review; add-ons; no category; no payment options stored (card only).

function saffron(b: EducatorBuilder): void {
  const now = b.now;
  const name = 'Saffron Kitchen Cookery School';
  const web = 'https://saffron-kitchen.example';
  b.setEducator({
    slug: 'saffron-kitchen-cookery-school',
    name,
    bio: mediumBio(b.rng, name, b.vertical, b.city),
    cover_url: coverImage('cookery'),
    logo_url: logoImage('cookery'),
    address: { line1: 'The Old Dairy, 14 Granary Yard', city: 'Leeds', postcode: 'LS11 5QP' },
    phone_number: '0113 496 0456',
    email: 'cook@saffron-kitchen.example',
    tos: termsHtml(name, 2, web),
    cancellation_allowed: 2,
    links: { web, instagram: 'https://www.instagram.com/saffronkitchenleeds', facebook: 'https://www.facebook.com/saffronkitchenleeds' },
    working_hours: {
      tuesday: [{ from: at(10), until: at(22) }], wednesday: [{ from: at(10), until: at(22) }], thursday: [{ from: at(10), until: at(22) }],
      friday: [{ from: at(10), until: at(23) }], saturday: [{ from: at(9), until: at(23) }],
    },
    created_at: now - 1100 * DAY,
  });
  const ctx = newContext();
  const kitchen = b.location({ name: 'Saffron Kitchen', line1: 'The Old Dairy, 14 Granary Yard', postcode: 'LS11 5QP' });
  ctx.locations.push(kitchen);
  const faqs = b.vertical.faqs.map((f) => b.faq(f.question, f.answer));
  ctx.faqIds.push(...faqs);

  const cls = (courseName: string, slug: string, extra: Partial<CourseRef['row']>, days: number[], priceP: number, minutes: number, keyword: string | null = 'class') => {
    const c = b.course({ ...described(b, courseName, keyword, 'All'), slug, spaces: 12, course_duration: minutes, faq_ids: faqs, ...extra });
    useAddress(c, kitchen);
    for (const day of days) b.occurrence(c, { day, hour: 18, minutes, available: 12 - (day % 4) });
    b.offer(c, null, { name: 'Standard', price: priceP });
    return c;
  };
  const streetFood = cls('Indian Street Food Masterclass', 'indian-street-food-masterclass', { autoimg: { url: autoImage('cookery'), author: 'Alex Morgan' } }, [5, 19, 47], 8500, 180);
  const sourdough = cls('Sourdough Bread Baking', 'sourdough-bread-baking', { img_urls: [courseImage('cookery', 2)], level: 'Beginner' }, [8, 36], 9500, 240);
  const knife = cls('Knife Skills Workshop', 'knife-skills-workshop', { autoimg: { url: autoImage('cookery'), author: 'Ruth Campbell' } }, [12, 40], 6500, 150, 'workshop');
  const vegan = cls('Vegan Christmas Feast', 'vegan-christmas-feast', { img_urls: [courseImage('cookery', 4)], published: false }, [70], 9000, 240);
  const pasta = cls('Fresh Pasta Making', 'fresh-pasta-making', { img_urls: [1, 2, 3].map((n) => courseImage('cookery', n)) }, [3, 17, 31], 7500, 180);
  b.addOn(pasta, null, { name: 'Take-home pasta kit', price: 1200 });
  b.addOn(pasta, null, { name: 'Wine pairing', price: 1500, description: 'Three Italian wines matched to your dishes' });
  b.addOn(pasta, `occ_${b.key}_${pasta.key}_01`, { name: 'Birthday cake for the table', price: 2000 });

  // No category; a price range with offers at both ends.
  const supper = b.course({
    ...described(b, 'Supper Club Pop-up', null, 'All'),
    slug: 'supper-club-pop-up',
    category_id: null,
    img_urls: [courseImage('cookery', 1)],
    spaces: 24,
    pricing_type: 'price-range',
    minimum_price: 4500,
    maximum_price: 6500,
    course_duration: 180,
  });
  useAddress(supper, kitchen);
  for (const day of [13, 41]) b.occurrence(supper, { day, hour: 19, minute: 30, minutes: 180, available: 20 });
  b.offer(supper, null, { name: 'Supper', price: 4500 });
  b.offer(supper, null, { name: 'Supper with wine flight', price: 6500 });

  fillers(b, ctx, [streetFood, sourdough, knife, vegan, pasta, supper], 3);

  [
    { age: AGE.weeks3, rating: 5, course: streetFood, name: 'Aisha N.', message: 'Best chaat I have ever made.' },
    { age: AGE.months2, rating: 4, course: pasta, name: 'Callum Wright', message: 'Great fun, lots of pasta to take home.' },
    { age: AGE.months10, rating: 5, course: sourdough, name: 'Sophie Hall', message: 'My loaves finally have an ear!' },
    { age: AGE.year1, rating: 4, course: vegan, name: 'Jack Brown', message: 'A lovely festive evening.' },
    { age: AGE.days3, rating: 5, source: 'facebook' as const, name: 'Grace Edwards', message: 'Amazing team, booked again for my mum.' },
    { age: AGE.years2, rating: 3, source: 'facebook' as const, name: 'Tom White', message: 'Food was good, parking was not.' },
  ].forEach((r) => b.review(r));
}

// ---------------------------------------------------------------------------------------------
// 7. Northern Lights Photography: unclaimed listing (claim link), no logo or cover (fallbacks),
//    no e-mail, no working hours.

function northernLights(b: EducatorBuilder): void {
  b.setEducator({
    slug: 'northern-lights-photography',
    name: 'Northern Lights Photography',
    bio: shortBio(b.vertical, b.city),
    address: { line1: '40 Argyle Street', city: 'Glasgow', postcode: 'G2 8AT' },
    phone_number: '0141 496 0275',
    claimed: false,
    links: { web: 'https://northern-lights-photography.example' },
    created_at: b.now - 300 * DAY,
  });
  const ctx = newContext();
  ctx.locations.push(b.location({ name: null, line1: '40 Argyle Street', postcode: 'G2 8AT' }));
  fillCourses(b, ctx, 5);
  b.review({ age: AGE.months4, rating: 5, source: 'googlemaps', name: 'Finn Doyle', message: 'Learned so much on the night photography walk.' });
  b.review({ age: AGE.years2, rating: 4, source: 'googlemaps', name: 'Megan Price', message: 'Knowledgeable and patient.' });
}

// ---------------------------------------------------------------------------------------------
// 8. Harmony Music Academy: cannot be contacted (no Contact button), no reviews at all, a course
//    whose dates mix in-person and online.

function harmony(b: EducatorBuilder): void {
  const name = 'Harmony Music Academy';
  b.setEducator({
    slug: 'harmony-music-academy',
    name,
    bio: mediumBio(b.rng, name, b.vertical, b.city),
    cover_url: coverImage('music'),
    logo_url: logoImage('music'),
    address: { line1: '9 Womanby Street', city: 'Cardiff', postcode: 'CF10 1BR' },
    phone_number: '029 2018 0614',
    email: 'lessons@harmony-music.example',
    can_be_contacted: false,
    cancellation_allowed: 1,
    links: { web: 'https://harmony-music.example', youtube: 'https://www.youtube.com/@harmonymusiccardiff', instagram: 'https://www.instagram.com/harmonymusiccardiff' },
    working_hours: rngHours(),
    created_at: b.now - 800 * DAY,
  });
  const ctx = newContext();
  ctx.locations.push(b.location({ name: 'Harmony studios', line1: '9 Womanby Street', postcode: 'CF10 1BR' }));
  ctx.faqIds.push(...b.vertical.faqs.map((f) => b.faq(f.question, f.answer)));
  const guitar = b.course({
    ...described(b, 'Guitar for Absolute Beginners', 'class', 'Beginner'),
    slug: 'guitar-for-absolute-beginners',
    delivery_modes: ['in-person', 'online'],
    img_urls: [courseImage('music', 1)],
    spaces: 8,
    course_duration: 60,
  });
  useAddress(guitar, ctx.locations[0]);
  // Alternate dates in the studio and online: a course with several delivery types.
  for (const [i, day] of [4, 11, 18, 25].entries()) {
    b.occurrence(guitar, { day, hour: 18, minutes: 60, delivery: i % 2 === 0 ? 'in-person' : 'online', available: 8 - (day % 3) });
  }
  b.offer(guitar, null, { name: 'Single lesson', price: 1800 });
  const piano = b.course({
    ...described(b, 'Piano Foundations (Self-Paced)', null, 'Beginner'),
    slug: 'piano-foundations-self-paced',
    type: 'on-demand',
    delivery_modes: ['on-demand'],
    img_urls: [courseImage('music', 2), courseImage('music', 3)],
    spaces: null,
    course_duration: 240,
  });
  b.offer(piano, null, { name: 'Full access', price: 3900 });
  b.sections(piano, [
    { name: 'Getting started', lessons: ['Posture and hand position', 'Finding middle C'] },
    { name: 'First pieces', lessons: ['Ode to Joy', 'Simple chords', 'Playing with both hands'] },
  ]);
  fillers(b, ctx, [guitar, piano], 4);
}

function rngHours() {
  return {
    monday: [{ from: at(15), until: at(21) }], tuesday: [{ from: at(15), until: at(21) }], wednesday: [{ from: at(15), until: at(21) }],
    thursday: [{ from: at(15), until: at(21) }], friday: [{ from: at(15), until: at(19) }], saturday: [{ from: at(9), until: at(17) }], sunday: null,
  };
}

// ---------------------------------------------------------------------------------------------
// 9. RoadReady Driving Theory: claimed but with no published courses (no Courses carousel);
//    educator-level reviews only.

function roadReady(b: EducatorBuilder): void {
  const name = 'RoadReady Driving Theory';
  b.setEducator({
    slug: 'roadready-driving-theory',
    name,
    bio: mediumBio(b.rng, name, b.vertical, b.city),
    cover_url: coverImage('driving-theory'),
    logo_url: logoImage('driving-theory'),
    address: { line1: '27 Bold Street', city: 'Liverpool', postcode: 'L1 4DN' },
    phone_number: '0151 496 0833',
    email: 'pass@roadready.example',
    links: { web: 'https://roadready.example', facebook: 'https://www.facebook.com/roadreadyliverpool' },
    working_hours: WORKDAYS_9_TO_5,
    created_at: b.now - 500 * DAY,
  });
  const loc = b.location({ name: 'RoadReady classroom', line1: '27 Bold Street', postcode: 'L1 4DN' });
  const crash = b.course({
    ...described(b, 'Theory Test Crash Course', 'course', 'Beginner'),
    slug: 'theory-test-crash-course',
    img_urls: [courseImage('driving-theory', 1)],
    spaces: 20,
    course_duration: 360,
    published: false,
  });
  useAddress(crash, loc);
  b.occurrence(crash, { day: 15, hour: 9, minute: 30, minutes: 360, available: 20 });
  b.offer(crash, null, { name: 'Standard', price: 4900 });
  const hazard = b.course({
    ...described(b, 'Hazard Perception Practice', null, 'Beginner'),
    slug: 'hazard-perception-practice',
    type: 'on-demand',
    delivery_modes: ['on-demand'],
    img_urls: [courseImage('driving-theory', 2)],
    spaces: null,
    published: false,
  });
  b.offer(hazard, null, { name: 'Full access', price: 1900 });
  b.sections(hazard, [{ name: 'Clips', lessons: ['Urban roads', 'Country lanes', 'Motorways'] }]);
  [
    { age: AGE.weeks6, rating: 5, name: 'Ellie Thomas', message: 'Passed first time thanks to RoadReady!' },
    { age: AGE.months7, rating: 4, name: 'Joe Smith', message: 'Useful crash course.' },
    { age: AGE.years2, rating: 5, name: 'Zara Okafor', message: 'Patient and encouraging.' },
  ].forEach((r) => b.review(r));
}

const WORKDAYS_9_TO_5 = {
  monday: [{ from: at(9), until: at(17) }], tuesday: [{ from: at(9), until: at(17) }], wednesday: [{ from: at(9), until: at(17) }],
  thursday: [{ from: at(9), until: at(17) }], friday: [{ from: at(9), until: at(17) }], saturday: null, sunday: null,
};

// ---------------------------------------------------------------------------------------------
// 10. Boardroom Business Skills: guests captured with a guest form, approval-required courses,
//     a course-wide offer whose sale window closes soon, card + invoice, an invalid social link.

// eslint-disable-next-line max-lines-per-function -- seed data: one educator's catalogue reads best in one place
function boardroom(b: EducatorBuilder): void {
  const now = b.now;
  const name = 'Boardroom Business Skills';
  const web = 'https://boardroom-skills.example';
  b.setEducator({
    slug: 'boardroom-business-skills',
    name,
    bio: longBio(b.rng, name, b.vertical, b.city, 'Mill Road', web),
    cover_url: coverImage('business'),
    logo_url: logoImage('business'),
    address: { line1: 'First Floor, Corn Exchange, 3 Wheeler Street', city: 'Cambridge', postcode: 'CB2 3QB' },
    phone_number: '07700 900415',
    email: 'training@boardroom-skills.example',
    tos: termsHtml(name, 2, web),
    cancellation_allowed: 2,
    vat_settings: { enabled: true, is_vat_absorbed: false, tax_label: 'VAT', rate_bp: 2000 },
    color_brand: '#0F766E',
    links: { web, linkedin: 'https://www.linkedin.com/company/boardroom-business-skills', twitter: 'not a url' },
    working_hours: WORKDAYS_9_TO_5,
    enquiry_types: [{ label: 'In-house training quote' }, { label: 'Public course question' }],
    created_at: now - 1800 * DAY,
  });
  const ctx = newContext();
  const venue = b.location({ name: 'Corn Exchange training rooms', line1: 'First Floor, Corn Exchange, 3 Wheeler Street', postcode: 'CB2 3QB' });
  ctx.locations.push(venue);
  ctx.faqIds.push(...b.vertical.faqs.map((f) => b.faq(f.question, f.answer)));
  const booker = b.form('booker', 'Delegate booking form', [
    ...SYSTEM_FIELDS,
    { id: 'company', label: 'Company', data_type: 'text', required: true },
    { id: 'job_title', label: 'Job title', data_type: 'text' },
    { id: 'po_number', label: 'Purchase order number', data_type: 'text', description: 'If your organisation needs one on the invoice.' },
    { id: 'educator_marketing_consent', label: 'Email me about new courses', data_type: 'boolean' },
  ]);
  const guest = b.form('guest', 'Delegate details', [
    ...SYSTEM_FIELDS,
    { id: 'job_title', label: 'Job title', data_type: 'text', required: true },
  ]);
  b.educator.form_ref = booker;

  const presentation = b.course({
    ...described(b, 'Presentation Skills Masterclass', 'workshop', 'All'),
    slug: 'presentation-skills-masterclass',
    img_urls: [courseImage('business', 1), courseImage('business', 2)],
    faq_ids: ctx.faqIds.slice(0, 1),
    spaces: 12,
    course_duration: 360,
    form_ref: booker,
    capture_guests: true,
    guest_form_ref: guest,
  });
  useAddress(presentation, venue);
  for (const day of [16, 44, 72]) b.occurrence(presentation, { day, hour: 9, minute: 30, minutes: 360, available: 12 - (day % 5) });
  b.offer(presentation, null, { name: 'Standard', price: 39500 });
  b.offer(presentation, null, { name: 'Early booking', price: 34500, end_at: now + 10 * DAY });
  b.offer(presentation, null, { name: 'Team of three', price: 99000, spaces: 3 });

  const manager = b.course({
    ...described(b, 'First-Time Manager Programme', 'programme', 'Beginner'),
    slug: 'first-time-manager-programme',
    type: 'blended',
    img_urls: [courseImage('business', 3)],
    spaces: 16,
    pricing_type: 'price-range',
    minimum_price: 89500,
    maximum_price: 129500,
    course_duration: 360,
    approval_required: true,
    form_ref: booker,
  });
  useAddress(manager, venue);
  for (const day of [30, 120]) b.occurrence(manager, { day, hour: 9, minutes: 360, end: londonTime(now, day + 42, 16, 30), available: 16 });
  b.offer(manager, null, { name: 'Self-funded', price: 89500 });
  b.offer(manager, null, { name: 'Organisation-funded', price: 129500 });
  b.sections(manager, [
    { name: 'Module 1: Leading yourself', lessons: ['Your management style', 'Time and priorities'] },
    { name: 'Module 2: Leading others', lessons: ['Delegation', 'Feedback conversations', 'Running one-to-ones'] },
    { name: 'Module 3: Leading change', lessons: ['Communicating change', 'Handling resistance'] },
  ]);

  const excel = b.course({
    ...described(b, 'Excel for Business', null, 'Intermediate'),
    slug: 'excel-for-business',
    delivery_modes: ['online'],
    img_urls: [courseImage('business', 4)],
    spaces: 20,
    course_duration: 360,
  });
  for (const day of [9, 23, 58]) b.occurrence(excel, { day, hour: 9, minute: 30, minutes: 360, delivery: 'online', available: 20 });
  b.offer(excel, null, { name: 'Standard', price: 19500 });

  const negotiation = b.course({
    ...described(b, 'Negotiation Masterclass', 'workshop', 'Advanced'),
    slug: 'negotiation-masterclass',
    img_urls: [courseImage('business', 2)],
    spaces: 10,
    course_duration: 360,
    approval_required: true,
  });
  useAddress(negotiation, venue);
  b.occurrence(negotiation, { day: 37, hour: 9, minute: 30, minutes: 360, available: 10 });
  b.offer(negotiation, null, { name: 'Standard', price: 49500 });

  const inHouse = b.course({
    ...described(b, 'In-House Leadership Training', null, 'All'),
    slug: 'in-house-leadership-training',
    type: 'on-request',
    delivery_modes: ['online', 'in-person'],
    img_urls: [courseImage('business', 1)],
    spaces: null,
    pricing_type: 'price-on-enquiry',
    course_duration: 360,
    duration_pricing: [
      { _id: 'dur_0010_05_1', duration: 360, label: 'Full day', description: null, extra_cost: null },
      { _id: 'dur_0010_05_2', duration: 720, label: 'Two half-days', description: 'Two sessions a week apart', extra_cost: 25000 },
    ],
    available_for_online_delivery: true,
    available_for_in_person_delivery: true,
    educator_travel_settings: { enabled: true, type: 'UK Wide' },
  });

  fillers(b, ctx, [presentation, manager, excel, negotiation, inHouse], 3);

  [
    { age: AGE.days10, rating: 5, course: presentation, breakdown: FULL(5, 5, 5, 5, 4, 5), name: 'Gareth Morgan', message: 'I actually enjoyed presenting afterwards.' },
    { age: AGE.weeks6, rating: 4, course: presentation, breakdown: FULL(4, 5, 4, 3, 4, 4), name: 'Hannah Clarke', message: 'Practical and well paced.' },
    { age: AGE.months4, rating: 5, course: manager, breakdown: FULL(5, 5, 5, 5, 5, 5), name: 'Samir Khan', message: 'Essential for any new manager.' },
    { age: AGE.year1, rating: 4, course: excel, name: 'Ruth Murphy', message: 'Pivot tables finally make sense.' },
    { age: AGE.months2, rating: 5, name: 'Oliver Singh', message: 'We use Boardroom for all our training now.' },
    { age: AGE.years3, rating: 3, name: 'Declan Kelly', message: 'Content good, venue too warm.', response: 'Thanks Declan, the air conditioning has been replaced.' },
  ].forEach((r) => b.review(r));

  b.voucher({ code: 'TEAM20', kind: 'percent', amount: 20, course: presentation, max_uses: 50, uses: 7 });
  b.paymentOptions({ card: true, invoice: true, invoice_due_days: 30 });
}

// ---------------------------------------------------------------------------------------------
// 11 and 12: fixed names and slugs, otherwise generated like any other educator.

function randomWith(name: string, slug: string, area: string) {
  return (b: EducatorBuilder) => randomEducator(b, { name, slug, vertical: b.vertical, city: b.city, area });
}

export const SHOWCASE: ShowcaseEducator[] = [
  { slug: 'clay-and-kiln-pottery', vertical: 'pottery', city: 'London', build: clayAndKiln },
  { slug: 'codeforge-academy', vertical: 'coding', city: 'Manchester', build: codeforge },
  { slug: 'lifeline-first-aid-training', vertical: 'first-aid', city: 'Birmingham', build: lifeline },
  { slug: 'stillwater-yoga', vertical: 'yoga', city: 'Bristol', build: stillwater },
  { slug: 'lingua-franca-languages', vertical: 'languages', city: 'Edinburgh', build: linguaFranca },
  { slug: 'saffron-kitchen-cookery-school', vertical: 'cookery', city: 'Leeds', build: saffron },
  { slug: 'northern-lights-photography', vertical: 'photography', city: 'Glasgow', build: northernLights },
  { slug: 'harmony-music-academy', vertical: 'music', city: 'Cardiff', build: harmony },
  { slug: 'roadready-driving-theory', vertical: 'driving-theory', city: 'Liverpool', build: roadReady },
  { slug: 'boardroom-business-skills', vertical: 'business', city: 'Cambridge', build: boardroom },
  { slug: 'brushstroke-art-studio', vertical: 'painting', city: 'Brighton', build: randomWith('Brushstroke Art Studio', 'brushstroke-art-studio', 'North Laine') },
  { slug: 'greenfingers-garden-school', vertical: 'gardening', city: 'York', build: randomWith('Greenfingers Garden School', 'greenfingers-garden-school', 'Bishophill') },
].map((s, i) => ({
  n: i + 1,
  id: `edu_${String(i + 1).padStart(4, '0')}`,
  slug: s.slug,
  vertical: VERTICAL_BY_KEY[s.vertical],
  city: city(s.city),
  build: s.build,
}));

export const SHOWCASE_SLUGS: ReadonlySet<string> = new Set(SHOWCASE.map((s) => s.slug));
