import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChallenge, solveChallenge } from 'altcha-lib/v1';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { captchaHmacKey, verifyCaptcha } from '../../api/captcha/index.ts';
import { createApp } from '../../api/app.ts';
import { ENQUIRY_SUBMITTED } from '../../src/domain/analytics.ts';
import { EMAIL_ENDS_WITH_PERIOD, EMAIL_ILLEGAL_START, EMAIL_INVALID_DOMAIN } from '../../src/domain/email.ts';
import { PHONE_TOO_LONG, PHONE_TOO_SHORT } from '../../src/domain/phone.ts';
import { NOW, TEST_ENV, expectProblem, insertPublicFixtures, postJson, solvedCaptcha } from './public-fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  // Many enquiries from one test client: the flood limits are tested in security-abuse.test.ts.
  server = await startTestServer({ ...TEST_ENV, RATE_LIMIT_ENQUIRY_PER_IP: '1000', RATE_LIMIT_ENQUIRY_PER_EDUCATOR: '1000' });
  server.setNow(NOW);
  await insertPublicFixtures(server.db);
});
afterAll(async () => server.close());

const enquiriesUrl = () => `${server.url}/api/enquiries`;

function payload(overrides: Record<string, unknown> = {}, contact: Record<string, unknown> = {}, details: Record<string, unknown> = {}) {
  return {
    contact_details: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.co.uk', phone: '07700 900123', ...contact },
    details: {
      message: 'Do you run evening classes?',
      embedded: false,
      course_slug: 'pottery-wheel-basics',
      course_name: 'Pottery Wheel Basics',
      enquiry_type: 'General',
      occurrence_ref: 'occ_future1',
      ...details,
    },
    type: 'message',
    educator_slug: 'clay-studio',
    ...overrides,
  };
}

describe('GET /api/captcha/challenge', () => {
  it('answers an ALTCHA challenge that expires, signed by the server, never cached', async () => {
    const res = await fetch(`${server.url}/api/captcha/challenge`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = await res.json();
    expect(body).toEqual({
      algorithm: 'SHA-256',
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      maxnumber: 2000,
      salt: expect.stringMatching(/\?expires=\d+&$/),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const expires = Number(/expires=(\d+)/.exec(body.salt)![1]);
    expect(expires).toBe(NOW + server.config.CAPTCHA_EXPIRES_SECONDS);
  });

  it('answers captcha/failed-to-generate when no challenge can be made', async () => {
    // No key to sign challenges with (a broken configuration): createChallenge fails.
    const config = { ...server.config, APP_SECRET: undefined as unknown as string, LOG_LEVEL: 'silent' as const };
    const app = createApp({ db: server.db, dialect: server.testDb.dialect, config, now: () => NOW });
    const res = await app.request('/api/captcha/challenge');
    await expectProblem(res, {
      status: 500, type: 'captcha/failed-to-generate', title: 'Failed to generate captcha token',
      detail: 'We were unable to generate a captcha token for this submission',
    });
  });

  it('issues a different challenge each time', async () => {
    const a = await (await fetch(`${server.url}/api/captcha/challenge`)).json();
    const b = await (await fetch(`${server.url}/api/captcha/challenge`)).json();
    expect(a.salt).not.toBe(b.salt);
  });
});

describe('verifyCaptcha', () => {
  const deps = () => ({ db: server.db, config: server.config, now: () => NOW });

  it('accepts a solved challenge once, then refuses the replay', async () => {
    const token = await solvedCaptcha(server.url);
    await expect(verifyCaptcha(deps(), token)).resolves.toBeUndefined();
    await expect(verifyCaptcha(deps(), token)).rejects.toMatchObject({ problem: { status: 400, detail: 'This captcha has already been used. Please try again.' } });
  });

  it('refuses an expired challenge, a wrong number, a foreign key and garbage', async () => {
    const token = await solvedCaptcha(server.url);
    const later = { ...deps(), now: () => NOW + server.config.CAPTCHA_EXPIRES_SECONDS + 1 };
    await expect(verifyCaptcha(later, token)).rejects.toMatchObject({ problem: { detail: 'The captcha has expired. Please try again.' } });

    const decoded = JSON.parse(Buffer.from(token, 'base64').toString());
    const wrong = Buffer.from(JSON.stringify({ ...decoded, number: decoded.number + 1 })).toString('base64');
    await expect(verifyCaptcha(deps(), wrong)).rejects.toMatchObject({ problem: { detail: 'The captcha solution is not valid. Please try again.' } });

    const foreign = await createChallenge({ hmacKey: 'someone-else', maxnumber: 50, expires: new Date((NOW + 60) * 1000) });
    const solved = await solveChallenge(foreign.challenge, foreign.salt, foreign.algorithm, foreign.maxnumber).promise;
    const foreignToken = Buffer.from(JSON.stringify({ ...foreign, number: solved!.number })).toString('base64');
    await expect(verifyCaptcha(deps(), foreignToken)).rejects.toMatchObject({ problem: { detail: 'The captcha solution is not valid. Please try again.' } });

    // Signed with our key but without an expiry: refused.
    const noExpiry = await createChallenge({ hmacKey: captchaHmacKey(server.config), maxnumber: 50 });
    const solvedNoExpiry = await solveChallenge(noExpiry.challenge, noExpiry.salt, noExpiry.algorithm, noExpiry.maxnumber).promise;
    const noExpiryToken = Buffer.from(JSON.stringify({ ...noExpiry, number: solvedNoExpiry!.number })).toString('base64');
    await expect(verifyCaptcha(deps(), noExpiryToken)).rejects.toMatchObject({ problem: { detail: 'The captcha has expired. Please try again.' } });

    for (const garbage of ['%%%', Buffer.from('[1,2]').toString('base64'), Buffer.from('{"algorithm":"MD5"}').toString('base64')]) {
      await expect(verifyCaptcha(deps(), garbage)).rejects.toMatchObject({ problem: { detail: 'The captcha token could not be read. Please try again.' } });
    }
    await expect(verifyCaptcha(deps(), '')).rejects.toMatchObject({ problem: { detail: 'The captcha token is missing. Please try again.' } });
  });
});

describe('POST /api/enquiries', () => {
  it('stores an enquiry with every field of the payload and records the analytics event', async () => {
    const res = await postJson(enquiriesUrl(), { ...payload(), captchaToken: await solvedCaptcha(server.url) });
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toEqual({ id: expect.stringMatching(/^enq_/), type: 'message' });

    const row = await server.db.selectFrom('enquiries').selectAll().where('id', '=', body.id).executeTakeFirstOrThrow();
    expect(row).toEqual({
      id: body.id,
      type: 'message',
      educator_id: 'edu_clay',
      course_id: 'crs_wheel',
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.co.uk',
      phone: '+447700900123',
      message: 'Do you run evening classes?',
      enquiry_type: 'General',
      occurrence_ref: 'occ_future1',
      course_slug: 'pottery-wheel-basics',
      course_name: 'Pottery Wheel Basics',
      embedded: false,
      context: 'marketplace',
      site: '127.0.0.1',
      user_id: null,
      ip_hash: expect.stringMatching(/^[0-9a-f]{32}$/),
      created_at: NOW,
      // Unread, not done and not told of a new date yet: the educator's inbox (api/admin/inbox.ts) sets these.
      read_at: null,
      done_at: null,
      notified_at: null,
    });

    const events = await server.db.selectFrom('analytics_events').selectAll().where('name', '=', ENQUIRY_SUBMITTED).execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      name: 'Enquriy Sumbitted',
      educator_id: 'edu_clay',
      course_id: 'crs_wheel',
      properties: { educator_ref: 'edu_clay', educator_name: 'Clay Studio' },
      context: 'marketplace',
      created_at: NOW,
    });
  });

  it('stores a waitlist sign-up (no message needed), from an embed, from a minisite page', async () => {
    const res = await postJson(
      enquiriesUrl(),
      {
        ...payload({ type: 'waitlist' }, { phone: '+44 7700 900456' }, { message: '', enquiry_type: null, embedded: true, occurrence_ref: null }),
        captchaToken: await solvedCaptcha(server.url),
      },
      { origin: 'http://clay-studio.localhost:4321', referer: 'http://clay-studio.localhost:4321/pottery-wheel-basics/waitlist' },
    );
    expect(res.status).toBe(201);
    const { id, type } = await res.json();
    expect(type).toBe('waitlist');
    const row = await server.db.selectFrom('enquiries').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ type: 'waitlist', message: null, enquiry_type: null, occurrence_ref: null, phone: '+447700900456', embedded: true, context: 'embed', site: 'clay-studio.localhost' });
  });

  it('records the minisite context from the sending page', async () => {
    const res = await postJson(
      enquiriesUrl(),
      { ...payload(), captchaToken: await solvedCaptcha(server.url) },
      { origin: 'http://clay-studio.localhost:4321', referer: 'http://clay-studio.localhost:4321/enquiry' },
    );
    expect(res.status).toBe(201);
    const row = await server.db.selectFrom('enquiries').select(['context', 'site']).where('id', '=', (await res.json()).id).executeTakeFirstOrThrow();
    expect(row).toEqual({ context: 'minisite', site: 'clay-studio.localhost' });
  });

  it('attaches the course only when both its slug and its name are present (spec 2.9)', async () => {
    for (const details of [{ course_name: null }, { course_slug: '' }, { course_slug: undefined, course_name: undefined }]) {
      const res = await postJson(enquiriesUrl(), { ...payload({}, {}, details), captchaToken: await solvedCaptcha(server.url) });
      expect(res.status).toBe(201);
      const row = await server.db.selectFrom('enquiries').selectAll().where('id', '=', (await res.json()).id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ course_slug: null, course_name: null, course_id: null });
    }
    // A slug that is not one of the educator's courses is kept as sent, without a course id.
    const res = await postJson(enquiriesUrl(), {
      ...payload({}, {}, { course_slug: 'intro-to-python', course_name: 'Intro to Python' }),
      captchaToken: await solvedCaptcha(server.url),
    });
    const row = await server.db.selectFrom('enquiries').selectAll().where('id', '=', (await res.json()).id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ course_slug: 'intro-to-python', course_name: 'Intro to Python', course_id: null });
  });

  it('refuses a replayed captcha token', async () => {
    const token = await solvedCaptcha(server.url);
    expect((await postJson(enquiriesUrl(), { ...payload(), captchaToken: token })).status).toBe(201);
    await expectProblem(await postJson(enquiriesUrl(), { ...payload(), captchaToken: token }), {
      status: 400, type: 'captcha/invalid', title: 'Invalid Captcha', detail: 'This captcha has already been used. Please try again.',
    });
  });

  it('refuses a missing or bad captcha token', async () => {
    await expectProblem(await postJson(enquiriesUrl(), payload()), {
      status: 400, type: 'captcha/invalid', title: 'Invalid Captcha', detail: 'The captcha token is missing. Please try again.',
    });
    await expectProblem(await postJson(enquiriesUrl(), { ...payload(), captchaToken: 'bm90IGEgdG9rZW4=' }), {
      status: 400, type: 'captcha/invalid', title: 'Invalid Captcha', detail: 'The captcha token could not be read. Please try again.',
    });
    const token = await solvedCaptcha(server.url);
    const decoded = JSON.parse(Buffer.from(token, 'base64').toString());
    await expectProblem(
      await postJson(enquiriesUrl(), { ...payload(), captchaToken: Buffer.from(JSON.stringify({ ...decoded, number: decoded.number + 1 })).toString('base64') }),
      { status: 400, type: 'captcha/invalid', title: 'Invalid Captcha', detail: 'The captcha solution is not valid. Please try again.' },
    );
  });

  it('refuses an expired captcha', async () => {
    const token = await solvedCaptcha(server.url);
    server.setNow(NOW + server.config.CAPTCHA_EXPIRES_SECONDS + 1);
    try {
      await expectProblem(await postJson(enquiriesUrl(), { ...payload(), captchaToken: token }), {
        status: 400, type: 'captcha/invalid', title: 'Invalid Captcha', detail: 'The captcha has expired. Please try again.',
      });
    } finally {
      server.setNow(NOW);
    }
  });

  it('lists every missing required field of an enquiry (and does not spend the captcha)', async () => {
    const token = await solvedCaptcha(server.url);
    const body = await expectProblem(
      await postJson(enquiriesUrl(), {
        ...payload({}, { first_name: ' ', last_name: null, email: '', phone: undefined }, { message: '', enquiry_type: '' }),
        captchaToken: token,
      }),
      {
        status: 400, type: 'generic/validation-error', title: 'Validation Error',
        detail: 'First name is required, Last name is required, Email is required, Telephone is required, Message is required, Enquiry Type is required',
      },
    );
    expect(body.properties).toEqual([
      { key: 'contact_details.first_name', name: 'First name', message: 'is required' },
      { key: 'contact_details.last_name', name: 'Last name', message: 'is required' },
      { key: 'contact_details.email', name: 'Email', message: 'is required' },
      { key: 'contact_details.phone', name: 'Telephone', message: 'is required' },
      { key: 'details.message', name: 'Message', message: 'is required' },
      { key: 'details.enquiry_type', name: 'Enquiry Type', message: 'is required' },
    ]);
    // The captcha was not redeemed by the refused request.
    expect((await postJson(enquiriesUrl(), { ...payload(), captchaToken: token })).status).toBe(201);
  });

  it('requires only names, email and telephone for the waitlist', async () => {
    await expectProblem(
      await postJson(enquiriesUrl(), { ...payload({ type: 'waitlist' }, { first_name: '', email: '' }, { message: '', enquiry_type: '' }) }),
      { status: 400, type: 'generic/validation-error', title: 'Validation Error', detail: 'First name is required, Email is required' },
    );
  });

  it('does not require an enquiry type from an educator that defines none', async () => {
    const res = await postJson(enquiriesUrl(), {
      ...payload({ type: 'waitlist', educator_slug: 'code-academy' }, {}, { enquiry_type: null, course_slug: 'intro-to-python', course_name: 'Intro to Python' }),
      captchaToken: await solvedCaptcha(server.url),
    });
    expect(res.status).toBe(201);
    const row = await server.db.selectFrom('enquiries').selectAll().where('id', '=', (await res.json()).id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ educator_id: 'edu_code', course_id: 'crs_python', enquiry_type: null });
  });

  it('refuses an enquiry type that is not one of the educator’s', async () => {
    await expectProblem(await postJson(enquiriesUrl(), { ...payload({}, {}, { enquiry_type: 'Complaint' }), captchaToken: 'x' }), {
      status: 400, type: 'generic/validation-error', title: 'Validation Error', detail: 'Enquiry Type must be one of: General, Group booking',
    });
  });

  it('answers an invalid email address with invalid-email-address and the spec message', async () => {
    const cases: Array<[string, string]> = [
      ['.ada@example.com', EMAIL_ILLEGAL_START],
      ['ada@example.com.', EMAIL_ENDS_WITH_PERIOD],
      ['ada@example', EMAIL_INVALID_DOMAIN],
      ['ada@-example.com', 'Email domain cannot start with illegal character.'],
    ];
    for (const [email, detail] of cases) {
      await expectProblem(await postJson(enquiriesUrl(), { ...payload({}, { email }), captchaToken: 'x' }), {
        status: 400, type: 'generic/invalid-email-address', title: 'Invalid Email Address', detail,
      });
    }
    expect(EMAIL_ILLEGAL_START).toBe('Email address cannot start with illegal character.');
    expect(EMAIL_ENDS_WITH_PERIOD).toBe('Email address cannot end with a period.');
    expect(EMAIL_INVALID_DOMAIN).toBe('Invalid email domain.');
  });

  it('answers an invalid telephone with invalid-phone-number and the spec message', async () => {
    await expectProblem(await postJson(enquiriesUrl(), { ...payload({}, { phone: '12-3' }), captchaToken: 'x' }), {
      status: 400, type: 'generic/invalid-phone-number', title: 'Invalid Phone Number', detail: PHONE_TOO_SHORT,
    });
    await expectProblem(await postJson(enquiriesUrl(), { ...payload({}, { phone: '+44 1234 5678 9012 3456 7890' }), captchaToken: 'x' }), {
      status: 400, type: 'generic/invalid-phone-number', title: 'Invalid Phone Number', detail: PHONE_TOO_LONG,
    });
    expect([PHONE_TOO_SHORT, PHONE_TOO_LONG]).toEqual(['Phone number is too short.', 'Phone number is too long.']);
  });

  it('answers an unknown educator with 404', async () => {
    await expectProblem(await postJson(enquiriesUrl(), { ...payload({ educator_slug: 'nobody' }), captchaToken: 'x' }), {
      status: 404, type: 'generic/not-found', title: '404 - Not found', detail: 'No educator has this address.',
    });
  });

  it('refuses a message to an educator that cannot be contacted, but keeps its waitlist open', async () => {
    await expectProblem(await postJson(enquiriesUrl(), { ...payload({ educator_slug: 'code-academy' }), captchaToken: 'x' }), {
      status: 403, type: 'enquiries/contact-disabled', title: 'Messages Not Accepted', detail: 'Code Academy is not accepting messages.',
    });
    const res = await postJson(enquiriesUrl(), {
      ...payload({ type: 'waitlist', educator_slug: 'code-academy' }, {}, { enquiry_type: null }),
      captchaToken: await solvedCaptcha(server.url),
    });
    expect(res.status).toBe(201);
  });

  it('refuses a malformed body with a validation problem', async () => {
    const bad = await fetch(enquiriesUrl(), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{nope' });
    await expectProblem(bad, { status: 400, type: 'generic/validation-error', title: 'Validation Error', detail: 'Body must be a JSON object' });
    const body = await expectProblem(await postJson(enquiriesUrl(), { ...payload({ type: 'complaint', educator_slug: '' }) }), {
      status: 400, type: 'generic/validation-error', title: 'Validation Error',
    });
    expect((body.properties as Array<{ key: string }>).map((p) => p.key)).toEqual(['type', 'educator_slug']);
    const typed = await expectProblem(await postJson(enquiriesUrl(), payload({}, { email: 42 }, { embedded: 'yes' })), {
      status: 400, type: 'generic/validation-error', title: 'Validation Error',
    });
    expect((typed.properties as Array<{ key: string }>).map((p) => p.key)).toEqual(['contact_details.email', 'details.embedded']);
  });
});
