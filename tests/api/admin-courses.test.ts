/**
 * The educator admin's courses through the real server (api/admin/courses.ts, api/admin/course-images.ts), on SQLite
 * and on PostgreSQL (TEST_DATABASE_URL): every route refuses anyone but the educator's admins and another
 * educator's course id through this educator's URL (404); the editor's fields are checked one by one with the
 * spec's messages; what learners hold is respected (spaces booked, offers chosen, bookings to honour, the price a
 * learner at Payment was shown); stale saves answer 409; every change is in the course's audit log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { ADMIN_ENV, adminCall, adminFixture, expectGuarded, type AdminFixture } from '../helpers/admin.ts';
import { signUpAndLogin, type RawResponse } from '../helpers/auth.ts';
import { courseRow } from './public-fixtures.ts';
import { client, contactPayload, payWithCard, CARDS } from './checkout-fixtures.ts';

const DAY = 86_400;
let server: TestServer;
let fx: AdminFixture;
let base: string;
let otherCourseId: string;

beforeAll(async () => {
  server = await startTestServer({ ...ADMIN_ENV, RATE_LIMIT_LOGIN_PER_IP: '100000' });
  fx = await adminFixture(server, 'crs');
  base = `/api/admin/educators/${fx.educatorId}`;
  await server.db.insertInto('categories').values({ id: 'cat_adm_crs', slug: 'adm-crs-pottery', name: 'Pottery' }).execute();
  await server.db.insertInto('forms').values([
    { id: 'form_mine', educator_id: fx.educatorId, name: 'Booking questions' },
    { id: 'form_theirs', educator_id: fx.otherEducatorId, name: 'Their form' },
  ]).execute();
  await server.db.insertInto('locations').values([
    { id: 'loc_mine', educator_id: fx.educatorId, name: 'Studio', city: 'Bristol', formatted: 'Studio\n1 Kiln Lane\nBristol', address: { city: 'Bristol' }, lat: null, lng: null },
    { id: 'loc_theirs', educator_id: fx.otherEducatorId, name: 'Elsewhere', city: 'Leeds', formatted: 'Leeds', address: null, lat: null, lng: null },
  ]).execute();
  otherCourseId = `crs_other_${Date.now()}`;
  await server.db.insertInto('courses').values(courseRow({ id: otherCourseId, educator_id: fx.otherEducatorId, slug: 'their-course', name: 'Their course' })).execute();
}, 60_000);
afterAll(() => server?.close());

const now = () => Math.floor(Date.now() / 1000);
const call = (method: string, path: string, body?: unknown): Promise<RawResponse> => adminCall(server, fx.admin.cookie, method, `${base}${path}`, body);

function course(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Throwing on the Wheel',
    slug: `wheel-${Math.random().toString(36).slice(2, 8)}`,
    type: 'class',
    delivery_modes: ['in-person'],
    spaces: 8,
    pricing_type: 'price-offers',
    description: '<p>Centre, open and <strong>pull</strong> your first pots.</p><script>alert(1)</script>',
    offers: [{ name: 'Standard', price: 4500, spaces: 1 }],
    add_ons: [{ name: 'Apron', price: 500 }],
    ...overrides,
  };
}

async function create(overrides: Record<string, unknown> = {}) {
  const res = await call('POST', '/courses', course(overrides));
  expect(res.status, res.text).toBe(201);
  return res.json().course as { id: string; revision: number; slug: string; offers: { id: string; price: number }[]; add_ons: { id: string }[] } & Record<string, unknown>;
}

/** The editor's body for a save: what GET answered, with changes. */
async function editable(id: string) {
  const res = await call('GET', `/courses/${id}`);
  expect(res.status).toBe(200);
  return res.json().course as Record<string, any>;
}

async function occurrence(courseId: string, input: { start: number; spaces?: number | null; available?: number | null }) {
  const id = `occ_${Math.random().toString(36).slice(2, 10)}`;
  await server.db.insertInto('occurrences').values({
    id, course_id: courseId, visibility: 'public', start_datetime: input.start, end_datetime: input.start + 3 * 3600, timezone: 'Europe/London',
    delivery: 'in-person', address: null, spaces: input.spaces ?? null, available_spaces: input.available ?? null, parent_ref: null, individually_bookable: true,
  }).execute();
  return id;
}

let bookingCounter = 0;
async function booking(courseId: string, input: { occurrenceId: string | null; spaces: number; offerId?: string; status?: 'confirmed' | 'awaiting-approval' | 'cancelled'; end?: number }) {
  const id = `bkg_t${++bookingCounter}_${Date.now()}`;
  await server.db.insertInto('bookings').values({
    id, checkout_id: `chk_${id}`, flow: 'booking', course_id: courseId, educator_id: fx.educatorId, user_id: fx.learner.user.id,
    student_id: fx.learner.user.studentId, origin: 'marketplace',
    lines: { offers: input.offerId ? [{ offerId: input.offerId, name: 'Standard', quantity: input.spaces, price: 4500, spaces: 1 }] : [], addOns: [] },
    contact_details: {}, details: {}, total_cost: 4500, created_at: now(), status: input.status ?? 'confirmed', occurrence_id: input.occurrenceId,
    spaces: input.spaces, start_datetime: input.end ? input.end - 3600 : null, end_datetime: input.end ?? null,
    payment_method: 'card', payment_state: 'paid', payment_id: null, invoice_details: null, due_date: null, manual_note: null,
  }).execute();
  return id;
}

describe('who may use the course routes', () => {
  it('refuses nobody, learners and another educator\'s admin on every route', async () => {
    const mine = await create();
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/courses'], ['POST', '/courses', course()], ['GET', '/course-options'], ['GET', `/courses/${mine.id}`],
      ['PUT', `/courses/${mine.id}`, { ...course(), revision: 1 }], ['POST', `/courses/${mine.id}/publish`, { revision: 1 }],
      ['POST', `/courses/${mine.id}/unpublish`, { revision: 1 }], ['POST', `/courses/${mine.id}/duplicate`, {}],
      ['DELETE', `/courses/${mine.id}?revision=1`], ['POST', '/course-images', {}],
    ];
    for (const [method, path, body] of routes) await expectGuarded(server, fx, method, `${base}${path}`, body);
    // Nothing of it happened.
    expect((await editable(mine.id)).revision).toBe(1);
  });

  it('answers 404 for another educator\'s course through this educator\'s URL, and changes nothing', async () => {
    for (const [method, path, body] of [
      ['GET', `/courses/${otherCourseId}`], ['PUT', `/courses/${otherCourseId}`, { ...course(), revision: 1 }],
      ['POST', `/courses/${otherCourseId}/publish`, { revision: 1 }], ['POST', `/courses/${otherCourseId}/unpublish`, { revision: 1 }],
      ['POST', `/courses/${otherCourseId}/duplicate`, {}], ['DELETE', `/courses/${otherCourseId}?revision=1`],
    ] as Array<[string, string, unknown?]>) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const theirs = await server.db.selectFrom('courses').selectAll().where('id', '=', otherCourseId).executeTakeFirstOrThrow();
    expect(theirs).toMatchObject({ name: 'Their course', published: true, revision: 1 });
    expect(await server.db.selectFrom('courses').select('id').where('educator_id', '=', fx.educatorId).where('name', 'like', 'Their course%').execute()).toEqual([]);
  });
});

describe('creating and editing', () => {
  it('creates a draft with every field, sanitising the description, and records it', async () => {
    const created = await create({
      name: 'Raku Weekend', slug: 'raku-weekend', level: 'Intermediate', category_id: 'cat_adm_crs', keyword: 'workshop',
      meta_description: 'Two days of raku firing.', form_ref: 'form_mine', capture_guests: true, guest_form_ref: 'form_mine', approval_required: true,
      restricted: true, restricted_emails: ['Ada@Example.com'], course_duration: 960, address: { line1: '1 Kiln Lane', city: 'Bristol', postcode: 'BS1 1AA' },
      offers: [{ name: 'Standard', price: 19500, spaces: 1, description: 'One wheel', start_at: now() - DAY, end_at: now() + 30 * DAY }, { name: 'Pair', price: 35000, spaces: 2 }],
      faqs: [{ question: 'Do I need experience?', answer: '<p>None at all.</p><img src=x onerror=alert(1)>' }],
      sections: [{ name: 'Day one', lessons: [{ name: 'Glazing' }, { name: 'Firing' }] }],
      student_travel_settings: { enabled: true, locations: ['loc_mine'] },
    });
    expect(created).toMatchObject({
      name: 'Raku Weekend', slug: 'raku-weekend', published: false, revision: 1, level: 'Intermediate', keyword: 'workshop', form_ref: 'form_mine',
      guest_form_ref: 'form_mine', capture_guests: true, approval_required: true, restricted: true, restricted_emails: ['ada@example.com'],
      course_duration: 960, address: { line1: '1 Kiln Lane', line2: null, city: 'Bristol', postcode: 'BS1 1AA' },
      student_travel_settings: { enabled: true, locations: ['loc_mine'] },
    });
    expect(created.description).toBe('<p>Centre, open and <strong>pull</strong> your first pots.</p>');
    expect((created.faqs as { answer: string }[])[0]!.answer).toBe('<p>None at all.</p>');
    expect((created.sections as { lessons: { name: string }[] }[])[0]!.lessons.map((l) => l.name)).toEqual(['Glazing', 'Firing']);
    expect(created.offers.map((o) => o.price)).toEqual([19500, 35000]);
    const changes = (await call('GET', `/changes?entity=course&entityId=${created.id}`)).json().changes;
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ action: 'create', by: { name: 'Ada Admin' }, revision: 1 });
    expect(changes[0].fields).toEqual(expect.arrayContaining(['name', 'slug', 'offers']));
  });

  it('answers each field\'s problem in the spec\'s words', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: '' }, 'name', 'Name is required'],
      [{ slug: 'Not A Slug' }, 'slug', 'Web address must be lower-case letters, digits and single hyphens, starting and ending with a letter or digit'],
      [{ slug: 'reviews' }, 'slug', 'Web address is the address of another page of your site; choose another'],
      [{ spaces: -1 }, 'spaces', 'Spaces must be at least 0'],
      [{ type: 'seminar' }, 'type', 'Type must be class, blended, on-demand or on-request'],
      [{ delivery_modes: [] }, 'delivery_modes', 'Delivery must include at least one way the course is delivered'],
      [{ offers: [{ name: 'Standard', price: 12.5 }] }, 'offers.0.price', 'Offer 1 price must be a whole number of pence'],
      [{ offers: [{ price: 100 }] }, 'offers.0.name', 'Offer 1 name is required'],
      [{ offers: [{ name: 'Early', price: 100, start_at: 2_000_000_000, end_at: 1_900_000_000 }] }, 'offers.0.end_at', 'Offer 1 sale end must be after the sale start'],
      [{ offers: [{ name: 'Standard', price: 100, spaces: 0 }] }, 'offers.0.spaces', 'Offer 1 spaces per booking must be at least 1'],
      [{ pricing_type: 'price-range', minimum_price: 5000 }, 'maximum_price', 'Maximum price is required for a price range'],
      [{ pricing_type: 'price-range', minimum_price: 5000, maximum_price: 4000 }, 'maximum_price', 'Maximum price must be at least the minimum price'],
      [{ pricing_type: 'free' }, 'offers.0.price', 'Offer 1 price must be £0.00 on a free course (the checkout takes no payment for it)'],
      [{ type: 'on-request', delivery_modes: ['on-request'] }, 'available_for_online_delivery',
        'Online delivery needs online delivery, you travelling to learners, or learners travelling to one of your locations: without one the checkout answers "No delivery options available"'],
      [{ student_travel_settings: { enabled: true, locations: [] } }, 'student_travel_settings.locations', 'Your locations must include at least one of your locations'],
      [{ restricted: true, restricted_emails: ['nobody'] }, 'restricted_emails.0', 'Address 1 Email address must contain an @ symbol'],
      [{ form_ref: 'form_theirs' }, 'form_ref', 'Booking form is not one of your forms'],
      [{ student_travel_settings: { enabled: true, locations: ['loc_theirs'] } }, 'student_travel_settings.locations.0', 'Your locations is not one of your locations'],
      [{ category_id: 'cat_nope' }, 'category_id', 'Category is not a category'],
      [{ img_urls: ['javascript:alert(1)'] }, 'img_urls.0', 'Image 1 must be an http(s) URL or a path on this site'],
    ];
    for (const [overrides, key, detail] of cases) {
      const res = await call('POST', '/courses', course(overrides));
      expect(res.status, `${key}: ${res.text}`).toBe(400);
      expect(res.headers['content-type']).toContain('application/problem+json');
      const problem = res.json();
      expect(problem.title).toBe('Validation Error');
      expect(problem.properties.map((p: { key: string }) => p.key), key).toContain(key);
      expect(problem.detail, key).toContain(detail);
    }
    // Not JSON at all: a problem, never a 500.
    const raw = await adminCall(server, fx.admin.cookie, 'POST', `${base}/courses`, 'not json');
    expect(raw.status).toBe(400);
  });

  it('keeps slugs unique per educator (another educator may use the same one)', async () => {
    await create({ slug: 'their-course' });
    const again = await call('POST', '/courses', course({ slug: 'their-course' }));
    expect(again.status).toBe(400);
    expect(again.json().detail).toBe('Web address is already used by another of your courses');
  });

  it('saves over the revision it was made on, and refuses a stale one with what changed', async () => {
    const c = await create();
    const body = await editable(c.id);
    const saved = await call('PUT', `/courses/${c.id}`, { ...body, name: 'Wheel Throwing for Beginners', spaces: 10 });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.json().course).toMatchObject({ name: 'Wheel Throwing for Beginners', revision: 2, spaces: 10 });
    const stale = await call('PUT', `/courses/${c.id}`, { ...body, name: 'Someone else\u2019s edit' });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ title: 'Changed Since You Opened It', currentRevision: 2 });
    expect(stale.json().detail).toContain('Ada Admin');
    expect(stale.json().detail).toContain('name');
    expect((await editable(c.id)).name).toBe('Wheel Throwing for Beginners');
    const changes = (await call('GET', `/changes?entity=course&entityId=${c.id}`)).json().changes;
    expect(changes.map((x: { action: string }) => x.action)).toEqual(['update', 'create']);
    expect(changes[0].changes.name).toEqual(['Throwing on the Wheel', 'Wheel Throwing for Beginners']);
    expect(changes[0].changes.spaces).toEqual([8, 10]);
  });

  it('keeps offer ids when offers are edited, adds and removes offers nobody holds', async () => {
    const c = await create();
    const body = await editable(c.id);
    const [standard] = body.offers;
    const res = await call('PUT', `/courses/${c.id}`, { ...body, offers: [{ ...standard, price: 5000 }, { name: 'Early bird', price: 4000, spaces: 1 }], add_ons: [] });
    expect(res.status, res.text).toBe(200);
    const offers = res.json().course.offers;
    expect(offers.map((o: { id: string; price: number }) => [o.id === standard.id, o.price])).toEqual([[true, 5000], [false, 4000]]);
    expect(res.json().course.add_ons).toEqual([]);
  });
});

describe('what learners hold', () => {
  it('refuses spaces below those booked or held on a date that takes the course\'s spaces, and moves its counter with them', async () => {
    const c = await create({ spaces: 10 });
    // 3 booked (the checkout's counter at 7) and a second date with nothing booked.
    const busy = await occurrence(c.id, { start: now() + 10 * DAY, available: 7 });
    await booking(c.id, { occurrenceId: busy, spaces: 3, offerId: c.offers[0]!.id });
    const quiet = await occurrence(c.id, { start: now() + 20 * DAY });
    const ownSpaces = await occurrence(c.id, { start: now() + 30 * DAY, spaces: 20, available: 1 });
    const body = await editable(c.id);
    const data = (await call('GET', `/courses/${c.id}`)).json();
    expect(data.minimumSpaces).toMatchObject({ spaces: 3 });
    const refused = await call('PUT', `/courses/${c.id}`, { ...body, spaces: 2 });
    expect(refused.status).toBe(409);
    expect(refused.json().properties).toEqual([expect.objectContaining({ key: 'spaces', message: expect.stringMatching(/^must be at least 3: 3 spaces are booked or held on /) })]);
    expect((await editable(c.id)).spaces).toBe(10);
    // Exactly what is booked is allowed; the date's counter follows (7 - 7 = 0 left), the others are untouched.
    const lowered = await call('PUT', `/courses/${c.id}`, { ...body, spaces: 3 });
    expect(lowered.status, lowered.text).toBe(200);
    const spaces = async (id: string) => (await server.db.selectFrom('occurrences').select(['available_spaces']).where('id', '=', id).executeTakeFirstOrThrow()).available_spaces;
    expect(await spaces(busy)).toBe(0);
    expect(await spaces(quiet)).toBeNull();
    expect(await spaces(ownSpaces)).toBe(1);
    const raised = await call('PUT', `/courses/${c.id}`, { ...(await editable(c.id)), spaces: 12 });
    expect(raised.status).toBe(200);
    expect(await spaces(busy)).toBe(9);
  });

  it('tells the course\'s waitlist, once each, when more spaces open a full date that takes the course\'s spaces', async () => {
    const c = await create({ spaces: 2 });
    const full = await occurrence(c.id, { start: now() + 10 * DAY, available: 0 });
    await booking(c.id, { occurrenceId: full, spaces: 2, offerId: c.offers[0]!.id });
    await server.db.insertInto('enquiries').values({
      id: `enq_w_${c.id}`, type: 'waitlist', educator_id: fx.educatorId, course_id: c.id, first_name: 'Wait', last_name: 'Listed', email: `wait-${c.id}@example.com`,
      phone: '+447700900123', message: null, enquiry_type: null, occurrence_ref: null, course_slug: null, course_name: String(c.name), embedded: false,
      context: 'marketplace', site: 'localhost', user_id: null, ip_hash: null, created_at: now() - 100,
    }).execute();
    const told = () => server.db.selectFrom('outbox_messages').select('id').where('tag', '=', 'waitlist-available').where('to_address', '=', `wait-${c.id}@example.com`).execute();
    // A save that frees nothing tells nobody.
    expect((await call('PUT', `/courses/${c.id}`, { ...(await editable(c.id)), name: `${c.name} (renamed)` })).status).toBe(200);
    expect(await told()).toHaveLength(0);
    expect((await call('PUT', `/courses/${c.id}`, { ...(await editable(c.id)), spaces: 3 })).status).toBe(200);
    expect(await told()).toHaveLength(1);
    expect((await call('PUT', `/courses/${c.id}`, { ...(await editable(c.id)), spaces: 4 })).status).toBe(200);
    expect(await told()).toHaveLength(1);
  });

  it('refuses removing an offer or add-on a booking still to come holds, and allows it once the date is past', async () => {
    const c = await create();
    const occ = await occurrence(c.id, { start: now() + 5 * DAY });
    await booking(c.id, { occurrenceId: occ, spaces: 1, offerId: c.offers[0]!.id });
    const body = await editable(c.id);
    expect(body.offers[0].heldBy).toBe(1);
    const refused = await call('PUT', `/courses/${c.id}`, { ...body, offers: [{ name: 'Replacement', price: 100 }] });
    expect(refused.status).toBe(409);
    expect(refused.json().title).toBe('Learners Hold This');
    expect(refused.json().properties[0]).toMatchObject({ key: 'offers', name: 'Offer \u201cStandard\u201d' });
    expect(refused.json().properties[0].message).toContain('1 booking on a date still to come');
    expect((await editable(c.id)).offers.map((o: { name: string }) => o.name)).toEqual(['Standard']);
    // Nor may the course become another kind of course (the checkout's flow) while the booking is to come.
    const retyped = await call('PUT', `/courses/${c.id}`, { ...body, type: 'on-demand', delivery_modes: ['on-demand'] });
    expect(retyped.status).toBe(409);
    expect(retyped.json().properties[0]).toMatchObject({ key: 'type', message: 'cannot change while the course has 1 booking on a date still to come' });
    // The date has passed: the booking's lines keep what was bought, the offer may go.
    await server.db.updateTable('occurrences').set({ start_datetime: now() - 2 * DAY, end_datetime: now() - DAY }).where('id', '=', occ).execute();
    const removed = await call('PUT', `/courses/${c.id}`, { ...(await editable(c.id)), offers: [{ name: 'Replacement', price: 100 }] });
    expect(removed.status, removed.text).toBe(200);
  });

  it('refuses deleting a course with bookings to honour; archives one with only past records; removes one with none', async () => {
    const held = await create();
    const occ = await occurrence(held.id, { start: now() + 3 * DAY });
    await booking(held.id, { occurrenceId: occ, spaces: 2, status: 'awaiting-approval' });
    const refused = await call('DELETE', `/courses/${held.id}?revision=1`);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ title: 'Learners Hold This Course', holdings: { bookings: 1 } });
    expect(refused.json().detail).toBe('This course cannot be deleted: it has 1 booking on a date still to come. Cancel or move them first, or unpublish the course to stop new bookings.');
    expect((await call('GET', `/courses/${held.id}`)).status).toBe(200);

    const past = await create({ slug: 'old-course' });
    await booking(past.id, { occurrenceId: null, spaces: 1, end: now() - 30 * DAY });
    expect((await call('DELETE', `/courses/${past.id}?revision=1`)).json()).toEqual({ outcome: 'archived' });
    expect((await call('GET', `/courses/${past.id}`)).status).toBe(404);
    expect(await server.db.selectFrom('bookings').select('id').where('course_id', '=', past.id).execute()).toHaveLength(1);
    expect((await call('GET', '/courses?q=throwing')).json().courses.map((x: { id: string }) => x.id)).not.toContain(past.id);
    // Its address is free again.
    await create({ slug: 'old-course' });

    const fresh = await create();
    expect((await call('DELETE', `/courses/${fresh.id}?revision=2`)).status).toBe(409);
    expect((await call('DELETE', `/courses/${fresh.id}?revision=1`)).json()).toEqual({ outcome: 'deleted' });
    expect(await server.db.selectFrom('courses').select('id').where('id', '=', fresh.id).execute()).toEqual([]);
    const log = (await call('GET', `/changes?entity=course&entityId=${fresh.id}`)).json().changes;
    expect(log[0]).toMatchObject({ action: 'delete' });
  });

  it('a learner at Payment pays the price they were shown when the price changes meanwhile', async () => {
    const c = await create({ offers: [{ name: 'Standard', price: 1000 }], add_ons: [] });
    const published = await call('POST', `/courses/${c.id}/publish`, { revision: 1 });
    expect(published.status, published.text).toBe(200);
    const occ = await occurrence(c.id, { start: now() + 14 * DAY, spaces: 6, available: 6 });
    const learner = await signUpAndLogin(server, { firstName: 'Pat', lastName: 'Payer' });
    const api = client(server, learner.cookie);
    const init = await api.initialise('booking', { courseId: c.id, occurrenceId: occ });
    expect(init.status, JSON.stringify(init.body)).toBe(201);
    const id = (init.body as { _id: string })._id;
    expect((await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: c.offers[0]!.id, quantity: 1 }], selectedAddons: [] })).status).toBe(200);
    const atPayment = await api.submit(id, 'contact details filled', contactPayload(learner.user.email));
    expect((atPayment.body as { currentStep: string; totalCost: number })).toMatchObject({ currentStep: 'payment', totalCost: 1000 });

    // The educator raises the price while the learner pays.
    const body = await editable(c.id);
    expect(body.offers[0].heldBy).toBe(1);
    const raised = await call('PUT', `/courses/${c.id}`, { ...body, offers: [{ ...body.offers[0], price: 1500 }] });
    expect(raised.status, raised.text).toBe(200);
    // Removing the offer they chose is refused while they pay.
    const removing = await call('PUT', `/courses/${c.id}`, { ...(await editable(c.id)), offers: [{ name: 'Other', price: 1500 }] });
    expect(removing.status).toBe(409);
    expect(removing.json().properties[0].message).toContain('1 learner paying for it right now');

    const method = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    expect(method.status, JSON.stringify(method.body)).toBe(200);
    expect((method.body as { totalCost: number }).totalCost).toBe(1000);
    const paid = await payWithCard(server, method.body as never, CARDS.success);
    expect(paid.status).toBe(200);
    const done = await api.submit(id, 'payment was successful', {});
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect((done.body as { outcome: { totalCost: number } }).outcome.totalCost).toBe(1000);
    const charged = await server.db.selectFrom('checkout_payments').select(['amount']).where('checkout_id', '=', id).execute();
    expect(charged.map((p) => Number(p.amount))).toEqual([1000]);
    const bookingRow = await server.db.selectFrom('bookings').select(['total_cost']).where('checkout_id', '=', id).executeTakeFirstOrThrow();
    expect(Number(bookingRow.total_cost)).toBe(1000);

    // A learner who starts now sees the new price.
    const next = await signUpAndLogin(server, { firstName: 'Nia', lastName: 'Next' });
    const api2 = client(server, next.cookie);
    const init2 = await api2.initialise('booking', { courseId: c.id, occurrenceId: occ });
    const id2 = (init2.body as { _id: string })._id;
    await api2.submit(id2, 'pricing options picked', { selectedOffers: [{ offerId: c.offers[0]!.id, quantity: 1 }], selectedAddons: [] });
    expect(((await api2.submit(id2, 'contact details filled', contactPayload(next.user.email))).body as { totalCost: number }).totalCost).toBe(1500);
  });
});

describe('publishing, duplicating, listing', () => {
  it('publishes and unpublishes over a revision, refusing an on-demand course with nothing to order', async () => {
    const empty = await create({ type: 'on-demand', delivery_modes: ['on-demand'], offers: [], add_ons: [] });
    const refused = await call('POST', `/courses/${empty.id}/publish`, { revision: 1 });
    expect(refused.status).toBe(400);
    expect(refused.json().detail).toBe('Offers needs at least one offer before an on-demand course can be ordered');
    expect((await call('POST', `/courses/${empty.id}/publish`, {})).json().detail).toBe('Revision is required');

    const c = await create();
    const on = await call('POST', `/courses/${c.id}/publish`, { revision: 1 });
    expect(on.json().course).toMatchObject({ published: true, revision: 2 });
    expect((await call('POST', `/courses/${c.id}/publish`, { revision: 1 })).status).toBe(409);
    const off = await call('POST', `/courses/${c.id}/unpublish`, { revision: 2 });
    expect(off.json().course).toMatchObject({ published: false, revision: 3 });
    const actions = (await call('GET', `/changes?entity=course&entityId=${c.id}`)).json().changes.map((x: { action: string }) => x.action);
    expect(actions).toEqual(['unpublish', 'publish', 'create']);
  });

  it('duplicates a course as a draft with its own offers', async () => {
    const c = await create({ slug: 'pottery-dup' });
    await call('POST', `/courses/${c.id}/publish`, { revision: 1 });
    const dup = await call('POST', `/courses/${c.id}/duplicate`, {});
    expect(dup.status).toBe(201);
    const copy = await editable(dup.json().id);
    expect(copy).toMatchObject({ name: 'Throwing on the Wheel (copy)', slug: 'pottery-dup-copy', published: false, revision: 1 });
    expect(copy.offers.map((o: { name: string; price: number }) => [o.name, o.price])).toEqual([['Standard', 4500]]);
    expect(copy.offers[0].id).not.toBe(c.offers[0]!.id);
    const again = await editable((await call('POST', `/courses/${c.id}/duplicate`, {})).json().id);
    expect(again.slug).toBe('pottery-dup-copy-2');
  });

  it('lists the educator\'s own courses, searched by name and filtered by status, with their dates', async () => {
    const c = await create({ name: 'Zebra Drawing Club', slug: 'zebra-drawing' });
    await occurrence(c.id, { start: now() + 2 * DAY });
    await occurrence(c.id, { start: now() + 9 * DAY });
    await occurrence(c.id, { start: now() - 9 * DAY });
    const res = await call('GET', '/courses?q=zebra');
    expect(res.status).toBe(200);
    expect(res.json().courses).toEqual([expect.objectContaining({ id: c.id, name: 'Zebra Drawing Club', published: false, upcomingDates: 2 })]);
    expect(res.json().courses[0].nextDate).toBeGreaterThan(now() + DAY);
    expect((await call('GET', '/courses?q=zebra&status=published')).json().courses).toEqual([]);
    expect((await call('GET', '/courses?q=their')).json().courses.map((x: { name: string }) => x.name)).not.toContain('Their course');
    expect((await call('GET', '/courses?status=nope')).status).toBe(400);
    // Wildcards are searched for, not obeyed.
    const percent = await create({ name: '100% Clay', slug: 'hundred-percent-clay' });
    expect((await call('GET', `/courses?q=${encodeURIComponent('0%')}`)).json().courses.map((x: { id: string }) => x.id)).toEqual([percent.id]);
    expect((await call('GET', `/courses?q=${encodeURIComponent('%')}`)).json().courses.map((x: { id: string }) => x.id)).toEqual([percent.id]);
    // Keyset pages: every course once, in name order.
    const seen: string[] = [];
    let after: string | null = null;
    do {
      const page: { courses: { id: string }[]; next: string | null } = (await call('GET', `/courses${after ? `?after=${after}` : ''}`)).json();
      seen.push(...page.courses.map((x) => x.id));
      after = page.next;
    } while (after);
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('course images', () => {
  const upload = (bytes: Buffer, name = 'photo.jpg', type = 'image/jpeg', cookie = fx.admin.cookie) => {
    const form = new FormData();
    form.append('image', new Blob([new Uint8Array(bytes)], { type }), name);
    return fetch(`${server.url}${base}/course-images`, { method: 'POST', headers: { cookie, origin: server.url }, body: form });
  };

  it('keeps an upright, resized WebP without the photo\'s metadata, served on every host', async () => {
    const photo = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#c86432' } })
      .jpeg().withExif({ IFD0: { Make: 'PhoneCo', Model: 'Secret Model' } }).withMetadata({ orientation: 6 }).toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const res = await upload(photo);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body.url).toMatch(/^\/api\/course-images\/img_[A-Za-z0-9_-]+\.webp$/);
    // Turned upright by its orientation (6: rotated 90°), then fitted into 1600 × 1600.
    expect([body.width, body.height]).toEqual([1067, 1600]);
    for (const host of ['localhost:4321', 'studio.localhost:4321', 'admin.localhost:4321']) {
      const got = await fetch(`${server.url}${body.url}`, { headers: { host } }).catch(() => null);
      // fetch cannot set Host; the raw request below does.
      void got;
      const { request } = await import('node:http');
      const image = await new Promise<{ status: number; type: string; cache: string; bytes: Buffer }>((ok, fail) => {
        request({ host: '127.0.0.1', port: server.port, path: body.url, headers: { host } }, (r) => {
          const chunks: Buffer[] = [];
          r.on('data', (c: Buffer) => chunks.push(c));
          r.on('end', () => ok({ status: r.statusCode ?? 0, type: String(r.headers['content-type']), cache: String(r.headers['cache-control']), bytes: Buffer.concat(chunks) }));
        }).on('error', fail).end();
      });
      expect(image.status, host).toBe(200);
      expect(image.type).toBe('image/webp');
      const meta = await sharp(image.bytes).metadata();
      expect(meta).toMatchObject({ format: 'webp', width: 1067, height: 1600 });
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      if (host === 'localhost:4321') expect(image.cache).toBe('public, max-age=31536000, immutable');
    }
  });

  it('accepts PNG and WebP by their content, and refuses anything else whatever its name or type', async () => {
    const png = await sharp({ create: { width: 40, height: 30, channels: 4, background: '#00000000' } }).png().toBuffer();
    expect((await upload(png, 'a.png', 'image/png')).status).toBe(201);
    const webp = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#123456' } }).webp().toBuffer();
    expect((await upload(webp, 'a.webp', 'image/webp')).status).toBe(201);
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#ffffff' } }).gif().toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [bytes, name] of [[gif, 'fake.jpg'], [svg, 'logo.png'], [Buffer.from('%PDF-1.7 hello'), 'doc.jpg']] as const) {
      const res = await upload(bytes, name, 'image/jpeg');
      expect(res.status, name).toBe(400);
      expect((await res.json()).detail).toBe('Image must be a JPEG, PNG or WebP image');
    }
    // JPEG's magic bytes, then nonsense.
    const broken = await upload(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(100, 7)]));
    expect(broken.status).toBe(400);
    expect((await broken.json()).detail).toBe('Image could not be read as an image');
    const none = await fetch(`${server.url}${base}/course-images`, { method: 'POST', headers: { cookie: fx.admin.cookie, origin: server.url, 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(400);
    expect(await server.db.selectFrom('course_images').select('id').where('educator_id', '=', fx.otherEducatorId).execute()).toEqual([]);
  });

  it('refuses a file over 10 MB before reading it whole', async () => {
    const res = await upload(Buffer.alloc(11 * 1024 * 1024, 1));
    expect(res.status).toBe(413);
    expect((await fetch(`${server.url}/api/course-images/img_nothing.webp`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/course-images/..%2fsecret`)).status).toBe(404);
  });
});
