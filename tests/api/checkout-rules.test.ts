/**
 * Step rules, validation messages (spec 5), checkout errors (spec 8), holds and the supporting calls (spec 7),
 * through HTTP only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { makeEducatorAdmin, signUpAndLogin } from '../helpers/auth.ts';
import {
  CARDS, DAY, IDS, OFFERS, booker, client, contactPayload, payWithCard, problemType, seedCheckoutCatalogue, type Client,
} from './checkout-fixtures.ts';

let server: TestServer;
let now: number;

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
  now = Math.floor(Date.now() / 1000);
  await seedCheckoutCatalogue(server.db, now);
});
afterAll(async () => server?.close());

async function learner(): Promise<{ api: Client; email: string; userId: string }> {
  const { cookie, user } = await signUpAndLogin(server);
  return { api: client(server, cookie), email: user.email, userId: user.id };
}

const SUBMISSION_TITLE = 'There was an issue submitting your response, check if there are any required fields that you have missed';

async function toContact(api: Client, courseId: string, occurrenceId: string, offerId: string, quantity = 1): Promise<string> {
  const init = await api.initialise('booking', { courseId, occurrenceId });
  const res = await api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId, quantity }] });
  expect(res.status).toBe(200);
  return init.body._id;
}

async function spacesLeft(id: string): Promise<number> {
  const row = await server.db.selectFrom('occurrences').select('available_spaces').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.available_spaces);
}

describe('initialise', () => {
  it('refuses a flow that does not match the course type with the spec\u2019s messages', async () => {
    const api = client(server);
    const cases: [string, string, string][] = [
      ['booking', IDS.onDemand, 'Invalid booking course type on-demand'],
      ['booking-application', IDS.requestCal, 'Invalid course type "on-request" for bookingApplication flow'],
      ['order', IDS.classCourse, 'Invalid course type "class" for order flow'],
      ['request', IDS.blendedCourse, 'Invalid course type "blended" for request flow'],
      ['date-booking-request', IDS.onDemand, 'Invalid course type "on-demand" for dateBookingRequest flow'],
      ['group-booking-request', IDS.requestCal, 'Invalid course type "on-request" for groupBookingRequest flow'],
    ];
    for (const [slug, courseId, detail] of cases) {
      const res = await api.initialise(slug, { courseId });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.body.detail).toBe(detail);
      expect(problemType(res.body)).toBe('checkout/invalid-course-type');
    }
    const rows = await server.db.selectFrom('checkouts').select('id').where('course_id', 'in', [IDS.onDemand, IDS.classCourse]).where('flow', 'in', ['booking', 'order']).execute();
    expect(rows.filter(Boolean)).toHaveLength(0);
  });

  it('answers unknown flows, unknown and unpublished courses with not found; bad bodies with a validation error', async () => {
    const api = client(server);
    expect((await api.initialise('subscription', { courseId: IDS.classCourse })).status).toBe(404);
    expect((await api.initialise('booking', { courseId: 'crs_nope' })).status).toBe(404);
    expect((await api.initialise('booking', { courseId: IDS.unpublished })).status).toBe(404);
    const bad = await api.initialise('booking', { courseId: 42, origin: 'moon' });
    expect(bad.status).toBe(400);
    expect(bad.body.properties.map((p: { key: string }) => p.key).sort()).toEqual(['courseId', 'origin']);
  });

  it('raises "No delivery options available" for a request course with none', async () => {
    const res = await client(server).initialise('request', { courseId: IDS.requestNone });
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('No delivery options available');
  });

  it('answers a restricted course with checkout/unauthorised unless the learner has access', async () => {
    let res = await client(server).initialise('booking', { courseId: IDS.restricted });
    expect(res.status).toBe(403);
    expect(problemType(res.body)).toBe('checkout/unauthorised');
    const outsider = await learner();
    res = await outsider.api.initialise('booking', { courseId: IDS.restricted });
    expect(problemType(res.body)).toBe('checkout/unauthorised');
    const invited = await learner();
    await server.db.insertInto('restricted_course_access').values({ course_id: IDS.restricted, email: invited.email }).execute();
    res = await invited.api.initialise('booking', { courseId: IDS.restricted });
    expect(res.status).toBe(201);
    // The checkout of a restricted course stays closed to others.
    const id = res.body._id;
    expect((await client(server).get(`/checkout/${id}`)).status).toBe(403);
    const admin = await learner();
    await makeEducatorAdmin(server.db, admin.userId, IDS.educator);
    expect((await admin.api.initialise('booking', { courseId: IDS.restricted })).status).toBe(201);
  });

  it('resumes the same checkout for the same course and flow, and starts again when the course changes', async () => {
    const api = client(server);
    const first = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc });
    const again = await api.initialise('booking', { courseId: IDS.classCourse, checkoutId: first.body._id });
    expect(again.body._id).toBe(first.body._id);
    expect(again.body.currentStep).toBe('spaces');
    const other = await api.initialise('booking', { courseId: IDS.freeCourse, checkoutId: first.body._id });
    expect(other.body._id).not.toBe(first.body._id);
    expect(other.body.currentStep).toBe('date');
  });

  it('refuses a past or private occurrence', async () => {
    const api = client(server);
    for (const occurrenceId of [IDS.pastOcc, IDS.privateOcc, 'occ_nope', IDS.raceOcc]) {
      const res = await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId });
      expect(res.status).toBe(400);
      expect(res.body.properties[0]).toMatchObject({ key: 'occurrenceId', message: 'is not available for booking' });
    }
  });
});

describe('submit-response: wrong steps and bad payloads', () => {
  it('answers an unknown action or one that is not the current step\u2019s with the submission fallback', async () => {
    const api = client(server);
    const init = await api.initialise('booking', { courseId: IDS.classCourse });
    const id = init.body._id;
    for (const [action, payload] of [
      ['pricing options picked', { selectedOffers: [] }],
      ['order pricing options picked', {}],
      ['payment was successful', {}],
      ['request message filled', { message: 'x' }],
      ['buy now', {}],
    ] as const) {
      const res = await api.submit(id, action, payload);
      expect(res.status).toBe(400);
      expect(problemType(res.body)).toBe('checkout/submit-response');
      expect(res.body.title).toBe(SUBMISSION_TITLE);
      expect(res.body.detail).toBe('If the problem persists, please contact support.');
    }
    const state = await api.get(`/checkout/${id}`);
    expect(state.body.currentStep).toBe('date');
    expect(state.body.stepState).toEqual({});
  });

  it('validates payloads with properties under payload.*', async () => {
    const api = client(server);
    const id = (await api.initialise('booking', { courseId: IDS.classCourse })).body._id;
    let res = await api.submit(id, 'occurrence picked', {});
    expect(res.status).toBe(400);
    expect(res.body.title).toBe('Validation Error');
    expect(res.body.properties[0].key).toBe('payload.occurrence_id');
    await api.submit(id, 'occurrence picked', { occurrence_id: IDS.classOcc });
    res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: -1 }] });
    expect(res.body.properties[0].key).toBe('payload.selectedOffers.0.quantity');
    const raw = await fetch(`${server.url}/api/checkout/${id}/submit-response`, { method: 'POST', headers: { origin: server.url, 'content-type': 'application/json' }, body: '{' });
    expect(raw.status).toBe(400);
    expect((await client(server).get('/checkout/chk_00000000000000000000000000000000')).status).toBe(404);
  });

  it('after-login steps need a learner: "Unknown user"', async () => {
    const api = client(server);
    const id = (await api.initialise('booking', { courseId: IDS.freeCourse, occurrenceId: IDS.freeOcc })).body._id;
    const res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.free, quantity: 1 }] });
    expect(res.body.currentStep).toBe('login');
    expect(res.body.steps).toEqual(['date', 'spaces', 'login', 'contactDetails', 'confirmation']);
    const refused = await api.submit(id, 'contact details filled', contactPayload('a@example.com'));
    expect(refused.status).toBe(401);
    expect(refused.body.title).toBe('Unknown user');
  });

  it('a checkout bound to a learner is not visible to anyone else', async () => {
    const a = await learner();
    const id = await toContact(a.api, IDS.classCourse, IDS.classOcc, OFFERS.standard);
    await a.api.submit(id, 'contact details filled', contactPayload(a.email, { bookerFormResponse: booker(a.email, { phone: '07700900123' }) }));
    const b = await learner();
    expect((await b.api.get(`/checkout/${id}`)).status).toBe(404);
    expect((await b.api.submit(id, 'go back')).status).toBe(404);
    // A visitor who is not logged in (the learner after logging out) is told to log in, and shown nothing chosen.
    const anonymous = await client(server).get(`/checkout/${id}`);
    expect(anonymous.body).toMatchObject({ _id: id, loginRequired: true, stepState: {}, costSummary: null, hold: null });
    await a.api.post(`/checkout/${id}/abandon`);
  });
});

describe('go back', () => {
  it('works from every step of the booking flow, giving held spaces back when leaving Payment', async () => {
    const anon = client(server);
    const id = (await anon.initialise('booking', { courseId: IDS.classCourse })).body._id;
    let res = await anon.submit(id, 'go back');
    expect(res.body.currentStep).toBe('date');
    await anon.submit(id, 'occurrence picked', { occurrence_id: IDS.classOcc });
    res = await anon.submit(id, 'go back');
    expect(res.body.currentStep).toBe('date');
    await anon.submit(id, 'occurrence picked', { occurrence_id: IDS.classOcc });
    res = await anon.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }] });
    expect(res.body.currentStep).toBe('login');
    res = await anon.submit(id, 'go back');
    expect(res.body.currentStep).toBe('spaces');

    const { api, email } = await learner();
    const bid = await toContact(api, IDS.classCourse, IDS.classOcc, OFFERS.standard, 2);
    res = await api.submit(bid, 'go back');
    expect(res.body.currentStep).toBe('spaces');
    await api.submit(bid, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 2 }] });
    const before = await spacesLeft(IDS.classOcc);
    res = await api.submit(bid, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
    expect(res.body.currentStep).toBe('payment');
    expect(await spacesLeft(IDS.classOcc)).toBe(before - 2);
    await api.submit(bid, 'payment method selected', { paymentMethod: 'card' });
    res = await api.submit(bid, 'go back');
    expect(res.body.currentStep).toBe('contactDetails');
    expect(res.body.hold.status).toBe('released');
    expect(res.body.stepState.payment).toBeUndefined();
    expect(await spacesLeft(IDS.classOcc)).toBe(before);
    // Forward again: a new hold.
    res = await api.submit(bid, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
    expect(res.body.hold.status).toBe('held');
    res = await api.submit(bid, 'manual payment confirmed');
    expect(res.body.currentStep).toBe('confirmation');
    res = await api.submit(bid, 'go back');
    expect(res.status).toBe(400);
    expect(res.body.title).toBe(SUBMISSION_TITLE);
  });

  it('works from every step of the request flow', async () => {
    const { api } = await learner();
    const id = (await api.initialise('request', { courseId: IDS.requestPref })).body._id;
    await api.submit(id, 'request delivery configured', { delivery: { type: 'Student travels', location_ref: IDS.locB } });
    let res = await api.submit(id, 'request preferred dates selected', { preferredDates: ['2099-01-01'] });
    expect(res.body.currentStep).toBe('message');
    res = await api.submit(id, 'go back');
    expect(res.body.currentStep).toBe('dates');
    res = await api.submit(id, 'go back');
    expect(res.body.currentStep).toBe('delivery');
    expect(res.body.stepState.delivery.state.delivery).toEqual({ type: 'Student travels', location_ref: IDS.locB });
  });
});

describe('contact details validation (spec 5)', () => {
  it('requires terms, the system fields and the educator\u2019s required fields, and fixes the e-mail to the account', async () => {
    const { api, email } = await learner();
    const id = await toContact(api, IDS.classCourse, IDS.classOcc, OFFERS.standard);
    const versionBefore = (await server.db.selectFrom('checkouts').select('version').where('id', '=', id).executeTakeFirstOrThrow()).version;
    const res = await api.submit(id, 'contact details filled', contactPayload(email, {
      termsAccepted: false, bookerFormResponse: { system_first_name: ' ', system_email: 'someone@else.com' },
    }));
    expect(res.status).toBe(400);
    expect(res.body.properties).toEqual([
      { key: 'payload.bookerFormResponse.system_email', name: 'Email', message: 'You cannot edit this email address.' },
      { key: 'payload.bookerFormResponse.system_first_name', name: 'First Name', message: 'is required' },
      { key: 'payload.bookerFormResponse.system_last_name', name: 'Last Name', message: 'is required' },
      { key: 'payload.bookerFormResponse.phone', name: 'Phone', message: 'is required' },
      { key: 'payload.termsAccepted', name: 'Terms', message: 'Please accept the Terms and Conditions to continue' },
    ]);
    // Nothing half-written.
    const row = await server.db.selectFrom('checkouts').select(['version', 'current_step', 'user_id']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.version).toBe(versionBefore);
    expect(row.current_step).toBe('contactDetails');
    expect(row.user_id).toBeNull();
    expect(await server.db.selectFrom('space_holds').select('id').where('checkout_id', '=', id).execute()).toHaveLength(0);

    const phone = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '12' }) }));
    expect(phone.body.properties).toEqual([{ key: 'payload.bookerFormResponse.phone', name: 'Phone', message: 'Phone number is too short.' }]);
    // A missing e-mail is filled from the account.
    const ok = await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: { system_first_name: 'Ada', system_last_name: 'L', phone: '07700900123' } }));
    expect(ok.status).toBe(200);
    expect(ok.body.stepState.contactDetails.state.booker.formResponse.system_email).toBe(email);
    await api.post(`/checkout/${id}/abandon`);
  });

  it('pre-accepts hidden terms off the marketplace only, and drops marketing consent when hidden', async () => {
    const { api, email } = await learner();
    for (const origin of ['embed', 'marketplace']) {
      const init = await api.initialise('booking', { courseId: IDS.vatCourse, occurrenceId: IDS.vatOcc, origin });
      await api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.vat, quantity: 1 }] });
      const res = await api.submit(init.body._id, 'contact details filled', contactPayload(email, { termsAccepted: false, marketingConsent: true }));
      if (origin === 'embed') {
        expect(res.status).toBe(200);
        expect(res.body.stepState.contactDetails.state).toMatchObject({ termsShown: false, termsAccepted: false, marketingConsent: false });
        await api.post(`/checkout/${init.body._id}/abandon`);
      } else {
        expect(res.status).toBe(400);
        expect(res.body.properties).toEqual([{ key: 'payload.termsAccepted', name: 'Terms', message: 'Please accept the Terms and Conditions to continue' }]);
      }
    }
  });

  it('asks for attendee forms when the course captures guests', async () => {
    const { api, email } = await learner();
    const id = await toContact(api, IDS.guestsCourse, IDS.guestsOcc, OFFERS.guests, 2);
    let res = await api.submit(id, 'contact details filled', contactPayload(email, { bookerIsAttending: false, attendeeFormResponses: [booker('one@example.com')] }));
    expect(res.status).toBe(400);
    expect(res.body.properties[0]).toEqual({ key: 'payload.attendeeFormResponses', name: 'Attendees', message: 'must hold the details of 2 attendees' });
    res = await api.submit(id, 'contact details filled', contactPayload(email, {
      bookerIsAttending: false, attendeeFormResponses: [booker('one@example.com'), { system_first_name: 'B', system_last_name: 'C', system_email: 'not-an-email' }],
    }));
    expect(res.status).toBe(400);
    expect(res.body.properties).toEqual([{ key: 'payload.attendeeFormResponses.1.system_email', name: 'Email', message: expect.any(String) }]);
    res = await api.submit(id, 'contact details filled', contactPayload(email, {
      bookerIsAttending: false, attendeeFormResponses: [booker('one@example.com'), { formResponse: booker('two@example.com') }],
    }));
    expect(res.status).toBe(200);
    expect(res.body.stepState.contactDetails.state.attendees).toHaveLength(2);
    expect(res.body.stepState.contactDetails.state.booker.isAttending).toBe(false);
    await api.post(`/checkout/${id}/abandon`);
  });

  it('prefills the booker form from the learner\u2019s earlier answers (student metadata)', async () => {
    const { api, email } = await learner();
    let res = await api.get(`/student_metadata/form/${IDS.form}`);
    expect(res.body.values).toMatchObject({ system_email: email, system_first_name: 'Test', system_last_name: 'Learner' });
    const id = await toContact(api, IDS.classCourse, IDS.classOcc, OFFERS.standard);
    await api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900999', notes: 'Vegan' }) }));
    res = await api.get(`/student_metadata/form/${IDS.form}`);
    expect(res.body).toEqual({ formId: IDS.form, values: { system_first_name: 'Ada', system_last_name: 'Lovelace', system_email: email, phone: '07700900999', notes: 'Vegan' } });
    expect((await client(server).get(`/student_metadata/form/${IDS.form}`)).status).toBe(401);
    await api.post(`/checkout/${id}/abandon`);
  });
});

describe('offer quantities (spec 5)', () => {
  it('refuses offers outside their sale window and more spaces than are available', async () => {
    const api = client(server);
    const id = (await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc })).body._id;
    let res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.ended, quantity: 1 }, { offerId: OFFERS.later, quantity: 1 }] });
    expect(res.status).toBe(400);
    expect(res.body.properties[0].key).toBe('payload.selectedOffers.0.quantity');
    expect(res.body.properties[0].message).toMatch(/^Sales ended on /);
    expect(res.body.properties[1].message).toMatch(/^Sales start on /);
    // An offer at 0 outside its window is fine; no space at all is not.
    res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.ended, quantity: 0 }] });
    expect(res.body.properties[0]).toMatchObject({ key: 'payload.selectedOffers', message: 'must include at least one space' });

    const id2 = (await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc2 })).body._id;
    res = await api.submit(id2, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.occ2, quantity: 6 }] });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Spaces must not exceed the 5 available spaces');
    // Pair = 2 spaces each: 11 × 2 > 20.
    res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.pair, quantity: 11 }] });
    expect(res.status).toBe(400);
    res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.pair, quantity: 1 }, { offerId: OFFERS.standard, quantity: 1 }], selectedAddons: [{ addonId: 'add_apron', quantity: 40 }] });
    expect(res.status).toBe(200);
    expect(res.body.stepState.price.state.spacesRequested).toBe(3);
    // Default selection: the first offer on sale × 1.
    const id3 = (await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc })).body._id;
    res = await api.submit(id3, 'pricing options picked', {});
    expect(res.body.stepState.price.state.offers).toEqual([{ offerId: OFFERS.standard, quantity: 1 }]);
  });

  it('checks promo codes: unknown, expired, another course', async () => {
    const api = client(server);
    const id = (await api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc })).body._id;
    for (const [code, message] of [['NOPE', 'This code does not exist.'], ['OLD', 'This code has expired.'], ['ONDEMAND', 'This code is not valid for this course.']]) {
      const res = await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.standard, quantity: 1 }], appliedPromoCode: code });
      expect(res.status).toBe(400);
      expect(res.body.properties).toEqual([{ key: 'payload.appliedPromoCode', name: 'Promo code', message }]);
    }
  });
});

describe('holds', () => {
  it('expire and are swept by the next transaction that reads availability; the first learner then finds the spaces gone', async () => {
    const a = await learner();
    const b = await learner();
    const aid = await toContact(a.api, IDS.classCourse, IDS.classOcc2, OFFERS.occ2, 5);
    let res = await a.api.submit(aid, 'contact details filled', contactPayload(a.email, { bookerFormResponse: booker(a.email, { phone: '07700900123' }) }));
    expect(res.body.hold).toMatchObject({ spaces: 5, status: 'held' });
    expect(res.body.hold.expiresAt).toBe(res.body.hold.expiresAt);
    expect(await spacesLeft(IDS.classOcc2)).toBe(0);
    const bid = (await b.api.initialise('booking', { courseId: IDS.classCourse, occurrenceId: IDS.classOcc2 })).body._id;
    res = await b.api.submit(bid, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.occ2, quantity: 5 }] });
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Spaces are sold out');

    server.setNow(Math.floor(Date.now() / 1000) + server.config.CHECKOUT_HOLD_SECONDS + 5);
    try {
      res = await b.api.submit(bid, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.occ2, quantity: 5 }] });
      expect(res.status).toBe(200);
      res = await b.api.submit(bid, 'contact details filled', contactPayload(b.email, { bookerFormResponse: booker(b.email, { phone: '07700900123' }) }));
      expect(res.body.hold).toMatchObject({ spaces: 5, status: 'held' });
      // A's hold was released; choosing a payment method tries to hold again and finds none left.
      res = await a.api.submit(aid, 'payment method selected', { paymentMethod: 'card' });
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('Spaces are sold out');
      const holdA = await server.db.selectFrom('space_holds').select('status').where('checkout_id', '=', aid).executeTakeFirstOrThrow();
      expect(holdA.status).toBe('released');
      // Abandoning gives B's spaces back at once.
      res = await b.api.post(`/checkout/${bid}/abandon`);
      expect(res.body.status).toBe('abandoned');
      expect(await spacesLeft(IDS.classOcc2)).toBe(5);
      expect((await b.api.submit(bid, 'go back')).status).toBe(400);
    } finally {
      server.setNow(null);
    }
  });

  it('a payment that succeeds after its hold was lost is refunded, and nothing is booked', async () => {
    const a = await learner();
    const b = await learner();
    await server.db.updateTable('occurrences').set({ available_spaces: 1 }).where('id', '=', IDS.classOcc2).execute();
    const aid = await toContact(a.api, IDS.classCourse, IDS.classOcc2, OFFERS.occ2, 1);
    await a.api.submit(aid, 'contact details filled', contactPayload(a.email, { bookerFormResponse: booker(a.email, { phone: '07700900123' }) }));
    const selected = await a.api.submit(aid, 'payment method selected', { paymentMethod: 'card' });
    server.setNow(Math.floor(Date.now() / 1000) + server.config.CHECKOUT_HOLD_SECONDS + 5);
    try {
      const bid = await toContact(b.api, IDS.classCourse, IDS.classOcc2, OFFERS.occ2, 1);
      const bres = await b.api.submit(bid, 'contact details filled', contactPayload(b.email, { bookerFormResponse: booker(b.email, { phone: '07700900123' }) }));
      expect(bres.body.currentStep).toBe('payment');
      const paid = await payWithCard(server, selected.body, CARDS.success);
      expect(paid.body.status).toBe('succeeded');
      const res = await a.api.submit(aid, 'payment was successful', {});
      expect(res.status).toBe(400);
      expect(res.body.detail).toBe('Spaces are sold out');
      const payment = await server.db.selectFrom('test_payments').select('status').where('id', '=', selected.body.stepState.payment.state.paymentId).executeTakeFirstOrThrow();
      expect(payment.status).toBe('refunded');
      expect(await server.db.selectFrom('bookings').select('id').where('checkout_id', '=', aid).execute()).toHaveLength(0);
      await b.api.post(`/checkout/${bid}/abandon`);
    } finally {
      server.setNow(null);
    }
  });
});

describe('payment errors (spec 8)', () => {
  it('maps card provider failures and refuses methods the educator has not enabled', async () => {
    const { api, email } = await learner();
    const init = await api.initialise('booking', { courseId: IDS.vatCourse, occurrenceId: IDS.vatOcc, origin: 'embed' });
    const id = init.body._id;
    await api.submit(id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.vat, quantity: 1 }] });
    let res = await api.submit(id, 'contact details filled', contactPayload(email));
    // £100 + VAT 20% = £120, platform fee 2.5% + 30p = £3.30 added (not absorbed).
    expect(res.body.totalCost).toBe(12330);
    expect(res.body.costSummary).toMatchObject({ vat_amount: 2000, platform_fee: 330, fees_absorbed: false, total_cost: 12330 });
    for (const method of ['invoice', 'manual', 'paypal', 'klarna']) {
      res = await api.submit(id, 'payment method selected', { paymentMethod: method });
      expect(res.status).toBe(400);
      expect(res.body.properties[0]).toMatchObject({ key: 'payload.paymentMethod', message: 'is not available for this course' });
    }
    res = await api.submit(id, 'invoice details added', { billing_name: 'X', billing_address: 'Y' });
    expect(res.status).toBe(400);
    res = await api.submit(id, 'payment method selected', { paymentMethod: 'card' });
    const invalid = await payWithCard(server, res.body, '1234123412341234');
    expect(invalid.status).toBe(400);
    expect(invalid.body.detail).toBe('Your card number is invalid.');
    const threeDS = await payWithCard(server, res.body, CARDS.threeDS);
    await fetch(`${threeDS.body.next_action.redirect_to_url.url}?result=fail`, { redirect: 'manual' });
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe('There was an error with your payment. Please try again.');
    const state = (await api.get(`/checkout/${id}`)).body;
    await payWithCard(server, state, CARDS.success);
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(200);
    const charged = await server.db.selectFrom('test_payments').select('amount').where('id', '=', state.stepState.payment.state.paymentId).executeTakeFirstOrThrow();
    expect(Number(charged.amount)).toBe(12330);
  });

  it('wallet provider failures use the wallet messages', async () => {
    const { api, email } = await learner();
    const init = await api.initialise('order', { courseId: IDS.onDemand });
    const id = init.body._id;
    await api.submit(id, 'order pricing options picked', { selectedOffers: [{ offerId: OFFERS.onDemand, quantity: 1 }] });
    await api.submit(id, 'order contact details filled', contactPayload(email));
    let res = await api.submit(id, 'payment method selected', { paymentMethod: 'paypal' });
    const first = res.body.stepState.payment.state;
    expect(first.paypalOrderId).toBeTruthy();
    // The wallet (the built-in test wallet without PayPal keys) refuses the payment at capture.
    await walletAnswers(first.paypalOrderId, 'DECLINED');
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(400);
    expect(res.body.detail).toBe('Payment could not be completed. Please try again.');
    expect(problemType(res.body)).toBe('checkout/wallet-payment-error');
    // Selecting the same method again reuses the same payment.
    const again = await api.submit(id, 'payment method selected', { paymentMethod: 'paypal' });
    expect(again.body.stepState.payment.state.paymentId).toBe(first.paymentId);
    // Any other failure is the capture error.
    await walletAnswers(first.paypalOrderId, 'ERROR');
    res = await api.submit(id, 'payment was successful', {});
    expect(res.status).toBe(500);
    expect(res.body.detail).toBe('An error occurred while processing your payment. Please try again.');
    expect(problemType(res.body)).toBe('checkout/wallet-payment-error');
  });
});

/** What the simulated wallet will answer for an order (its scenario lives with the order, as at a real provider). */
async function walletAnswers(orderId: string, scenario: 'DECLINED' | 'ERROR'): Promise<void> {
  const row = await server.db.selectFrom('test_payments').select('metadata').where('id', '=', orderId).executeTakeFirstOrThrow();
  await server.db
    .updateTable('test_payments')
    .set({ metadata: { ...(row.metadata as Record<string, string>), test_wallet_scenario: scenario } })
    .where('id', '=', orderId)
    .execute();
}

describe('supporting calls (spec 7)', () => {
  it('GET /forms/{formId}/view', async () => {
    const api = client(server);
    let res = await api.get(`/forms/${IDS.form}/view`);
    expect(res.status).toBe(200);
    expect(res.body.fields.map((f: { _id: string }) => f._id)).toEqual(['system_first_name', 'system_last_name', 'system_email', 'phone', 'notes']);
    expect(res.body.validations).toEqual([{ field_ref: 'phone', condition: 'required', value: true }]);
    res = await api.get('/forms/system_default/view');
    expect(res.body.fields.map((f: { label: string }) => f.label)).toEqual(['First Name', 'Last Name', 'Email']);
    expect((await api.get('/forms/nope/view')).status).toBe(404);
  });

  it('GET /checkout/payment-options', async () => {
    const api = client(server);
    let res = await api.get(`/checkout/payment-options?courseId=${IDS.classCourse}&educatorId=${IDS.educator}`);
    expect(res.body).toMatchObject({ card: { enabled: true }, paypal: { enabled: true }, klarna: { enabled: true }, invoice: { enabled: true }, manual: { enabled: true, label: 'Pay at the studio', message: 'Bring cash on the day.' } });
    res = await api.get(`/checkout/payment-options?courseId=${IDS.vatCourse}&educatorId=${IDS.educatorVat}`);
    expect(res.body).toMatchObject({ card: { enabled: true }, paypal: { enabled: false }, klarna: { enabled: false }, invoice: { enabled: false }, manual: { enabled: false, label: 'In-person Payment', message: 'Pay the organizer on the day.' } });
    expect((await api.get(`/checkout/payment-options?courseId=${IDS.vatCourse}&educatorId=${IDS.educator}`)).status).toBe(404);
    expect((await api.get('/checkout/payment-options')).status).toBe(400);
  });

  it('POST /custom/get-checkout-summary in pence', async () => {
    const api = client(server);
    let res = await api.post('/custom/get-checkout-summary', {
      course_ref: IDS.classCourse, occurrence_ref: IDS.classOcc, voucher_ref: 'TENOFF',
      offers: [{ _id: OFFERS.standard, quantity: 2 }], add_ons: [{ _id: 'add_apron', quantity: 1 }], origin: 'marketplace', payment_method: 'card', extras: [],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      summary_items: {
        offerSummary: [{ text: 'Standard × 2', value: 6000 }], addOnSummary: [{ text: 'Apron', value: 500 }],
        voucherSummary: [{ text: 'Voucher TENOFF', value: -650 }], vatSummary: [], discountSummary: [], extraSummary: [],
      },
      subtotal: 6500, total_cost: 5850, fees_absorbed: true, platform_fee: 176, vat_amount: 0,
    });
    res = await api.post('/custom/get-checkout-summary', { course_ref: IDS.requestCal, offers: [{ _id: OFFERS.requestCal, quantity: 1 }], extras: [{ label: '2 Hours', cost: 1000, quantity: 1 }] });
    expect(res.body.summary_items.extraSummary).toEqual([{ text: '2 Hours', value: 1000 }]);
    expect(res.body.total_cost).toBe(5000);
    res = await api.post('/custom/get-checkout-summary', { course_ref: IDS.requestCal, extras: [{ label: 'Forever', cost: 1, quantity: 1 }] });
    expect(res.status).toBe(400);
    res = await api.post('/custom/get-checkout-summary', { course_ref: IDS.classCourse, voucher_ref: 'OLD' });
    expect(res.body).toMatchObject({ title: 'Invalid Voucher', detail: 'This code has expired.' });
  });

  it('POST /vouchers/validate', async () => {
    const api = client(server);
    let res = await api.post('/vouchers/validate', { code: 'fiver', course_ref: IDS.classCourse, educator_ref: IDS.educator, origin: 'marketplace' });
    expect(res.body).toMatchObject({ voucher_id: 'vch_fiver', kind: 'fixed', amount: 500 });
    res = await api.post('/vouchers/validate', { code: 'FIVER', course_ref: IDS.onDemand, educator_ref: IDS.educator });
    expect(res.body).toMatchObject({ status: 400, title: 'Invalid Voucher', detail: 'This code is not valid for this course.' });
    res = await api.post('/vouchers/validate', { code: 'OLD', course_ref: IDS.classCourse, educator_ref: IDS.educator });
    expect(res.body.detail).toBe('This code has expired.');
    res = await api.post('/vouchers/validate', { code: 'TENOFF', course_ref: IDS.vatCourse, educator_ref: IDS.educatorVat });
    expect(res.body.detail).toBe('This code does not exist.');
  });

  it('on both clock-change Sundays, slots and the server check keep opening hours in London time', async () => {
    // Next year's last Sundays of March and October; opening hours 09:00–17:00 every day, 2-hour slots.
    const year = new Date().getUTCFullYear() + 1;
    const lastSunday = (month: number) => { const last = new Date(Date.UTC(year, month + 1, 0)); return last.getUTCDate() - last.getUTCDay(); };
    const sundays = [
      { month: 2, day: lastSunday(2), open: 8, wrong: 15 }, // BST from 01:00 UTC: 09:00 is 08:00 UTC; 16:00 BST would run past 17:00
      { month: 9, day: lastSunday(9), open: 9, wrong: 8 }, // GMT from 01:00 UTC: 09:00 is 09:00 UTC; 08:00 UTC is before opening
    ];
    const utc = (month: number, day: number, hour: number) => new Date(Date.UTC(year, month, day, hour)).toISOString();
    try {
      for (const { month, day, open, wrong } of sundays) {
        server.setNow(Date.UTC(year, month, day - 2, 12) / 1000);
        const { api } = await learner();
        const slots = await api.get(`/courses/clay-studio/crs-req-cal/availability/slots?from=${utc(month, day, 0)}&to=${utc(month, day + 1, 0)}&duration=7200`);
        expect(slots.status).toBe(200);
        const london = (iso: string) => new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: 'Europe/London' }).format(new Date(iso));
        expect(slots.body.map((s: { from: string }) => london(s.from))).toEqual(['09:00', '11:00', '13:00', '15:00']);
        expect(slots.body[0].from).toBe(utc(month, day, open));

        const id = (await api.initialise('request', { courseId: IDS.requestCal })).body._id;
        let res = await api.submit(id, 'request delivery configured', { selectedDurationId: 'dur_120' });
        expect(res.body.rules).toMatchObject({ calendarBased: true });
        res = await api.submit(id, 'request available date selected', { availableDate: utc(month, day, wrong) });
        expect(res.status).toBe(400);
        expect(res.body.properties[0]).toMatchObject({ key: 'payload.availableDate', message: 'is not an available time' });
        res = await api.submit(id, 'request available date selected', { availableDate: utc(month, day, open) });
        expect(res.status).toBe(200);
      }
    } finally {
      server.setNow(null);
    }
  });

  it('GET availability slots: opening hours, duration, validation', async () => {
    const api = client(server);
    const from = new Date(now * 1000).toISOString();
    const to = new Date((now + 2 * DAY) * 1000).toISOString();
    const res = await api.get(`/courses/clay-studio/crs-req-cal/availability/slots?from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(0);
    for (const slot of res.body) {
      expect(Date.parse(slot.to) - Date.parse(slot.from)).toBe(900_000);
      expect(Date.parse(slot.from)).toBeGreaterThan(now * 1000);
      const hour = Number(new Intl.DateTimeFormat('en-GB', { hour: 'numeric', hourCycle: 'h23', timeZone: 'Europe/London' }).format(new Date(slot.from)));
      expect(hour).toBeGreaterThanOrEqual(9);
      expect(hour).toBeLessThan(17);
    }
    expect((await api.get(`/courses/clay-studio/crs-req-cal/availability/slots?from=${to}&to=${from}`)).status).toBe(400);
    expect((await api.get(`/courses/clay-studio/nope/availability/slots?from=${from}&to=${to}`)).status).toBe(404);
    expect((await api.get(`/courses/clay-studio/crs-req-cal/availability/slots?from=yesterday&to=${to}`)).status).toBe(400);
  });
});

describe('the hold an answer shows', () => {
  it('is the hold as the table has it after every action: taken, renewed, released, taken again, committed', async () => {
    const { api, email } = await learner();
    const id = await toContact(api, IDS.classCourse, IDS.classOcc, OFFERS.standard, 2);
    const inTable = async () => {
      const h = await server.db.selectFrom('space_holds').selectAll().where('checkout_id', '=', id).executeTakeFirst();
      return h ? { spaces: Number(h.spaces), expiresAt: Number(h.expires_at), status: h.status } : null;
    };
    const contact = () => api.submit(id, 'contact details filled', contactPayload(email, { bookerFormResponse: booker(email, { phone: '07700900123' }) }));
    const steps: [string, () => Promise<{ status: number; body: { hold: unknown } }>, string][] = [
      ['contact details filled', contact, 'held'],
      ['payment method selected', () => api.submit(id, 'payment method selected', { paymentMethod: 'card' }), 'held'],
      ['go back', () => api.submit(id, 'go back'), 'released'],
      ['contact details filled again', contact, 'held'],
      ['manual payment confirmed', () => api.submit(id, 'manual payment confirmed'), 'committed'],
    ];
    for (const [label, act, status] of steps) {
      server.setNow(now + steps.findIndex((s) => s[0] === label) * 60);
      const res = await act();
      expect(res.status, label).toBe(200);
      expect(res.body.hold, label).toEqual(await inTable());
      expect(res.body.hold, label).toMatchObject({ spaces: 2, status });
    }
    server.setNow(null);
  });
});
