/**
 * The educator itself in the admin (docs/admin.md "Onboarding" and "Profile & branding"):
 *
 *   POST  /admin/educators                      {name, slug, email, phone, termsAccepted} → 201 {id, slug, revision}
 *   GET   /admin/slug-check?slug=&educatorId=   → {slug, available, message}  (the forms' live check)
 *   GET   /admin/educators/{id}/profile         → every field the admin edits, its revision and old slugs
 *   PATCH /admin/educators/{id}/profile         {revision, …fields} → {revision, profile}
 *   POST  /admin/educators/{id}/images/{logo|cover}   multipart `file` → {url, width, height, bytes}
 *
 * Creating needs a signed-in user (any: onboarding is how an account becomes an educator's admin); it makes the
 * educator (claimed, with the spec's defaults), its first admin and the first audit entry in one transaction. The
 * rest is for the educator's admins (api/admin/access.ts). A save names the revision it was made on: one
 * transaction claims the next revision (409 when someone saved since), writes, and records each field's before
 * and after in the audit log. A new slug keeps the old one in educator_old_slugs, whose URLs then answer 301
 * (api/http/old-slugs.ts). The triggers of the catalogue queue the educator's pages; the publisher renders them.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { Transaction } from 'kysely';
import type { AppEnv, Deps } from '../deps.ts';
import type { Db } from '../../db/client.ts';
import type { Database, Educator, WorkingHours } from '../../db/schema.ts';
import { parseJson, parseQuery, parseWith } from '../http/parse.ts';
import { forgetSessionsOf, requireUser } from '../auth/middleware.ts';
import { authProblems } from '../auth/problems.ts';
import { newId } from '../shared/ids.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { phoneError, normalisePhone } from '../../src/domain/phone.ts';
import { validateEmail } from '../../src/domain/email.ts';
import { isSafeLink } from '../../src/domain/urls.ts';
import { DEFAULT_TAX_LABEL } from '../../src/domain/vat.ts';
import { WEEKDAYS } from '../../src/domain/workingHours.ts';
import {
  EDUCATOR_SLUG_TAKEN_MESSAGE, GA4_ID_MESSAGE, GA4_ID_PATTERN, HEX_COLOUR_MESSAGE, MAX_CANCELLATION_DAYS, MAX_EDUCATORS_PER_USER,
  PIXEL_ID_MESSAGE, PIXEL_ID_PATTERN, educatorSlugProblem, newEducatorDefaults, normaliseHexColour, sortedWorkingHours,
  workingHoursProblems, type FieldProblem,
} from '../../src/domain/admin/educator-profile.ts';
import { brandContrastProblem } from '../../src/lib/admin-branding.ts';
import { adminEducatorId, educatorIdParam } from './access.ts';
import { claimRevision, diffFields, recordChange } from './audit.ts';
import { sanitizeRichText } from './rich-text.ts';
import { IMAGE_KINDS, IMAGE_MAX_BYTES, isOwnUpload, processImage, storeImage, type ImageKind } from './uploads.ts';

type Executor = Db | Transaction<Database>;

/** The fields of an educator the admin edits (db column names), in the order the profile screen shows them. */
export const PROFILE_FIELDS = [
  'name', 'slug', 'bio', 'logo_url', 'cover_url', 'email', 'phone_number', 'address', 'links', 'enquiry_types', 'can_be_contacted',
  'working_hours', 'feature_flags', 'whitelabelling_enabled', 'color_brand', 'on_color_brand', 'third_party_codes', 'vat_settings',
  'tos', 'cancellation_allowed',
] as const;
export type ProfileField = (typeof PROFILE_FIELDS)[number];
export type ProfileValues = Pick<Educator, ProfileField>;

export const LINK_KEYS = ['web', 'facebook', 'instagram', 'twitter', 'pinterest', 'linkedin', 'youtube'] as const;
export const ADDRESS_KEYS = ['line1', 'line2', 'city', 'postcode'] as const;
const BIO_MAX = 20_000;
const TOS_MAX = 50_000;
const ENQUIRY_TYPES_MAX = 20;

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`);
const nullableText = (max: number) => text(max).nullable();
const bool = z.boolean({ error: 'must be true or false' });
const range = z.object({ from: z.number().int('must be whole seconds'), until: z.number().int('must be whole seconds') }).strict();

/** What a save may send: any of the fields (only those sent change), with the revision it was made on. */
const profilePatch = z.object({
  revision: z.number({ error: 'is required' }).int().positive(),
  name: text(120),
  slug: text(100),
  bio: text(BIO_MAX * 2),
  logo_url: nullableText(2048),
  cover_url: nullableText(2048),
  email: nullableText(254),
  phone_number: nullableText(40),
  address: z.object(Object.fromEntries(ADDRESS_KEYS.map((k) => [k, nullableText(200).optional()]))).strict().nullable(),
  links: z.object(Object.fromEntries(LINK_KEYS.map((k) => [k, nullableText(2048).optional()]))).strict(),
  enquiry_types: z.array(z.object({ label: text(80) }).strict()).max(ENQUIRY_TYPES_MAX, `must have at most ${ENQUIRY_TYPES_MAX} types`),
  can_be_contacted: bool,
  working_hours: z.record(z.string(), z.array(range).nullable()),
  feature_flags: z.object({ hide_marketing_consent: bool, hide_terms: bool, hide_pricing: bool, hide_social_prompts: bool }).strict(),
  whitelabelling_enabled: bool,
  color_brand: nullableText(20),
  on_color_brand: nullableText(20),
  third_party_codes: z.object({ ga4_id: nullableText(40).optional(), facebook_pixel_id: nullableText(40).optional() }).strict(),
  vat_settings: z.object({
    enabled: bool,
    is_vat_absorbed: bool,
    tax_label: nullableText(20).optional(),
    rate_bp: z.number().int('must be a whole number').min(0, 'must be at least 0').max(10_000, 'must be at most 10000').optional(),
  }).strict(),
  tos: nullableText(TOS_MAX * 2),
  cancellation_allowed: z.number().int('must be a whole number of days').min(0, 'must be at least 0').max(MAX_CANCELLATION_DAYS, `must be at most ${MAX_CANCELLATION_DAYS}`).nullable(),
}).partial().required({ revision: true }).strict();
type ProfilePatch = z.infer<typeof profilePatch>;

const createBody = z.object({
  name: text(120),
  slug: text(100),
  email: text(254),
  phone: text(40),
  termsAccepted: z.literal(true, { error: 'must be accepted' }),
}).strict();

/** Whether another educator has this slug now, or had it (its old URLs redirect there). */
export async function slugTaken(db: Executor, slug: string, educatorId: string | null): Promise<boolean> {
  const [current, old] = await Promise.all([
    db.selectFrom('educators').select('id').where('slug', '=', slug).executeTakeFirst(),
    db.selectFrom('educator_old_slugs').select('educator_id').where('slug', '=', slug).executeTakeFirst(),
  ]);
  return (!!current && current.id !== educatorId) || (!!old && old.educator_id !== educatorId);
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /UNIQUE constraint failed/.test(e?.message ?? '');
}

const takenProblem = () => new ProblemError(problems.validation([{ key: 'slug', message: EDUCATOR_SLUG_TAKEN_MESSAGE }]));

function check(out: FieldProblem[], key: string, message: string | null): void {
  if (message) out.push({ key, message });
}

function cleanLinks(links: Record<string, string | null | undefined>, out: FieldProblem[]): Record<string, string> {
  const clean: Record<string, string> = {};
  for (const key of LINK_KEYS) {
    const value = links[key]?.trim();
    if (!value) continue;
    if (!isSafeLink(value)) out.push({ key: `links.${key}`, message: 'must be a web address (https://…)' });
    else clean[key] = value;
  }
  return clean;
}

/** One group of a save's fields: validates and normalises those sent into `next`, adding problems to `out`. */
interface PatchStep {
  body: ProfilePatch;
  before: ProfileValues;
  next: Partial<ProfileValues>;
  out: FieldProblem[];
}

/** Name, slug, texts and images: the slug and the images are checked against the database. */
async function normaliseIdentity(deps: Deps, educatorId: string, { body, before, next, out }: PatchStep): Promise<void> {
  if (body.name !== undefined) {
    const name = body.name.trim().replace(/\s+/g, ' ');
    if (!name) out.push({ key: 'name', message: 'is required' });
    next.name = name;
  }
  if (body.slug !== undefined) {
    const slug = body.slug.trim();
    const problem = educatorSlugProblem(slug);
    check(out, 'slug', problem);
    if (!problem && slug !== before.slug && (await slugTaken(deps.db, slug, educatorId))) out.push({ key: 'slug', message: EDUCATOR_SLUG_TAKEN_MESSAGE });
    next.slug = slug;
  }
  if (body.bio !== undefined) {
    const bio = sanitizeRichText(body.bio);
    if (bio.length > BIO_MAX) out.push({ key: 'bio', message: `must be at most ${BIO_MAX} characters` });
    next.bio = bio;
  }
  if (body.tos !== undefined) {
    const tos = body.tos === null ? '' : sanitizeRichText(body.tos);
    if (tos.length > TOS_MAX) out.push({ key: 'tos', message: `must be at most ${TOS_MAX} characters` });
    next.tos = tos || null;
  }
  for (const kind of IMAGE_KINDS) {
    const field = kind === 'logo' ? 'logo_url' : 'cover_url';
    const value = body[field];
    if (value === undefined) continue;
    const url = value?.trim() || null;
    // None, the image it has now, or one of its own uploads: never any address on the web.
    if (url !== null && url !== before[field] && !(await isOwnUpload(deps.db, educatorId, kind, url))) {
      out.push({ key: field, message: `must be an image uploaded here (choose a new ${kind} file)` });
    }
    next[field] = url;
  }
}

/** How learners reach the educator: email, phone, address, links, enquiry types and working hours. */
function normaliseContact({ body, next, out }: PatchStep): void {
  if (body.email !== undefined) {
    const email = body.email?.trim() || null;
    if (email === null) out.push({ key: 'email', message: 'is required' });
    else check(out, 'email', validateEmail(email));
    next.email = email?.toLowerCase() ?? null;
  }
  if (body.phone_number !== undefined) {
    const phone = body.phone_number?.trim() || null;
    if (phone !== null) {
      const problem = phoneError(phone);
      check(out, 'phone_number', problem);
      next.phone_number = problem ? phone : normalisePhone(phone);
    } else next.phone_number = null;
  }
  if (body.address !== undefined) {
    const address: Record<string, string> = {};
    for (const key of ADDRESS_KEYS) {
      const value = body.address?.[key]?.trim();
      if (value) address[key] = value;
    }
    next.address = Object.keys(address).length ? address : null;
  }
  if (body.links !== undefined) next.links = cleanLinks(body.links, out);
  if (body.enquiry_types !== undefined) {
    const seen = new Set<string>();
    const types: { label: string }[] = [];
    body.enquiry_types.forEach((t, i) => {
      const label = t.label.trim().replace(/\s+/g, ' ');
      if (!label) out.push({ key: `enquiry_types.${i}.label`, message: 'is required' });
      else if (seen.has(label.toLowerCase())) out.push({ key: `enquiry_types.${i}.label`, message: 'is already in the list' });
      seen.add(label.toLowerCase());
      types.push({ label });
    });
    next.enquiry_types = types;
  }
  if (body.can_be_contacted !== undefined) next.can_be_contacted = body.can_be_contacted;
  if (body.working_hours !== undefined) {
    const problems = workingHoursProblems(body.working_hours as WorkingHours);
    out.push(...problems);
    if (!problems.length) next.working_hours = sortedWorkingHours(body.working_hours as WorkingHours);
  }
}

/** Display, brand colours, tracking codes, VAT and cancellation settings. */
function normaliseSettings({ body, before, next, out }: PatchStep): void {
  if (body.feature_flags !== undefined) {
    const f = body.feature_flags;
    next.feature_flags = { hide_marketing_consent: f.hide_marketing_consent, hide_terms: f.hide_terms, hide_pricing: f.hide_pricing, hide_social_prompts: f.hide_social_prompts };
  }
  if (body.whitelabelling_enabled !== undefined) next.whitelabelling_enabled = body.whitelabelling_enabled;
  for (const field of ['color_brand', 'on_color_brand'] as const) {
    const value = body[field];
    if (value === undefined) continue;
    const colour = value?.trim() ? normaliseHexColour(value) : null;
    if (value?.trim() && !colour) out.push({ key: field, message: HEX_COLOUR_MESSAGE });
    next[field] = colour;
  }
  if ((body.color_brand !== undefined || body.on_color_brand !== undefined) && !out.some((p) => p.key === 'color_brand' || p.key === 'on_color_brand')) {
    const brand = next.color_brand !== undefined ? next.color_brand : before.color_brand;
    const onBrand = next.on_color_brand !== undefined ? next.on_color_brand : before.on_color_brand;
    if (brand) check(out, 'on_color_brand', brandContrastProblem(brand, onBrand));
  }
  if (body.third_party_codes !== undefined) {
    const ga4 = body.third_party_codes.ga4_id?.trim().toUpperCase() || null;
    const pixel = body.third_party_codes.facebook_pixel_id?.replace(/\s+/g, '') || null;
    if (ga4 && !GA4_ID_PATTERN.test(ga4)) out.push({ key: 'third_party_codes.ga4_id', message: GA4_ID_MESSAGE });
    if (pixel && !PIXEL_ID_PATTERN.test(pixel)) out.push({ key: 'third_party_codes.facebook_pixel_id', message: PIXEL_ID_MESSAGE });
    next.third_party_codes = { ga4_id: ga4, facebook_pixel_id: pixel };
  }
  if (body.vat_settings !== undefined) {
    const v = body.vat_settings;
    next.vat_settings = {
      enabled: v.enabled,
      is_vat_absorbed: v.is_vat_absorbed,
      tax_label: v.tax_label?.trim() || DEFAULT_TAX_LABEL,
      ...(v.rate_bp !== undefined ? { rate_bp: v.rate_bp } : before.vat_settings?.rate_bp !== undefined ? { rate_bp: before.vat_settings.rate_bp } : {}),
    };
  }
}

/**
 * The validated, normalised values of a save (only the fields it sends), or every problem at once (400). `before`
 * is the educator as it is: a colour pair is judged as it will be after the save.
 */
async function normalisePatch(deps: Deps, educatorId: string, body: ProfilePatch, before: ProfileValues): Promise<Partial<ProfileValues>> {
  const out: FieldProblem[] = [];
  const next: Partial<ProfileValues> = {};
  const step: PatchStep = { body, before, next, out };
  await normaliseIdentity(deps, educatorId, step);
  normaliseContact(step);
  normaliseSettings(step);
  if (body.cancellation_allowed !== undefined) next.cancellation_allowed = body.cancellation_allowed;
  if (out.length) throw new ProblemError(problems.validation(out));
  return next;
}

export interface ProfileView extends ProfileValues {
  id: string;
  revision: number;
  claimed: boolean;
  oldSlugs: string[];
}

export async function loadProfile(db: Executor, educatorId: string): Promise<ProfileView | null> {
  const row = await db.selectFrom('educators').selectAll().where('id', '=', educatorId).executeTakeFirst();
  if (!row) return null;
  const old = await db.selectFrom('educator_old_slugs').select('slug').where('educator_id', '=', educatorId).orderBy('created_at', 'desc').execute();
  const view = Object.fromEntries(PROFILE_FIELDS.map((f) => [f, row[f]])) as unknown as ProfileValues;
  return {
    ...view,
    working_hours: Object.fromEntries(WEEKDAYS.map((d) => [d, row.working_hours?.[d] ?? null])) as WorkingHours,
    id: row.id,
    revision: Number(row.revision),
    claimed: !!row.claimed,
    oldSlugs: old.map((o) => o.slug),
  };
}

/** Keeps the slug an educator leaves, so its URLs redirect; taking an old slug of its own back removes that row. */
async function moveSlug(trx: Transaction<Database>, educatorId: string, from: string, to: string, now: number): Promise<void> {
  await trx.deleteFrom('educator_old_slugs').where('slug', '=', to).where('educator_id', '=', educatorId).execute();
  await trx.insertInto('educator_old_slugs').values({ slug: from, educator_id: educatorId, created_at: now })
    .onConflict((oc) => oc.column('slug').doUpdateSet({ educator_id: educatorId, created_at: now }))
    .execute();
}

/** POST /admin/educators and the live slug check, mounted directly in adminRoutes() (no educator yet). */
export function educatorOnboardingRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/admin/slug-check', async (c) => {
    requireUser(c);
    const q = parseQuery(c, z.object({ slug: z.string().max(100), educatorId: educatorIdParam.optional() }));
    const slug = q.slug.trim();
    const user = c.var.user!;
    // Only the user's own educator counts as "itself" (an id the user does not administer is ignored).
    const self = q.educatorId && user.educatorIds.includes(q.educatorId) ? q.educatorId : null;
    const problem = educatorSlugProblem(slug) ?? ((await slugTaken(c.var.deps.db, slug, self)) ? EDUCATOR_SLUG_TAKEN_MESSAGE : null);
    return c.json({ slug, available: problem === null, message: problem });
  });

  app.post('/admin/educators', async (c) => {
    const user = requireUser(c);
    const deps = c.var.deps;
    const body = await parseJson(c, createBody);
    const out: FieldProblem[] = [];
    const name = body.name.trim().replace(/\s+/g, ' ');
    if (!name) out.push({ key: 'name', message: 'is required' });
    const slug = body.slug.trim();
    check(out, 'slug', educatorSlugProblem(slug));
    const email = body.email.trim().toLowerCase();
    check(out, 'email', email ? validateEmail(email) : 'is required');
    const phone = body.phone.trim();
    check(out, 'phone', phone ? phoneError(phone) : 'is required');
    if (!out.some((p) => p.key === 'slug') && (await slugTaken(deps.db, slug, null))) out.push({ key: 'slug', message: EDUCATOR_SLUG_TAKEN_MESSAGE });
    if (out.length) throw new ProblemError(problems.validation(out));
    if (user.educatorIds.length >= MAX_EDUCATORS_PER_USER) {
      throw new ProblemError(authProblems.conflict('Too Many Educators', `An account can administer at most ${MAX_EDUCATORS_PER_USER} educators it created.`));
    }
    const id = newId('edu');
    const now = deps.now();
    const values = { ...newEducatorDefaults(), id, slug, name, email, phone_number: normalisePhone(phone), created_at: now };
    try {
      await deps.db.transaction().execute(async (trx) => {
        await trx.insertInto('educators').values(values).execute();
        await trx.insertInto('educator_admins').values({ user_id: user.id, educator_id: id, created_at: now }).execute();
        const changes: Record<string, [unknown, unknown]> = { terms_accepted: [null, true] };
        // What it was created with (the empty defaults say nothing).
        for (const [key, value] of Object.entries(values)) {
          const empty = value === null || value === '' || (typeof value === 'object' && Object.keys(value).length === 0);
          if (key !== 'id' && key !== 'created_at' && !empty) changes[key] = [null, value];
        }
        await recordChange(trx, { educatorId: id, userId: user.id, entity: 'educator', entityId: id, action: 'create', revision: 1, changes, at: now });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw takenProblem();
      throw err;
    }
    // The new educator is among the user's at once (the session names the educators it administers).
    forgetSessionsOf(c, user.id);
    return c.json({ id, slug, revision: 1 }, 201);
  });

  return app;
}

/** The profile, its saves and its images; relative to /admin/educators/{educatorId} (educator admins only). */
export function educatorProfileRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/profile', async (c) => {
    const profile = await loadProfile(c.var.deps.db, adminEducatorId(c));
    if (!profile) throw new ProblemError(problems.notFound('This educator no longer exists.'));
    return c.json({ profile });
  });

  app.patch('/profile', async (c) => {
    const educatorId = adminEducatorId(c);
    const user = c.var.user!;
    const deps = c.var.deps;
    const body = await parseJson(c, profilePatch);
    const current = await loadProfile(deps.db, educatorId);
    if (!current) throw new ProblemError(problems.notFound('This educator no longer exists.'));
    const next = await normalisePatch(deps, educatorId, body, current);
    const now = deps.now();
    let revision = body.revision;
    try {
      await deps.db.transaction().execute(async (trx) => {
        revision = await claimRevision(trx, { table: 'educators', id: educatorId, expected: body.revision, educatorId, entity: 'educator' });
        // Read again under the claim: the before of the audit entry is what this save replaced.
        const before = (await loadProfile(trx, educatorId))!;
        const changes = diffFields(before as unknown as Record<string, unknown>, next as Record<string, unknown>);
        if (next.slug !== undefined && next.slug !== before.slug) {
          if (await slugTaken(trx, next.slug, educatorId)) throw takenProblem();
          await moveSlug(trx, educatorId, before.slug, next.slug, now);
        }
        if (Object.keys(changes).length) {
          const set = Object.fromEntries(Object.keys(changes).map((k) => [k, next[k as ProfileField]]));
          await trx.updateTable('educators').set(set).where('id', '=', educatorId).execute();
        }
        await recordChange(trx, { educatorId, userId: user.id, entity: 'educator', entityId: educatorId, action: 'update', revision, changes, at: now });
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw takenProblem();
      throw err;
    }
    return c.json({ revision, profile: await loadProfile(deps.db, educatorId) });
  });

  app.post('/images/:kind', async (c) => {
    const educatorId = adminEducatorId(c);
    const { kind } = parseWith(z.object({ kind: z.enum(IMAGE_KINDS, { error: 'must be logo or cover' }) }), { kind: c.req.param('kind') });
    const type = c.req.header('content-type') ?? '';
    if (!type.toLowerCase().startsWith('multipart/form-data')) {
      throw new ProblemError(problems.validation([{ key: 'file', message: 'must be sent as multipart/form-data' }]));
    }
    let file: unknown;
    try {
      file = (await c.req.parseBody())['file'];
    } catch {
      throw new ProblemError(problems.validation([{ key: 'file', message: 'must be sent as multipart/form-data' }]));
    }
    if (!(file instanceof File)) throw new ProblemError(problems.validation([{ key: 'file', message: 'is required' }]));
    if (file.size > IMAGE_MAX_BYTES) throw new ProblemError(problems.validation([{ key: 'file', message: `must be at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB` }]));
    const image = await processImage(new Uint8Array(await file.arrayBuffer()), kind as ImageKind);
    const url = await storeImage(c.var.deps, educatorId, kind as ImageKind, image.data, c.var.user?.id ?? null);
    return c.json({ url, width: image.width, height: image.height, bytes: image.data.length }, 201);
  });

  return app;
}
