/**
 * The educator in the admin: onboarding (POST /api/admin/educators), the profile and its saves (revisions, audit,
 * slug rules and old-slug redirects), image uploads (limits, sniffing, EXIF), payment options and connecting
 * Stripe, and the activity log's paging. A real server on a real database (SQLite, and PostgreSQL with
 * TEST_DATABASE_URL).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { rawRequest, signUpAndLogin, type RawResponse } from '../helpers/auth.ts';
import { ADMIN_ENV, ADMIN_HOST, adminCall, adminFixture, adminUpload, expectGuarded, getRaw, type AdminFixture, type UploadOptions } from '../helpers/admin.ts';
import { recordChange } from '../../api/admin/audit.ts';
import { IMAGE_MAX_BYTES } from '../../api/admin/uploads.ts';
import { TEST_CONNECT_PROVIDER } from '../../api/admin/payments.ts';

let server: TestServer;
let fx: AdminFixture;
let work: string;

beforeAll(async () => {
  mkdirSync(join(process.cwd(), '.tmp'), { recursive: true });
  work = mkdtempSync(join(process.cwd(), '.tmp', 'admin-educator-'));
  server = await startTestServer({ ...ADMIN_ENV, UPLOADS_DIR: join(work, 'uploads'), DIST_DIR: join(work, 'dist'), PAYMENTS_MODE: 'test' });
  fx = await adminFixture(server, 'ed');
});
afterAll(async () => {
  await server?.close();
  rmSync(work, { recursive: true, force: true });
});

const profilePath = () => `/api/admin/educators/${fx.educatorId}/profile`;

async function profile(): Promise<Record<string, any>> {
  const res = await adminCall(server, fx.admin.cookie, 'GET', profilePath());
  expect(res.status).toBe(200);
  return res.json().profile;
}

async function save(body: Record<string, unknown>, cookie = fx.admin.cookie): Promise<RawResponse> {
  const revision = body.revision ?? (await profile()).revision;
  return adminCall(server, cookie, 'PATCH', profilePath(), { ...body, revision });
}

function fieldsOf(res: RawResponse): Record<string, string> {
  return Object.fromEntries((res.json().properties ?? []).map((p: { key: string; message: string }) => [p.key, p.message]));
}

const upload = (path: string, cookie: string | null, file: Buffer, options: UploadOptions = {}) => adminUpload(server, cookie, path, file, options);
const getBytes = async (path: string, host: string) => {
  const res = await getRaw(server, path, { host });
  return { status: res.status, type: res.headers['content-type'] as string | undefined, body: res.body };
};

const png = (width = 800, height = 600) => sharp({ create: { width, height, channels: 3, background: '#3366cc' } }).png().toBuffer();

describe('onboarding: POST /api/admin/educators', () => {
  const valid = (slug: string) => ({ name: 'Kiln & Co', slug, email: 'Hello@Kiln.example', phone: '07700 900123', termsAccepted: true });

  it('needs a signed-in user', async () => {
    expect((await adminCall(server, null, 'POST', '/api/admin/educators', valid('kiln-anon'))).status).toBe(401);
    expect((await adminCall(server, null, 'GET', '/api/admin/slug-check?slug=kiln')).status).toBe(401);
  });

  it('creates a claimed educator with the spec defaults, makes the user its admin and records the creation', async () => {
    const user = await signUpAndLogin(server, { firstName: 'Nia', lastName: 'New' });
    const res = await adminCall(server, user.cookie, 'POST', '/api/admin/educators', valid('kiln-and-co'));
    expect(res.status, res.text).toBe(201);
    const { id, revision } = res.json();
    expect(revision).toBe(1);
    const row = await server.db.selectFrom('educators').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      slug: 'kiln-and-co', name: 'Kiln & Co', email: 'hello@kiln.example', phone_number: '+447700900123', claimed: true, can_be_contacted: true,
      whitelabelling_enabled: false, on_color_brand: '#ffffff', color_brand: null, bio: '', tos: null, cancellation_allowed: null,
      feature_flags: { hide_marketing_consent: false, hide_terms: false, hide_pricing: false, hide_social_prompts: false },
      vat_settings: { enabled: false, is_vat_absorbed: false, tax_label: 'Tax' }, links: {}, enquiry_types: [],
    });
    const admins = await server.db.selectFrom('educator_admins').select('user_id').where('educator_id', '=', id).execute();
    expect(admins.map((a) => a.user_id)).toEqual([user.user.id]);
    const audit = await server.db.selectFrom('audit_log').selectAll().where('educator_id', '=', id).execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: 'create', entity: 'educator', entity_id: id, user_id: user.user.id, revision: 1 });
    expect(audit[0]!.changes.terms_accepted).toEqual([null, true]);
    expect(audit[0]!.changes.slug).toEqual([null, 'kiln-and-co']);
    // The same session now administers it: the admin's own API and pages let the user in.
    const me = (await adminCall(server, user.cookie, 'GET', '/api/admin/me')).json();
    expect(me.educators.map((e: { id: string }) => e.id)).toEqual([id]);
    expect((await adminCall(server, user.cookie, 'GET', `/api/admin/educators/${id}/profile`)).status).toBe(200);
    // Its pages are queued for the publisher by the catalogue's triggers.
    expect(await server.db.selectFrom('page_changes').select('id').where('educator_id', '=', id).execute()).not.toHaveLength(0);
  });

  it('refuses what is missing or malformed, each beside its field', async () => {
    const res = await adminCall(server, fx.learner.cookie, 'POST', '/api/admin/educators', { name: ' ', slug: 'No_Good', email: 'nope', phone: '12', termsAccepted: false });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toContain('application/problem+json');
    expect(fieldsOf(res)).toMatchObject({ termsAccepted: 'must be accepted' });
    const second = await adminCall(server, fx.learner.cookie, 'POST', '/api/admin/educators', { name: ' ', slug: 'No_Good', email: 'nope', phone: '12', termsAccepted: true });
    expect(fieldsOf(second)).toEqual({
      name: 'is required',
      slug: 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit',
      email: 'Email address must contain an @ symbol.',
      phone: 'Phone number is too short.',
    });
    expect((await adminCall(server, fx.learner.cookie, 'POST', '/api/admin/educators', { ...valid('x-ok'), extra: 1 })).status).toBe(400);
    expect((await adminCall(server, fx.learner.cookie, 'POST', '/api/admin/educators', 'not json')).status).toBe(400);
  });

  it.each([
    ['ab', 'must be at least 3 characters'],
    ['a'.repeat(64), 'must be at most 63 characters'],
    ['under_score', 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit'],
    ['-edge', 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit'],
    ['edge-', 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit'],
    ['UPPER', 'must be lower-case letters, digits and hyphens, starting and ending with a letter or digit'],
    ['courses', 'is reserved; choose another'],
    ['embed', 'is reserved; choose another'],
    ['enquiry', 'is reserved; choose another'],
    ['admin', 'is reserved; choose another'],
    ['www', 'is reserved; choose another'],
    ['publish-render', 'is reserved; choose another'],
  ])('refuses the slug %j: %s', async (slug, message) => {
    const res = await adminCall(server, fx.learner.cookie, 'POST', '/api/admin/educators', valid(slug));
    expect(res.status).toBe(400);
    expect(fieldsOf(res).slug).toBe(message);
    const check = (await adminCall(server, fx.learner.cookie, 'GET', `/api/admin/slug-check?slug=${encodeURIComponent(slug)}`)).json();
    expect(check).toMatchObject({ available: false, message });
  });

  it('refuses a slug another educator has, and accepts boundary lengths', async () => {
    const taken = (await server.db.selectFrom('educators').select('slug').where('id', '=', fx.otherEducatorId).executeTakeFirstOrThrow()).slug;
    const res = await adminCall(server, fx.learner.cookie, 'POST', '/api/admin/educators', valid(taken));
    expect(fieldsOf(res).slug).toBe('is already taken; choose another');
    expect((await adminCall(server, fx.learner.cookie, 'GET', `/api/admin/slug-check?slug=${taken}`)).json()).toMatchObject({ available: false });
    const user = await signUpAndLogin(server);
    expect((await adminCall(server, user.cookie, 'POST', '/api/admin/educators', valid('abc'))).status).toBe(201);
    expect((await adminCall(server, user.cookie, 'POST', '/api/admin/educators', valid(`z${'9'.repeat(62)}`))).status).toBe(201);
    expect((await adminCall(server, user.cookie, 'GET', '/api/admin/slug-check?slug=still-free')).json()).toEqual({ slug: 'still-free', available: true, message: null });
  });
});

describe('profile: GET / PATCH /api/admin/educators/{id}/profile', () => {
  it('is for the educator\'s admins only', async () => {
    await expectGuarded(server, fx, 'GET', profilePath());
    await expectGuarded(server, fx, 'PATCH', profilePath(), { revision: 1, name: 'Hijacked' });
    expect((await server.db.selectFrom('educators').select('name').where('id', '=', fx.educatorId).executeTakeFirstOrThrow()).name).not.toBe('Hijacked');
  });

  it('saves fields with the next revision and records each field before and after', async () => {
    const before = await profile();
    const res = await save({
      name: 'Renamed Studio', phone_number: '020 7946 0000', address: { line1: '1 High St', city: 'Bath', postcode: 'BA1 1AA', line2: '' },
      links: { web: 'kiln.example', instagram: 'https://instagram.com/kiln', facebook: '' }, enquiry_types: [{ label: 'General' }, { label: 'Groups' }],
      feature_flags: { hide_marketing_consent: true, hide_terms: false, hide_pricing: false, hide_social_prompts: true },
      third_party_codes: { ga4_id: 'g-1a2b3c4d5e', facebook_pixel_id: '123456789012345' },
      vat_settings: { enabled: true, is_vat_absorbed: true, tax_label: '' }, cancellation_allowed: 14,
      working_hours: { monday: [{ from: 9 * 3600, until: 17 * 3600 }], tuesday: [], sunday: null },
    });
    expect(res.status).toBe(200);
    const body = res.json();
    expect(body.revision).toBe(before.revision + 1);
    expect(body.profile).toMatchObject({
      name: 'Renamed Studio', phone_number: '+442079460000', address: { line1: '1 High St', city: 'Bath', postcode: 'BA1 1AA' },
      links: { web: 'kiln.example', instagram: 'https://instagram.com/kiln' }, third_party_codes: { ga4_id: 'G-1A2B3C4D5E', facebook_pixel_id: '123456789012345' },
      vat_settings: { enabled: true, is_vat_absorbed: true, tax_label: 'Tax' }, cancellation_allowed: 14,
      working_hours: { monday: [{ from: 32400, until: 61200 }], tuesday: [], wednesday: null, sunday: null },
    });
    const entry = (await adminCall(server, fx.admin.cookie, 'GET', `/api/admin/educators/${fx.educatorId}/changes?entity=educator`)).json().changes[0];
    expect(entry).toMatchObject({ action: 'update', revision: before.revision + 1, by: { name: 'Ada Admin' } });
    expect(entry.changes.name).toEqual([before.name, 'Renamed Studio']);
    expect(entry.fields).toEqual(expect.arrayContaining(['name', 'phone_number', 'address', 'links', 'working_hours', 'vat_settings']));
    expect(entry.fields).not.toContain('slug');
  });

  it('refuses a save made on an old revision with 409, naming who changed what since', async () => {
    const { revision } = await profile();
    expect((await save({ revision, bio: '<p>First</p>' })).status).toBe(200);
    const stale = await save({ revision, name: 'Second' });
    expect(stale.status).toBe(409);
    expect(stale.json()).toMatchObject({ title: 'Changed Since You Opened It', currentRevision: revision + 1 });
    expect(stale.json().detail).toContain('Ada Admin');
    expect(stale.json().detail).toContain('bio');
    expect((await profile()).name).not.toBe('Second');
  });

  it('keeps rich text to the small safe set', async () => {
    const res = await save({ bio: '<h1>Hi</h1><p onclick="x()">We <strong>teach</strong> <a href="javascript:alert(1)">clay</a> <a href="https://kiln.example" style="color:red">here</a></p><script>alert(1)</script><img src=x onerror=y><ul><li>one</li></ul>' });
    expect(res.status).toBe(200);
    expect(res.json().profile.bio).toBe('<h3>Hi</h3><p>We <strong>teach</strong> clay <a href="https://kiln.example">here</a></p><ul><li>one</li></ul>');
    expect((await save({ tos: '<p>  </p><br>' })).json().profile.tos).toBeNull();
  });

  it('refuses malformed fields, each with its message', async () => {
    const res = await save({
      third_party_codes: { ga4_id: 'UA-12345-1', facebook_pixel_id: 'abc' }, links: { web: 'javascript:alert(1)' }, email: 'a@b',
      enquiry_types: [{ label: 'Same' }, { label: 'same ' }], cancellation_allowed: 366, phone_number: '1234567890123456789012',
      working_hours: { monday: [{ from: 9 * 3600, until: 12 * 3600 }, { from: 11 * 3600, until: 14 * 3600 }], tuesday: [{ from: 10 * 3600, until: 9 * 3600 }], funday: [] },
      logo_url: 'https://evil.example/logo.png', color_brand: 'blue',
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res)).toMatchObject({ cancellation_allowed: 'must be at most 365' });
    const next = await save({
      third_party_codes: { ga4_id: 'UA-12345-1', facebook_pixel_id: 'abc' }, links: { web: 'javascript:alert(1)' }, email: 'a@b',
      enquiry_types: [{ label: 'Same' }, { label: 'same ' }], phone_number: '1234567890123456789012',
      working_hours: { monday: [{ from: 9 * 3600, until: 12 * 3600 }, { from: 11 * 3600, until: 14 * 3600 }], tuesday: [{ from: 10 * 3600, until: 9 * 3600 }], funday: [] },
      logo_url: 'https://evil.example/logo.png', color_brand: 'blue',
    });
    expect(fieldsOf(next)).toEqual({
      'third_party_codes.ga4_id': 'must be a GA4 measurement id such as G-1A2B3C4D5E',
      'third_party_codes.facebook_pixel_id': 'must be a pixel id of 8 to 20 digits',
      'links.web': 'must be a web address (https://…)',
      email: 'Invalid email domain.',
      'enquiry_types.1.label': 'is already in the list',
      phone_number: 'Phone number is too long.',
      'working_hours.funday': 'is not a day of the week',
      'working_hours.monday.1.from': 'overlaps another opening time of the day',
      'working_hours.tuesday.0.until': 'must be after the opening time',
      logo_url: 'must be an image uploaded here (choose a new logo file)',
      color_brand: 'must be a colour such as #1d4ed8',
    });
    expect((await save({ nonsense: true })).status).toBe(400);
    expect((await adminCall(server, fx.admin.cookie, 'PATCH', profilePath(), { name: 'No revision' })).status).toBe(400);
  });

  it('refuses a brand and text colour pair below WCAG AA (4.5:1) and takes one above it', async () => {
    const low = await save({ whitelabelling_enabled: true, color_brand: '#FFFF00', on_color_brand: '#ffffff' });
    expect(low.status).toBe(400);
    expect(fieldsOf(low).on_color_brand).toMatch(/^must contrast with the brand colour at 4.5:1 or more for text \(WCAG AA\); this pair is 1\.07:1$/);
    // #767676 on white is 4.54:1, the lightest grey that passes.
    const ok = await save({ whitelabelling_enabled: true, color_brand: '#767676', on_color_brand: '#FFF' });
    expect(ok.status).toBe(200);
    expect(ok.json().profile).toMatchObject({ color_brand: '#767676', on_color_brand: '#ffffff', whitelabelling_enabled: true });
    // #777777 is 4.48:1: refused, also when only the text colour is sent (judged with the stored brand).
    expect(fieldsOf(await save({ color_brand: '#777777' })).on_color_brand).toContain('4.47:1');
    expect((await save({ on_color_brand: '#333333' })).status).toBe(400);
  });

  it('changes the slug: taken and reserved ones are refused, the old one is kept and its URLs answer 301', async () => {
    const old = (await profile()).slug as string;
    const otherSlug = (await server.db.selectFrom('educators').select('slug').where('id', '=', fx.otherEducatorId).executeTakeFirstOrThrow()).slug;
    expect(fieldsOf(await save({ slug: otherSlug })).slug).toBe('is already taken; choose another');
    expect(fieldsOf(await save({ slug: 'search' })).slug).toBe('is reserved; choose another');
    const fresh = `${old}-moved`;
    const res = await save({ slug: fresh });
    expect(res.status).toBe(200);
    expect(res.json().profile).toMatchObject({ slug: fresh, oldSlugs: [old] });

    const market = await rawRequest(server, `/${old}/courses?list=abc`, { host: 'localhost:4321' });
    expect(market.status).toBe(301);
    expect(market.headers.location).toBe(`/${fresh}/courses?list=abc`);
    expect(market.headers['cache-control']).toBe('public, max-age=300');
    expect((await rawRequest(server, `/${old}`, { host: 'localhost:4321' })).headers.location).toBe(`/${fresh}`);
    const minisite = await rawRequest(server, '/about?x=1', { host: `${old}.localhost:4321` });
    expect(minisite.status).toBe(301);
    expect(minisite.headers.location).toBe(`http://${fresh}.localhost:4321/about?x=1`);
    const embed = await rawRequest(server, `/embed/${old}/reviews`, { host: 'localhost:4321' });
    expect(embed.status).toBe(301);
    expect(embed.headers.location).toBe(`/embed/${fresh}/reviews`);
    const enquiry = await rawRequest(server, `/embed/enquiry?educator=${old}&parent_origin=x`, { host: 'localhost:4321' });
    expect(enquiry.status).toBe(301);
    expect(enquiry.headers.location).toBe(`/embed/enquiry?educator=${fresh}&parent_origin=x`);
    // Not a redirect: other methods, unknown slugs, the admin host.
    expect((await rawRequest(server, `/${old}/courses`, { host: 'localhost:4321', method: 'POST', headers: { origin: 'http://localhost:4321' } })).status).toBe(404);
    expect((await rawRequest(server, '/no-such-educator-ever', { host: 'localhost:4321' })).status).toBe(404);

    // Another educator cannot take the old slug (its old links would land there); the educator itself may.
    const otherProfile = (await adminCall(server, fx.otherAdmin.cookie, 'GET', `/api/admin/educators/${fx.otherEducatorId}/profile`)).json().profile;
    const taking = await adminCall(server, fx.otherAdmin.cookie, 'PATCH', `/api/admin/educators/${fx.otherEducatorId}/profile`, { revision: otherProfile.revision, slug: old });
    expect(fieldsOf(taking).slug).toBe('is already taken; choose another');
    const back = await save({ slug: old });
    expect(back.json().profile).toMatchObject({ slug: old, oldSlugs: [fresh] });
    expect((await rawRequest(server, `/${fresh}/reviews`, { host: 'localhost:4321' })).headers.location).toBe(`/${old}/reviews`);
    expect((await rawRequest(server, `/${old}/reviews`, { host: 'localhost:4321' })).status).toBe(404);
  });
});

describe('images: POST /api/admin/educators/{id}/images/{kind}', () => {
  const imagePath = (kind = 'logo') => `/api/admin/educators/${fx.educatorId}/images/${kind}`;

  it('is for the educator\'s admins only', async () => {
    const file = await png(10, 10);
    expect((await upload(imagePath(), null, file)).status).toBe(401);
    expect((await upload(imagePath(), fx.learner.cookie, file)).status).toBe(403);
    expect((await upload(imagePath(), fx.otherAdmin.cookie, file)).status).toBe(403);
    await expectGuarded(server, fx, 'POST', imagePath(), {});
  });

  it('stores a scaled-down WebP served on every host, and the profile save puts it on the educator', async () => {
    const res = await upload(imagePath('logo'), fx.admin.cookie, await png(2000, 1000));
    expect(res.status).toBe(201);
    const { url, width, height } = res.json();
    expect(url).toMatch(new RegExp(`^/images/uploads/educators/${fx.educatorId}/logo-[0-9a-f]{20}\\.webp$`));
    expect([width, height]).toEqual([512, 256]);
    for (const host of ['localhost:4321', 'some-educator.localhost:4321', ADMIN_HOST]) {
      const served = await getBytes(url, host);
      expect(served.status, host).toBe(200);
      expect(served.type).toBe('image/webp');
      expect((await sharp(served.body).metadata()).format).toBe('webp');
    }
    const saved = await save({ logo_url: url });
    expect(saved.status).toBe(200);
    expect(saved.json().profile.logo_url).toBe(url);
    // Another educator cannot point at it.
    const other = (await adminCall(server, fx.otherAdmin.cookie, 'GET', `/api/admin/educators/${fx.otherEducatorId}/profile`)).json().profile;
    const stolen = await adminCall(server, fx.otherAdmin.cookie, 'PATCH', `/api/admin/educators/${fx.otherEducatorId}/profile`, { revision: other.revision, logo_url: url });
    expect(stolen.status).toBe(400);
    expect((await getBytes('/images/uploads/educators/nobody/logo-0.webp', 'localhost:4321')).status).toBe(404);
    expect((await getBytes('/images/uploads/../../package.json', 'localhost:4321')).status).toBe(404);
  });

  it('drops EXIF (camera, GPS, owner) and turns the picture upright', async () => {
    const photo = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#884422' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Copyright: 'Secret Owner', Make: 'SecretCam' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .toBuffer();
    const source = await sharp(photo).metadata();
    expect(source.exif).toBeDefined();
    expect(source.orientation).toBe(6);
    expect(photo.includes(Buffer.from('Secret Owner'))).toBe(true);
    const res = await upload(imagePath('cover'), fx.admin.cookie, photo, { filename: 'holiday.jpg', type: 'image/jpeg' });
    expect(res.status).toBe(201);
    const stored = await getBytes(res.json().url, 'localhost:4321');
    const meta = await sharp(stored.body).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(stored.body.includes(Buffer.from('Secret Owner'))).toBe(false);
    // Orientation 6 (rotate 90°): stored upright, so 300 × 200 becomes 200 × 300.
    expect([meta.width, meta.height]).toEqual([200, 300]);
  });

  it('judges the type by the bytes, not the name or the claimed type', async () => {
    const gif = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
    const asPng = await upload(imagePath(), fx.admin.cookie, gif, { filename: 'logo.png', type: 'image/png' });
    expect(asPng.status).toBe(400);
    expect(fieldsOf(asPng)).toEqual({ file: 'must be a JPEG, PNG or WebP image' });
    const script = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(fieldsOf(await upload(imagePath(), fx.admin.cookie, script, { filename: 'logo.jpg', type: 'image/jpeg' }))).toEqual({ file: 'must be a JPEG, PNG or WebP image' });
    // A PNG signature in front of something else.
    const fake = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('not really a png at all')]);
    expect(fieldsOf(await upload(imagePath(), fx.admin.cookie, fake))).toEqual({ file: 'could not be read as an image' });
    // A real WebP named .txt is fine: the bytes decide.
    const webp = await sharp({ create: { width: 40, height: 40, channels: 4, background: '#00000000' } }).webp().toBuffer();
    expect((await upload(imagePath(), fx.admin.cookie, webp, { filename: 'notes.txt', type: 'text/plain' })).status).toBe(201);
    expect(fieldsOf(await upload(imagePath(), fx.admin.cookie, webp, { field: 'other' }))).toEqual({ file: 'is required' });
    expect((await upload(`/api/admin/educators/${fx.educatorId}/images/banner`, fx.admin.cookie, webp)).status).toBe(400);
    const json = await adminCall(server, fx.admin.cookie, 'POST', imagePath(), { file: 'x' });
    expect(fieldsOf(json)).toEqual({ file: 'must be sent as multipart/form-data' });
  });

  it('refuses images over 10 MB or 40 megapixels', async () => {
    // Just over the limit, with a real JPEG header.
    const big = Buffer.concat([await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).jpeg().toBuffer(), Buffer.alloc(IMAGE_MAX_BYTES)]);
    const res = await upload(imagePath(), fx.admin.cookie, big, { type: 'image/jpeg' });
    expect([400, 413]).toContain(res.status);
    if (res.status === 400) expect(fieldsOf(res)).toEqual({ file: 'must be at most 10 MB' });
    // Far over: refused before it is read (413).
    expect((await upload(imagePath(), fx.admin.cookie, Buffer.alloc(IMAGE_MAX_BYTES + 200 * 1024))).status).toBe(413);
    // A few KB that would decode to 45 megapixels.
    const bomb = await sharp({ create: { width: 9000, height: 5000, channels: 3, background: '#000' } }).greyscale().png({ compressionLevel: 9 }).toBuffer();
    expect(bomb.length).toBeLessThan(IMAGE_MAX_BYTES);
    expect(fieldsOf(await upload(imagePath(), fx.admin.cookie, bomb))).toEqual({ file: 'must be at most 40 megapixels' });
  });
});

describe('payment options: /api/admin/educators/{id}/payment-options', () => {
  const path = () => `/api/admin/educators/${fx.educatorId}/payment-options`;
  const body = (revision: number, over: Record<string, unknown> = {}) => ({
    revision, card: { enabled: true }, paypal: { enabled: true }, klarna: { enabled: false }, invoice: { enabled: true, dueDays: 30 },
    manual: { enabled: true, label: 'Pay at the studio', message: 'Cash or card on the day.' }, ...over,
  });

  it('is for the educator\'s admins only', async () => {
    await expectGuarded(server, fx, 'GET', path());
    await expectGuarded(server, fx, 'PUT', path(), body(0));
    await expectGuarded(server, fx, 'POST', `/api/admin/educators/${fx.educatorId}/payments/stripe/connect`);
  });

  it('starts from the checkout default, saves each method, and the checkout reads what was saved', async () => {
    const first = (await adminCall(server, fx.admin.cookie, 'GET', path())).json();
    expect(first).toMatchObject({
      revision: 0, paymentsMode: 'test', invoiceDueDays: 14,
      methods: { card: { enabled: true, available: true }, paypal: { enabled: false, available: true }, invoice: { enabled: false, available: true, takenBy: 'offline' } },
      manual: { label: '', defaultLabel: 'In-person Payment', defaultMessage: 'Pay the organizer on the day.' },
      stripe: { mode: 'test', connected: false },
    });
    const saved = await adminCall(server, fx.admin.cookie, 'PUT', path(), body(0));
    expect(saved.status).toBe(200);
    expect(saved.json()).toMatchObject({ revision: 1, invoiceDueDays: 30, methods: { paypal: { enabled: true }, klarna: { enabled: false } }, manual: { label: 'Pay at the studio' } });
    const checkout = await rawRequest(server, `/api/checkout/payment-options?educatorId=${fx.educatorId}`, { host: 'localhost:4321' });
    expect(checkout.json()).toMatchObject({
      card: { enabled: true }, paypal: { enabled: true }, klarna: { enabled: false }, invoice: { enabled: true, due_days: 30 },
      manual: { enabled: true, label: 'Pay at the studio', message: 'Cash or card on the day.' },
    });
    const again = await adminCall(server, fx.admin.cookie, 'PUT', path(), body(1, { paypal: { enabled: false }, manual: { enabled: false, label: '', message: '' } }));
    expect(again.json()).toMatchObject({ revision: 2, methods: { paypal: { enabled: false } }, manual: { label: '' } });
    const entry = (await adminCall(server, fx.admin.cookie, 'GET', `/api/admin/educators/${fx.educatorId}/changes?entity=payment_options`)).json().changes[0];
    expect(entry).toMatchObject({ action: 'update', revision: 2 });
    expect(entry.changes.paypal).toEqual([{ enabled: true }, { enabled: false }]);
    expect(entry.fields).not.toContain('card');
  });

  it('refuses a stale save (409), no method at all, and bad values', async () => {
    const current = (await adminCall(server, fx.admin.cookie, 'GET', path())).json().revision;
    expect((await adminCall(server, fx.admin.cookie, 'PUT', path(), body(current - 1))).status).toBe(409);
    expect((await adminCall(server, fx.admin.cookie, 'PUT', path(), body(0))).status).toBe(409);
    const none = await adminCall(server, fx.admin.cookie, 'PUT', path(), body(current, {
      card: { enabled: false }, paypal: { enabled: false }, invoice: { enabled: false, dueDays: 14 }, manual: { enabled: false, label: '', message: '' },
    }));
    expect(fieldsOf(none)).toEqual({ methods: 'must have at least one payment method turned on' });
    const bad = await adminCall(server, fx.admin.cookie, 'PUT', path(), body(current, { invoice: { enabled: true, dueDays: 400 }, manual: { enabled: true, label: 'x'.repeat(61), message: '' } }));
    expect(fieldsOf(bad)).toEqual({ 'invoice.dueDays': 'must be at most 365', 'manual.label': 'must be at most 60 characters' });
  });

  it('connects a stand-in account in test mode (no Stripe keys)', async () => {
    const res = await adminCall(server, fx.admin.cookie, 'POST', `/api/admin/educators/${fx.educatorId}/payments/stripe/connect`);
    expect(res.status).toBe(200);
    expect(res.json()).toMatchObject({ status: 'connected', stripe: { mode: 'test', connected: true, chargesEnabled: true } });
    const rows = await server.db.selectFrom('educator_payment_accounts').selectAll().where('educator_id', '=', fx.educatorId).execute();
    expect(rows.map((r) => r.provider)).toEqual([TEST_CONNECT_PROVIDER]);
    expect(rows[0]!.account_id).toMatch(/^acct_test_/);
    // Never taken for a Stripe account.
    expect(rows.some((r) => r.provider === 'stripe')).toBe(false);
  });
});

describe('connecting Stripe with keys: Connect onboarding through Account Links', () => {
  let stripe: Server;
  let stripeServer: TestServer;
  const seen: { path: string; body: string; account?: string }[] = [];

  beforeAll(async () => {
    stripe = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        seen.push({ path: `${req.method} ${req.url}`, body });
        res.setHeader('content-type', 'application/json');
        if (req.method === 'POST' && req.url === '/v1/accounts') return res.end(JSON.stringify({ id: 'acct_1FakeConnect', object: 'account', charges_enabled: false }));
        if (req.method === 'POST' && req.url === '/v1/account_links') return res.end(JSON.stringify({ object: 'account_link', url: 'https://connect.stripe.com/setup/e/acct_1FakeConnect/abc', expires_at: 0 }));
        if (req.method === 'GET' && req.url === '/v1/accounts/acct_1FakeConnect') return res.end(JSON.stringify({ id: 'acct_1FakeConnect', object: 'account', charges_enabled: true }));
        res.statusCode = 404;
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'no such route' } }));
      });
    });
    await new Promise<void>((ok) => stripe.listen(0, '127.0.0.1', ok));
    const port = (stripe.address() as AddressInfo).port;
    stripeServer = await startTestServer({
      ...ADMIN_ENV, PAYMENTS_MODE: 'live', STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_PUBLISHABLE_KEY: 'pk_test_fake', STRIPE_API_BASE: `http://127.0.0.1:${port}`,
      UPLOADS_DIR: join(work, 'uploads2'),
    }, server.testDb);
  });
  afterAll(async () => {
    await stripeServer?.close();
    await new Promise((ok) => stripe?.close(ok));
  });

  it('makes the educator\'s Express account once, and sends the admin to Stripe\'s onboarding and back to /payments', async () => {
    const connect = `/api/admin/educators/${fx.otherEducatorId}/payments/stripe/connect`;
    const res = await adminCall(stripeServer, fx.otherAdmin.cookie, 'POST', connect);
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'onboarding', url: 'https://connect.stripe.com/setup/e/acct_1FakeConnect/abc' });
    const account = seen.find((s) => s.path === 'POST /v1/accounts')!;
    expect(new URLSearchParams(account.body).get('type')).toBe('express');
    expect(new URLSearchParams(account.body).get('metadata[educator_id]')).toBe(fx.otherEducatorId);
    const link = new URLSearchParams(seen.find((s) => s.path === 'POST /v1/account_links')!.body);
    expect(link.get('account')).toBe('acct_1FakeConnect');
    expect(link.get('type')).toBe('account_onboarding');
    expect(link.get('return_url')).toBe(`http://${ADMIN_HOST}/payments?educator-context=${fx.otherEducatorId}&stripe=return`);
    const row = await stripeServer.db.selectFrom('educator_payment_accounts').selectAll().where('educator_id', '=', fx.otherEducatorId).where('provider', '=', 'stripe').executeTakeFirstOrThrow();
    expect(row.account_id).toBe('acct_1FakeConnect');
    // Again: the same account, a new link.
    await adminCall(stripeServer, fx.otherAdmin.cookie, 'POST', connect);
    expect(seen.filter((s) => s.path === 'POST /v1/accounts')).toHaveLength(1);
    expect(seen.filter((s) => s.path === 'POST /v1/account_links')).toHaveLength(2);
    const view = (await adminCall(stripeServer, fx.otherAdmin.cookie, 'GET', `/api/admin/educators/${fx.otherEducatorId}/payment-options`)).json();
    expect(view).toMatchObject({ paymentsMode: 'live', stripe: { mode: 'stripe', connected: true, accountId: 'acct_1FakeConnect', chargesEnabled: true } });
    await expectGuarded(stripeServer, fx, 'POST', `/api/admin/educators/${fx.educatorId}/payments/stripe/connect`);
  });
});

describe('activity: the audit log in pages', () => {
  it('pages with a cursor without skipping entries of the same second', async () => {
    const { educatorId, admin } = await adminFixture(server, 'act');
    for (let i = 0; i < 5; i++) {
      await recordChange(server.db, { educatorId, userId: admin.user.id, entity: 'educator', entityId: educatorId, action: 'update', revision: i + 2, changes: { name: [`n${i}`, `n${i + 1}`] }, at: 1_800_000_000 });
    }
    const seenIds: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await adminCall(server, admin.cookie, 'GET', `/api/admin/educators/${educatorId}/changes?limit=2${q}`);
      expect(res.status).toBe(200);
      const page: { changes: { id: string }[]; next: string | null } = res.json();
      seenIds.push(...page.changes.map((c) => c.id));
      cursor = page.next;
      pages++;
    } while (cursor && pages < 10);
    expect(seenIds).toHaveLength(5);
    expect(new Set(seenIds).size).toBe(5);
    expect((await adminCall(server, admin.cookie, 'GET', `/api/admin/educators/${educatorId}/changes?cursor=bad`)).status).toBe(400);
  });
});
