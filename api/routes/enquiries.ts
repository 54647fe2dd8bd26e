/**
 * POST /api/enquiries (spec 2.9, 2.10, 3 "Enquiry payload", 5 "Enquiry and waitlist", 7) → 201 {id, type}
 *   {contact_details{first_name, last_name, email, phone},
 *    details{message, embedded, course_slug, course_name, enquiry_type, occurrence_ref},
 *    type: 'message' | 'waitlist', educator_slug, captchaToken}
 * Checks, in order:
 * 1. the body's shape → generic/validation-error;
 * 2. the educator → 404 generic/not-found;
 * 3. type 'message' to an educator with can_be_contacted false → 403 enquiries/contact-disabled
 *    (the waitlist stays open);
 * 4. required fields (enquiry: first name, last name, email, telephone, message, and the enquiry type
 *    when the educator defines types; waitlist: first name, last name, email, telephone)
 *    → generic/validation-error listing each, e.g. 'First name is required';
 * 5. the email (src/domain/email.ts) → generic/invalid-email-address with the spec's message;
 * 6. the telephone (src/domain/phone.ts, stored normalised) → generic/invalid-phone-number;
 * 7. the enquiry type, when given to an educator with types, must be one of its labels → validation error;
 * 8. the captcha (api/captcha) → 400 captcha/invalid; a solution works once.
 * course_slug and course_name are kept only when both are present (spec 2.9); course_id is set when
 * course_slug names one of the educator's courses (by slug or id). The enquiry and the
 * 'Enquriy Sumbitted' analytics event ({educator_ref, educator_name}) are stored together.
 */
import { createHash, randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { clientIp } from '../http/client-ip.ts';
import { enquiryRules } from '../http/abuse-limits.ts';
import { refundHits, takeHits } from '../http/rate-limit.ts';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { verifyCaptcha } from '../captcha/index.ts';
import { ProblemError, problemType, problems, type Problem, type ProblemProperty } from '../../src/domain/problems.ts';
import { assertEmail } from '../../src/domain/email.ts';
import { normalisePhone } from '../../src/domain/phone.ts';
import {
  ENQUIRY_FIELD_LABELS, REQUIRED_MESSAGE, enquiryCourseDetails, requiredEnquiryFields, type EnquiryValues,
} from '../../src/domain/enquiry.ts';
import { ENQUIRY_SUBMITTED, enquiryEventProperties } from '../../src/domain/analytics.ts';
import { callerContext, recordAnalyticsEvent } from '../analytics/events.ts';

export const CONTACT_DISABLED_SLUG = 'enquiries/contact-disabled';
export function contactDisabled(educatorName: string): Problem {
  return {
    type: problemType(CONTACT_DISABLED_SLUG),
    title: 'Messages Not Accepted',
    status: 403,
    detail: `${educatorName} is not accepting messages.`,
  };
}

const text = (max: number) => z.string().max(max, `must be at most ${max} characters`).nullish();

const enquiryBody = z.object({
  contact_details: z
    .object({ first_name: text(100), last_name: text(100), email: text(254), phone: text(100) })
    .nullish()
    .transform((v) => v ?? {}),
  details: z
    .object({
      message: text(5000),
      embedded: z.boolean().nullish(),
      course_slug: text(200),
      course_name: text(300),
      enquiry_type: text(200),
      occurrence_ref: text(200),
    })
    .nullish()
    .transform((v) => v ?? {}),
  type: z.enum(['message', 'waitlist']),
  educator_slug: z.string().min(1).max(200),
  captchaToken: z.string().max(10_000).nullish(),
});

const clean = (v: string | null | undefined): string | null => {
  const t = typeof v === 'string' ? v.trim() : '';
  return t === '' ? null : t;
};

function ipHash(c: Context<AppEnv>): string | null {
  const { config } = c.var.deps;
  const ip = clientIp(c);
  if (ip === 'unknown') return null;
  return createHash('sha256').update(`${config.APP_SECRET}:ip:${ip}`).digest('hex').slice(0, 32);
}

type EnquiryBody = z.output<typeof enquiryBody>;

interface EnquiryEducator { id: string; name: string; labels: string[] }

/** Checks 2 and 3: the educator the enquiry is for, and whether it takes messages; with its enquiry types' labels. */
async function enquiryEducator(c: Context<AppEnv>, body: EnquiryBody): Promise<EnquiryEducator> {
  const educator = await c.var.deps.db
    .selectFrom('educators')
    .select(['id', 'name', 'can_be_contacted', 'enquiry_types'])
    .where('slug', '=', body.educator_slug)
    .executeTakeFirst();
  if (!educator) throw new ProblemError(problems.notFound('No educator has this address.'));
  if (body.type === 'message' && !educator.can_be_contacted) throw new ProblemError(contactDisabled(educator.name));
  const labels = (Array.isArray(educator.enquiry_types) ? educator.enquiry_types : [])
    .map((t) => (typeof t?.label === 'string' ? t.label : ''))
    .filter(Boolean);
  return { id: educator.id, name: educator.name, labels };
}

interface CheckedEnquiry { values: EnquiryValues; email: string; phone: string; enquiryType: string | null }

/** Checks 4 to 7: required fields, the email, the telephone (normalised) and the enquiry type. */
function checkedValues(body: EnquiryBody, labels: string[]): CheckedEnquiry {
  const values: EnquiryValues = {
    first_name: clean(body.contact_details.first_name),
    last_name: clean(body.contact_details.last_name),
    email: clean(body.contact_details.email),
    phone: clean(body.contact_details.phone),
    message: clean(body.details.message),
    enquiry_type: clean(body.details.enquiry_type),
  };
  const keyOf = (field: keyof EnquiryValues) =>
    field === 'message' || field === 'enquiry_type' ? `details.${field}` : `contact_details.${field}`;
  const missing: ProblemProperty[] = requiredEnquiryFields(body.type, labels.length > 0)
    .filter((field) => values[field] === null)
    .map((field) => ({ key: keyOf(field), name: ENQUIRY_FIELD_LABELS[field], message: REQUIRED_MESSAGE }));
  if (missing.length > 0) throw new ProblemError(problems.validation(missing));

  const email = values.email as string;
  assertEmail(email);
  const phone = normalisePhone(values.phone);
  const enquiryType = values.enquiry_type ?? null;
  if (enquiryType !== null && labels.length > 0 && !labels.includes(enquiryType)) {
    throw new ProblemError(
      problems.validation([{ key: 'details.enquiry_type', name: ENQUIRY_FIELD_LABELS.enquiry_type, message: `must be one of: ${labels.join(', ')}` }]),
    );
  }
  return { values, email, phone, enquiryType };
}

/** Check 8, within the rate limits: accepted enquiries per client and per educator each hour. */
async function spendCaptcha(c: Context<AppEnv>, educatorId: string, captchaToken: string | null | undefined): Promise<void> {
  const { db, now } = c.var.deps;
  // One that fails from here on is given back.
  const rules = enquiryRules(c, educatorId);
  await takeHits(db, rules, now());
  try {
    await verifyCaptcha(c.var.deps, captchaToken);
  } catch (error) {
    await refundHits(db, rules, now());
    throw error;
  }
}

/** The course the enquiry is about, with its id when the slug (or id) names one of the educator's courses. */
async function attachedCourse(c: Context<AppEnv>, educatorId: string, body: EnquiryBody) {
  // Spec 2.9: the course is attached only when both its slug (the page's course_ref) and its name are present.
  const attached = enquiryCourseDetails({ course_ref: clean(body.details.course_slug), course_name: clean(body.details.course_name) });
  const course = attached
    ? await c.var.deps.db
        .selectFrom('courses')
        .select('id')
        .where('educator_id', '=', educatorId)
        .where((eb) => eb.or([eb('slug', '=', attached.course_ref), eb('id', '=', attached.course_ref)]))
        .executeTakeFirst()
    : undefined;
  return { attached, courseId: course?.id ?? null };
}

/** Stores the enquiry and its analytics event together; answers its id. */
async function storeEnquiry(c: Context<AppEnv>, body: EnquiryBody, educator: EnquiryEducator, checked: CheckedEnquiry): Promise<string> {
  const { db, now } = c.var.deps;
  const { attached, courseId } = await attachedCourse(c, educator.id, body);
  const { values, email, phone, enquiryType } = checked;
  const embedded = body.details.embedded === true;
  const caller = callerContext(c);
  const context = embedded ? 'embed' : caller.context;
  const id = `enq_${randomUUID()}`;
  const createdAt = now();
  await db.transaction().execute(async (tx) => {
    await tx
      .insertInto('enquiries')
      .values({
        id,
        type: body.type,
        educator_id: educator.id,
        course_id: courseId,
        first_name: values.first_name as string,
        last_name: values.last_name as string,
        email,
        phone,
        message: values.message,
        enquiry_type: enquiryType,
        occurrence_ref: clean(body.details.occurrence_ref),
        course_slug: attached?.course_ref ?? null,
        course_name: attached?.course_name ?? null,
        embedded,
        context,
        site: caller.site,
        user_id: c.var.user?.id ?? null,
        ip_hash: ipHash(c),
        created_at: createdAt,
      })
      .execute();
    await recordAnalyticsEvent(tx, {
      name: ENQUIRY_SUBMITTED,
      educatorId: educator.id,
      courseId,
      properties: enquiryEventProperties({ _id: educator.id, name: educator.name }),
      context,
      now: createdAt,
    });
  });
  return id;
}

/** POST /enquiries: the checks in the order above, then the enquiry is stored. */
async function postEnquiry(c: Context<AppEnv>) {
  const body = await parseJson(c, enquiryBody);
  const educator = await enquiryEducator(c, body);
  const checked = checkedValues(body, educator.labels);
  await spendCaptcha(c, educator.id, body.captchaToken);
  const id = await storeEnquiry(c, body, educator, checked);
  return c.json({ id, type: body.type }, 201);
}

export function enquiriesRoutes() {
  const app = new Hono<AppEnv>();
  app.post('/enquiries', postEnquiry);
  return app;
}
