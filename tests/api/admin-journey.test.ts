/**
 * The educator admin's journey through the real server and the admin API, as a new user makes it (the browser twin is
 * tests/e2e/admin-journey.test.ts): a new account signs up and creates its educator on the admin host, uploads an
 * image, makes a custom form, creates a course with two offers that asks it, adds a weekly series across the March
 * clock change (10:00 London on both sides) and publishes; the publisher (run here over a built site, as the server's
 * own worker runs it) puts the course on the marketplace, the minisite and the embed, the marketplace's with Course
 * structured data and its offers; a learner books a date and pays by test card, answering the form; the admin then
 * lowers a price and cancels that date (the learner refunded), and both show on every page. Another educator's admin
 * (and a learner, and nobody) is refused every one of the admin calls made. SQLite, and PostgreSQL with TEST_DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, expectGuarded, nextMarchClockChange, offeredDateIds as shownDates, type AdminFixture } from '../helpers/admin.ts';
import { builtSite, testPublisher, type TestPublisher } from '../helpers/admin-publish.ts';
import { cookieFrom, lastMailTo, sessionCookieFrom, signUpAndLogin, tokenFromMail, uniqueEmail, type SignedInUser } from '../helpers/auth.ts';
import { courseRichResultProblems, jsonLdBlocks as jsonLd } from '../helpers/course-rich-results.ts';
import { client, contactPayload, payWithCard, CARDS } from './checkout-fixtures.ts';
import { SIGNUP_NONCE_COOKIE } from '../../api/http/cookies.ts';

let server: TestServer;
let site: Awaited<ReturnType<typeof builtSite>>;
let publisher: TestPublisher;

beforeAll(async () => {
  [server, site] = await Promise.all([startTestServer({ ...ADMIN_ENV, RATE_LIMIT_LOGIN_PER_IP: '100000' }), builtSite()]);
  publisher = testPublisher(server, site.distDir);
}, 300_000);
afterAll(async () => {
  await publisher?.close();
  await server?.close();
  site?.cleanup();
});

const iso = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10);

/** Signs up as a new user would: the form, then the e-mailed link followed in the same browser (its nonce cookie). */
async function signUp(firstName: string, lastName: string): Promise<SignedInUser> {
  const email = uniqueEmail('journey');
  const res = await fetch(`${server.url}/api/auth/signup`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'a long enough password', firstName, lastName }),
  });
  expect(res.status).toBe(202);
  const mail = await lastMailTo(server.db, email);
  const verified = await fetch(`${server.url}/api/auth/magic-link/verify`, {
    method: 'POST', headers: { 'content-type': 'application/json', cookie: cookieFrom(res.headers.getSetCookie(), SIGNUP_NONCE_COOKIE) },
    body: JSON.stringify({ token: tokenFromMail(mail!.text_body) }),
  });
  expect(verified.status).toBe(200);
  const identity = (await verified.json()).identity as { userId: string; studentId: string; email: string };
  return { cookie: sessionCookieFrom(verified), user: { id: identity.userId, studentId: identity.studentId, email: identity.email } };
}

/** Creates an educator on the admin host, as the onboarding screen does. */
async function createEducator(user: SignedInUser, name: string, slug: string): Promise<string> {
  const res = await adminCall(server, user.cookie, 'POST', '/api/admin/educators', { name, slug, email: `hello@${slug}.example`, phone: '07700 900123', termsAccepted: true });
  expect(res.status, res.text).toBe(201);
  return res.json().id as string;
}

describe('an educator\u2019s journey, from sign-up to a booked, edited course on every page', { timeout: 120_000 }, () => {
  const stamp = Date.now().toString(36);
  const slug = `journey-kiln-${stamp}`;
  const courseSlug = 'raku-mornings';
  let admin: SignedInUser;
  let educatorId: string;
  /** Every admin call of the journey, tried again as others at the end. */
  const calls: Array<[string, string, unknown?]> = [];
  const call = async (method: string, path: string, body?: unknown) => {
    const full = `/api/admin/educators/${educatorId}${path}`;
    calls.push([method, full, body]);
    return adminCall(server, admin.cookie, method, full, body);
  };
  const files = () => ({
    marketplace: publisher.read(`${slug}/${courseSlug}/index.html`),
    minisite: publisher.read(`minisite/${slug}/${courseSlug}/index.html`),
    embed: publisher.read(`embed/${slug}/${courseSlug}/index.html`),
  });
  let courseId: string;
  let offers: { id: string; name: string; price: number }[];
  let dates: { id: string; start: number }[];
  let bookingId: string;
  let intakeForm: { id: string; fields: { id: string }[] };
  const { year, sunday } = nextMarchClockChange();

  it('signs up, creates its educator, and builds a course with an image, two offers, a custom form and a weekly series across the March clock change', async () => {
    admin = await signUp('Ada', 'Admin');
    const me = await adminCall(server, admin.cookie, 'GET', '/api/admin/me');
    expect(me.status, me.text).toBe(200);
    expect(me.json().educators).toEqual([]);
    educatorId = await createEducator(admin, 'Journey Kiln', slug);

    const form = new FormData();
    const photo = await sharp({ create: { width: 2400, height: 1350, channels: 3, background: '#b5651d' } }).jpeg().toBuffer();
    form.append('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'kiln.jpg');
    const uploaded = await fetch(`${server.url}/api/admin/educators/${educatorId}/course-images`, { method: 'POST', headers: { cookie: admin.cookie, origin: server.url }, body: form });
    expect(uploaded.status).toBe(201);
    calls.push(['POST', `/api/admin/educators/${educatorId}/course-images`, {}]);
    const image = (await uploaded.json()).url as string;

    const intake = await call('POST', '/forms', {
      name: 'Raku intake', fields: [{ label: 'Your experience', dataType: 'radio', items: ['None', 'Some', 'Lots'], required: true }],
    });
    expect(intake.status, intake.text).toBe(201);
    intakeForm = intake.json();

    const created = await call('POST', '/courses', {
      name: 'Raku Mornings', slug: courseSlug, type: 'class', delivery_modes: ['in-person'], spaces: 8, level: 'Beginner', course_duration: 90,
      pricing_type: 'price-offers', description: '<p>Fire your own pots in the morning light.</p>', img_urls: [image], form_ref: intakeForm.id,
      address: { line1: '12 Kiln Lane', city: 'Bristol', postcode: 'BS1 1AA' },
      offers: [{ name: 'Standard', price: 4500, spaces: 1 }, { name: 'Pair', price: 8000, spaces: 2 }],
    });
    expect(created.status, created.text).toBe(201);
    const course = created.json().course as { id: string; offers: { id: string; name: string; price: number }[] };
    courseId = course.id;
    offers = course.offers;
    expect(offers.map((o) => [o.name, o.price])).toEqual([['Standard', 4500], ['Pair', 8000]]);

    const series = await call('POST', `/courses/${courseId}/dates`, {
      kind: 'weekly', firstDate: iso(year, 3, sunday - 7), startTime: '10:00', endTime: '11:30', weekdays: ['sunday'], count: 3,
      delivery: 'in-person', address: { line1: '12 Kiln Lane', city: 'Bristol', postcode: 'BS1 1AA' }, spaces: 6,
    });
    expect(series.status, series.text).toBe(201);
    dates = series.json().dates;
    // 10:00 London: GMT before the last Sunday of March, BST from it.
    expect(dates.map((d) => d.start)).toEqual([Date.UTC(year, 2, sunday - 7, 10) / 1000, Date.UTC(year, 2, sunday, 9) / 1000, Date.UTC(year, 2, sunday + 7, 9) / 1000]);
  });

  it('publishes it, and within seconds it is on the marketplace, the minisite and the embed, with Course structured data on the marketplace', async () => {
    const published = await call('POST', `/courses/${courseId}/publish`, { revision: 1 });
    expect(published.status, published.text).toBe(200);
    expect((await call('GET', `/publish-status?courseId=${courseId}`)).json().live).toBe(false);
    const started = Date.now();
    await publisher.drain();
    // A bound for a loaded two-core machine: the pass itself takes well under a second here.
    expect(Date.now() - started).toBeLessThan(20_000);
    const status = (await call('GET', `/publish-status?courseId=${courseId}`)).json();
    expect(status).toMatchObject({ live: true, failing: 0, pages: { marketplace: `http://localhost:4321/${slug}/${courseSlug}` } });

    for (const [context, html] of Object.entries(files())) {
      expect(html, context).toContain('<h1 class="course-title">Raku Mornings</h1>');
      expect(html, context).toContain('£45');
      expect(shownDates(html!), context).toEqual(dates.map((d) => d.id));
      expect(jsonLd(html!).some((d) => d['@type'] === 'Course'), context).toBe(context === 'marketplace');
    }
    const data = jsonLd(files().marketplace!).find((d) => d['@type'] === 'Course')!;
    expect(courseRichResultProblems(data)).toEqual([]);
    expect(data).toMatchObject({ name: 'Raku Mornings', description: 'Fire your own pots in the morning light.' });
    expect((data.image as string[])[0]).toMatch(/\/api\/course-images\/img_[A-Za-z0-9_-]+\.webp$/);
    const marked = ([] as Array<Record<string, unknown>>).concat(data.offers as Record<string, unknown>);
    expect(marked.every((o) => o.priceCurrency === 'GBP' && o.category === 'Paid')).toBe(true);
    expect(marked.map((o) => String(o.price ?? o.lowPrice))).toContain('45.00');
  });

  it('a learner books the date after the clock change and pays by test card, answering the educator\u2019s form', async () => {
    const learner = await signUpAndLogin(server, { firstName: 'Lee', lastName: 'Learner' });
    const api = client(server, learner.cookie);
    const init = await api.initialise('booking', { courseId, occurrenceId: dates[1]!.id });
    expect(init.status, JSON.stringify(init.body)).toBe(201);
    const id = (init.body as { _id: string })._id;
    expect((await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: offers[0]!.id, quantity: 1 }], selectedAddons: [] })).status).toBe(200);
    const form = intakeForm;
    const refused = await api.submit(id, 'contact details filled', contactPayload(learner.user.email, { bookerFormId: form.id }));
    expect(refused.status, 'the required question unanswered').toBe(400);
    const contact = await api.submit(id, 'contact details filled', contactPayload(learner.user.email, {
      bookerFormId: form.id, bookerFormResponse: { system_first_name: 'Lee', system_last_name: 'Learner', system_email: learner.user.email, [form.fields[0]!.id]: 'Some' },
    }));
    expect(contact.body as object, JSON.stringify(contact.body)).toMatchObject({ currentStep: 'payment', totalCost: 4500 });
    const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(method.status, JSON.stringify(method.body)).toBe(200);
    expect((await payWithCard(server, method.body as never, CARDS.success)).status).toBe(200);
    const done = await api.submit(id, 'payment was successful', {});
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const booking = await server.db.selectFrom('bookings').selectAll().where('checkout_id', '=', id).executeTakeFirstOrThrow();
    bookingId = booking.id;
    expect(booking).toMatchObject({ status: 'confirmed', occurrence_id: dates[1]!.id, payment_state: 'paid', educator_id: educatorId });
    expect(Number(booking.total_cost)).toBe(4500);
    expect((booking.contact_details as { booker: { formResponse: Record<string, string> } }).booker.formResponse[form.fields[0]!.id]).toBe('Some');
    // The admin sees it.
    const listed = (await call('GET', `/bookings?courseId=${courseId}`)).json();
    expect(listed.bookings.map((b: { id: string }) => b.id)).toEqual([bookingId]);
  });

  it('the admin lowers a price and cancels the booked date: both show on every page, and the learner is refunded', async () => {
    const editable = (await call('GET', `/courses/${courseId}`)).json().course as Record<string, any>;
    const lowered = await call('PUT', `/courses/${courseId}`, { ...editable, offers: [{ ...editable.offers[0], price: 3900 }, editable.offers[1]] });
    expect(lowered.status, lowered.text).toBe(200);
    const detail = (await call('GET', `/bookings/${bookingId}`)).json();
    expect(detail.booking.occurrence.id).toBe(dates[1]!.id);
    const cancelled = await call('POST', `/occurrences/${dates[1]!.id}/cancel`, { refund: 'full', requestKey: `journey-${stamp}`, reason: 'The kiln is being repaired.' });
    expect(cancelled.status, cancelled.text).toBe(200);
    expect(cancelled.json()).toMatchObject({ cancelled: [{ bookingId, spacesReleased: 1, refund: { amount: 4500, status: 'succeeded' } }], failed: [] });
    const booking = await server.db.selectFrom('bookings').select('status').where('id', '=', bookingId).executeTakeFirstOrThrow();
    expect(booking.status).toBe('cancelled');
    const refunds = await server.db.selectFrom('refunds').select(['amount', 'status']).where('booking_id', '=', bookingId).execute();
    expect(refunds.map((r) => [Number(r.amount), r.status])).toEqual([[4500, 'succeeded']]);

    await publisher.drain();
    expect((await call('GET', `/publish-status?courseId=${courseId}`)).json().live).toBe(true);
    for (const [context, html] of Object.entries(files())) {
      expect(html, context).toContain('£39');
      expect(html, context).not.toContain('£45');
      expect(shownDates(html!), context).toEqual([dates[0]!.id, dates[2]!.id]);
    }
    const data = jsonLd(files().marketplace!).find((d) => d['@type'] === 'Course')!;
    expect(courseRichResultProblems(data)).toEqual([]);
    const marked = ([] as Array<Record<string, unknown>>).concat(data.offers as Record<string, unknown>);
    expect(marked.map((o) => String(o.price ?? o.lowPrice))).toContain('39.00');
    expect(JSON.stringify(data)).not.toContain('45.00');
  });

  it('another educator\u2019s admin (and a learner, and nobody) is refused every one of those admin calls', async () => {
    const otherAdmin = await signUp('Olly', 'Other');
    const otherEducatorId = await createEducator(otherAdmin, 'Other Kiln', `other-kiln-${stamp}`);
    const learner = await signUpAndLogin(server, { firstName: 'Lou', lastName: 'Learner' });
    const fx: AdminFixture = { educatorId, admin, otherEducatorId, otherAdmin, learner };
    expect(calls.length).toBeGreaterThanOrEqual(12);
    for (const [method, path, body] of calls) await expectGuarded(server, fx, method, path, body);
    // Nothing of it happened: the course is as its admin left it.
    const course = await server.db.selectFrom('courses').select(['revision', 'published']).where('id', '=', courseId).executeTakeFirstOrThrow();
    expect(course).toMatchObject({ published: true, revision: 3 });
    expect(await server.db.selectFrom('courses').select('id').where('educator_id', '=', educatorId).execute()).toHaveLength(1);
  });
});
