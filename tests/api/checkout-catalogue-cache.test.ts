/**
 * The checkout's in-memory catalogue (api/checkout/catalogue-cache.ts): read once while nothing changes, and every
 * write an educator can make to what a checkout sells — written straight to the tables, as the educator admin app
 * does — seen by the very next read, on SQLite and PostgreSQL alike. Then the same through a checkout over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestDb } from '../helpers/db.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { signUpAndLogin } from '../helpers/auth.ts';
import { CatalogueCache } from '../../api/checkout/catalogue-cache.ts';
import { catalogueVersion, courseStamp } from '../../db/queries/checkout.ts';
import { ADDONS, IDS, OFFERS, client, contactPayload, seedCheckoutCatalogue, seededCheckoutDb } from './checkout-fixtures.ts';

describe('the checkout catalogue cache', () => {
  let tdb: TestDb;
  const now = Math.floor(Date.now() / 1000);
  beforeAll(async () => {
    tdb = await seededCheckoutDb(now);
  });
  afterAll(async () => tdb?.close());

  const priceOf = (cat: { offers: ReadonlyArray<{ id: string; price: number | null }> } | null, id: string) => cat?.offers.find((o) => o.id === id)?.price;

  it('gives the same frozen catalogue while nothing is written, and a new one after any write', async () => {
    const cache = new CatalogueCache();
    const first = await cache.course(tdb.db, IDS.raceCourse);
    expect(await cache.course(tdb.db, IDS.raceCourse)).toBe(first);
    expect(Object.isFrozen(first!.offers[0])).toBe(true);
    expect(() => {
      (first!.offers[0] as { price: number | null }).price = 1;
    }).toThrow(TypeError);

    await tdb.db.updateTable('offers').set({ price: 1200 }).where('id', '=', OFFERS.race).execute();
    const second = await cache.course(tdb.db, IDS.raceCourse);
    expect(second).not.toBe(first);
    expect(priceOf(second, OFFERS.race)).toBe(1200);
    expect(await cache.course(tdb.db, IDS.raceCourse)).toBe(second);
  });

  it('sees every kind of write to the educator, the course, its offers, add-ons, fee settings and membership plans', async () => {
    const cache = new CatalogueCache();
    const read = () => cache.course(tdb.db, IDS.classCourse);
    const writes: Array<[string, () => Promise<unknown>, (cat: Awaited<ReturnType<typeof read>>) => unknown, unknown]> = [
      ['a course-wide add-on added', () => tdb.db.insertInto('add_ons').values({ id: 'add_kiln', course_id: IDS.classCourse, occurrence_id: null, position: 1, name: 'Kiln firing', description: null, price: 700 }).execute(),
        (cat) => cat?.addOns.map((a) => a.id), [ADDONS.apron, 'add_kiln']],
      ['an add-on repriced', () => tdb.db.updateTable('add_ons').set({ price: 900 }).where('id', '=', 'add_kiln').execute(),
        (cat) => cat?.addOns.find((a) => a.id === 'add_kiln')?.price, 900],
      ['an add-on removed', () => tdb.db.deleteFrom('add_ons').where('id', '=', 'add_kiln').execute(),
        (cat) => cat?.addOns.map((a) => a.id), [ADDONS.apron]],
      ['the course edited', () => tdb.db.updateTable('courses').set({ name: 'Wheel throwing' }).where('id', '=', IDS.classCourse).execute(),
        (cat) => cat?.course.name, 'Wheel throwing'],
      ['the educator\u2019s VAT settings changed', () => tdb.db.updateTable('educators').set({ vat_settings: { enabled: true, is_vat_absorbed: true, tax_label: 'VAT', rate_bp: 2000 } }).where('id', '=', IDS.educator).execute(),
        (cat) => cat?.educator.vat_settings?.enabled, true],
      ['fees passed on (a new fee settings row)', () => tdb.db.insertInto('educator_fee_settings').values({ educator_id: IDS.educator, fees_absorbed: false }).execute(),
        (cat) => cat?.feesAbsorbed, false],
      ['fees absorbed again', () => tdb.db.updateTable('educator_fee_settings').set({ fees_absorbed: true }).where('educator_id', '=', IDS.educator).execute(),
        (cat) => cat?.feesAbsorbed, true],
      ['the educator\u2019s first membership plan', () => tdb.db.insertInto('membership_plans').values({
        id: 'plan_cache', educator_id: IDS.educator, name: 'Studio pass', description: '', interval: 'month', pass_months: null, price: 2000,
        currency: 'GBP', discount_percent: 10, credits_per_period: 0, course_ids: null, position: 0, listed: true, created_at: now,
      }).execute(), (cat) => cat?.sellsMemberships, true],
      ['its last membership plan removed', () => tdb.db.deleteFrom('membership_plans').where('id', '=', 'plan_cache').execute(),
        (cat) => cat?.sellsMemberships, false],
      ['the course unpublished', () => tdb.db.updateTable('courses').set({ published: false }).where('id', '=', IDS.classCourse).execute(),
        (cat) => cat?.course.published, false],
    ];
    await read();
    for (const [what, write, view, expected] of writes) {
      await write();
      expect(view(await read()), what).toEqual(expected);
    }
    await tdb.db.updateTable('courses').set({ published: true }).where('id', '=', IDS.classCourse).execute();
  });

  it('sees every kind of write to the educator\u2019s forms and payment options, and keeps no other educator\u2019s form', async () => {
    const cache = new CatalogueCache();
    const form = () => cache.form(tdb.db, IDS.form, IDS.educator);
    const options = () => cache.paymentOptions(tdb.db, IDS.educator, IDS.classCourse);
    const writes: Array<[string, () => Promise<unknown>, () => Promise<unknown>, unknown]> = [
      ['a form field added', () => tdb.db.insertInto('form_fields').values({
        form_id: IDS.form, id: 'allergies', position: 6, label: 'Allergies', description: null, data_type: 'text', items: null,
        educator_ref: IDS.educator, created_at: now, updated_at: now,
      }).execute(), async () => (await form())?.fields.map((f) => f._id).includes('allergies'), true],
      ['a field relabelled', () => tdb.db.updateTable('form_fields').set({ label: 'Any allergies?' }).where('form_id', '=', IDS.form).where('id', '=', 'allergies').execute(),
        async () => (await form())?.fields.find((f) => f._id === 'allergies')?.label, 'Any allergies?'],
      ['a validation added', () => tdb.db.insertInto('form_validations').values({ form_id: IDS.form, field_ref: 'allergies', condition: 'required', value_json: JSON.stringify(true) }).execute(),
        async () => (await form())?.validations?.map((v) => v.field_ref).sort(), ['allergies', 'phone']],
      ['a validation removed', () => tdb.db.deleteFrom('form_validations').where('form_id', '=', IDS.form).where('field_ref', '=', 'allergies').execute(),
        async () => (await form())?.validations?.map((v) => v.field_ref), ['phone']],
      ['the form renamed', () => tdb.db.updateTable('forms').set({ name: 'Booking details' }).where('id', '=', IDS.form).execute(),
        async () => (await form())?.name, 'Booking details'],
      ['a payment method switched off', () => tdb.db.updateTable('payment_option_methods').set({ enabled: false }).where('payment_options_id', '=', 'pay_clay').where('method', '=', 'klarna').execute(),
        async () => (await options()).klarna?.enabled, false],
      ['the in-person instructions changed', () => tdb.db.updateTable('payment_option_methods').set({ message: 'Pay by card at the desk.' }).where('payment_options_id', '=', 'pay_clay').where('method', '=', 'manual').execute(),
        async () => (await options()).manual?.message, 'Pay by card at the desk.'],
      ['the course\u2019s own options (card only)', async () => {
        await tdb.db.insertInto('payment_options').values({ id: 'pay_class', educator_id: IDS.educator, course_id: IDS.classCourse, invoice_due_days: 7 }).execute();
        await tdb.db.insertInto('payment_option_methods').values({ payment_options_id: 'pay_class', method: 'card', enabled: true, label: null, message: null }).execute();
      }, async () => { const o = await options(); return [o.invoice_due_days, o.card?.enabled, o.invoice?.enabled]; }, [7, true, false]],
      ['the course\u2019s own options removed', async () => {
        await tdb.db.deleteFrom('payment_option_methods').where('payment_options_id', '=', 'pay_class').execute();
        await tdb.db.deleteFrom('payment_options').where('id', '=', 'pay_class').execute();
      }, async () => { const o = await options(); return [o.invoice_due_days, o.invoice?.enabled]; }, [14, true]],
    ];
    await form();
    await options();
    for (const [what, write, view, expected] of writes) {
      const before = await catalogueVersion(tdb.db, IDS.educator);
      await write();
      expect(await catalogueVersion(tdb.db, IDS.educator), what).toBeGreaterThan(before);
      expect(await view(), what).toEqual(expected);
    }
    // Kept while nothing is written.
    expect(await form()).toBe(await form());
    expect(await options()).toBe(await options());
    await tdb.db.updateTable('payment_option_methods').set({ enabled: true, message: 'Bring cash on the day.' }).where('payment_options_id', '=', 'pay_clay').execute();

    // A form of another educator (not the checkout's) is read every time: its writes do not move this educator's version.
    await tdb.db.insertInto('educators').values({ ...(await tdb.db.selectFrom('educators').selectAll().where('id', '=', IDS.educator).executeTakeFirstOrThrow()), id: 'edu_form_owner', slug: 'form-owner' }).execute();
    await tdb.db.insertInto('forms').values({ id: 'form_other', educator_id: 'edu_form_owner', name: 'Theirs' }).execute();
    expect((await cache.form(tdb.db, 'form_other', IDS.educator))?.name).toBe('Theirs');
    await tdb.db.updateTable('forms').set({ name: 'Theirs, renamed' }).where('id', '=', 'form_other').execute();
    expect((await cache.form(tdb.db, 'form_other', IDS.educator))?.name).toBe('Theirs, renamed');
  });

  it('follows a course moved to another educator (both educators\u2019 versions move)', async () => {
    const cache = new CatalogueCache();
    expect((await cache.course(tdb.db, IDS.blendedCourse))?.educator.id).toBe(IDS.educator);
    const before = [await catalogueVersion(tdb.db, IDS.educator), await catalogueVersion(tdb.db, IDS.educatorVat)];
    await tdb.db.updateTable('courses').set({ educator_id: IDS.educatorVat }).where('id', '=', IDS.blendedCourse).execute();
    expect(await catalogueVersion(tdb.db, IDS.educator)).toBeGreaterThan(before[0]!);
    expect(await catalogueVersion(tdb.db, IDS.educatorVat)).toBeGreaterThan(before[1]!);
    expect((await cache.course(tdb.db, IDS.blendedCourse))?.educator.id).toBe(IDS.educatorVat);
    expect(await courseStamp(tdb.db, IDS.blendedCourse)).toEqual({ educatorId: IDS.educatorVat, version: await catalogueVersion(tdb.db, IDS.educatorVat) });
    await tdb.db.updateTable('courses').set({ educator_id: IDS.educator }).where('id', '=', IDS.blendedCourse).execute();
    expect((await cache.course(tdb.db, IDS.blendedCourse))?.educator.id).toBe(IDS.educator);
  });

  it('keeps an occurrence\u2019s own offers, but reads the occurrence itself (its spaces) every time', async () => {
    const cache = new CatalogueCache();
    const cat = (await cache.course(tdb.db, IDS.raceCourse))!;
    const first = await cache.occurrence(tdb.db, IDS.raceOcc, cat);
    expect(first?.offers.map((o) => o.id)).toEqual([OFFERS.race]);
    await tdb.db.updateTable('occurrences').set({ available_spaces: 4 }).where('id', '=', IDS.raceOcc).execute();
    expect((await cache.occurrence(tdb.db, IDS.raceOcc, cat))?.occurrence.available_spaces).toBe(4);

    await tdb.db.insertInto('offers').values({ id: 'off_race_own', course_id: IDS.raceCourse, occurrence_id: IDS.raceOcc, position: 0, name: 'Date seat', description: null, price: 1500, spaces: 1, start_at: null, end_at: null }).execute();
    const fresh = (await cache.course(tdb.db, IDS.raceCourse))!;
    expect((await cache.occurrence(tdb.db, IDS.raceOcc, fresh))?.offers.map((o) => o.id)).toEqual(['off_race_own']);
    await tdb.db.deleteFrom('offers').where('id', '=', 'off_race_own').execute();
    expect((await cache.occurrence(tdb.db, IDS.raceOcc, fresh))?.offers.map((o) => o.id)).toEqual([OFFERS.race]);
  });

  it('trusts a version read with the checkout row only for that educator, and reloads on an older one', async () => {
    const cache = new CatalogueCache();
    const version = await catalogueVersion(tdb.db, IDS.educator);
    const known = { educatorId: IDS.educator, version };
    const first = await cache.course(tdb.db, IDS.raceCourse, known);
    expect(await cache.course(tdb.db, IDS.raceCourse, known)).toBe(first);
    // A version from before a write the cache has not seen: read again.
    await tdb.db.updateTable('offers').set({ price: 1300 }).where('id', '=', OFFERS.race).execute();
    const after = { educatorId: IDS.educator, version: await catalogueVersion(tdb.db, IDS.educator) };
    expect(priceOf(await cache.course(tdb.db, IDS.raceCourse, after), OFFERS.race)).toBe(1300);
    // Unknown course: null, nothing kept.
    expect(await cache.course(tdb.db, 'crs_missing')).toBeNull();
  });
});

describe('a checkout sees the educator\u2019s new price at its next step', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ RATE_LIMIT_LOGIN_PER_IP: '100000', LOG_LEVEL: 'silent' });
    await seedCheckoutCatalogue(server.db, Math.floor(Date.now() / 1000));
  });
  afterAll(async () => server?.close());

  it('fixes the total at Payment from the price of that moment, not the one cached at the first step', async () => {
    const { cookie, user } = await signUpAndLogin(server);
    const api = client(server, cookie);
    const init = await api.initialise('booking', { courseId: IDS.raceCourse, occurrenceId: IDS.raceOcc });
    const picked = await api.submit(init.body._id, 'pricing options picked', { selectedOffers: [{ offerId: OFFERS.race, quantity: 1 }] });
    expect(picked.status).toBe(200);
    expect(picked.body.costSummary.total_cost).toBe(1000);
    await server.db.updateTable('offers').set({ price: 1500 }).where('id', '=', OFFERS.race).execute();
    const contact = await api.submit(init.body._id, 'contact details filled', contactPayload(user.email));
    expect(contact.status).toBe(200);
    expect(contact.body.currentStep).toBe('payment');
    expect(contact.body.totalCost).toBe(1500);
  });
});
