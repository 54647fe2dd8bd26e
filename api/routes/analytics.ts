/**
 * POST /api/analytics/events (spec 1 "Analytics", 8) → 202 {accepted: true}
 *   {name, educator_ref, course_ref?, link_type?, educator_name?}
 *   name: one of the constants of src/domain/analytics.ts — 'Educator Profile View', 'Course Page View',
 *         'External Redirect', 'Enquriy Sumbitted' (matched without regard to case, stored as the constant);
 *   course_ref: required for a course page view; when given it must be a course of the educator;
 *   link_type: required for 'External Redirect', one of the social link types.
 * Unknown educator → 400 analytics/invalid-educator-id ('Invalid Educator ID');
 * bad or missing link type → 400 analytics/invalid-educator-link-type ('Invalid Link Type');
 * anything else malformed → generic/validation-error.
 * POST /api/enquiries records 'Enquriy Sumbitted' itself: pages need not send it. Sent here, it must carry
 * `enquiry_ref`, the id POST /api/enquiries answered, of an enquiry to that educator (else 400): it is then accepted
 * and nothing more is recorded (the enquiry's own event stands), so no client can add enquiries to the figures.
 * The stored properties are {educator_ref, educator_name (the educator's name as we hold it), course_ref?, link_type?}.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson } from '../http/parse.ts';
import { ANALYTICS_EVENT_NAMES, callerContext, recordAnalyticsEvent } from '../analytics/events.ts';
import { analyticsRules } from '../http/abuse-limits.ts';
import { takeHits } from '../http/rate-limit.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import {
  COURSE_PAGE_VIEW, ENQUIRY_SUBMITTED, EXTERNAL_REDIRECT, isSocialLinkType,
} from '../../src/domain/analytics.ts';

const eventBody = z.object({
  name: z.string().min(1).max(100),
  educator_ref: z.string().max(200).optional(),
  course_ref: z.string().min(1).max(200).nullish(),
  link_type: z.string().max(50).nullish(),
  educator_name: z.string().max(300).nullish(),
  enquiry_ref: z.string().min(1).max(200).nullish(),
});

export function analyticsRoutes() {
  const app = new Hono<AppEnv>();
  app.post('/analytics/events', async (c) => {
    const body = await parseJson(c, eventBody);
    const name = ANALYTICS_EVENT_NAMES.find((n) => n.toLowerCase() === body.name.trim().toLowerCase());
    if (!name) {
      throw new ProblemError(problems.validation([{ key: 'name', name: 'Name', message: `must be one of: ${ANALYTICS_EVENT_NAMES.join(', ')}` }]));
    }
    const { db, now } = c.var.deps;
    const educator = body.educator_ref
      ? await db.selectFrom('educators').select(['id', 'name']).where('id', '=', body.educator_ref).executeTakeFirst()
      : undefined;
    if (!educator) throw new ProblemError(problems.invalidEducatorId('No educator has this id.'));
    if (name === EXTERNAL_REDIRECT || (body.link_type !== undefined && body.link_type !== null)) {
      if (!isSocialLinkType(body.link_type)) {
        throw new ProblemError(problems.invalidLinkType('The link type must be one of facebook, instagram, linkedin, pinterest, twitter, web, youtube or tel.'));
      }
    }
    let courseId: string | null = null;
    if (body.course_ref) {
      const course = await db.selectFrom('courses').select('id').where('id', '=', body.course_ref).where('educator_id', '=', educator.id).executeTakeFirst();
      if (!course) throw new ProblemError(problems.validation([{ key: 'course_ref', name: 'Course', message: 'is not a course of this educator' }]));
      courseId = course.id;
    } else if (name === COURSE_PAGE_VIEW) {
      throw new ProblemError(problems.validation([{ key: 'course_ref', name: 'Course', message: 'is required for a course page view' }]));
    }
    if (name === ENQUIRY_SUBMITTED) {
      // Only a real enquiry proves one was submitted; it recorded its event when it was made.
      const enquiry = body.enquiry_ref
        ? await db.selectFrom('enquiries').select('id').where('id', '=', body.enquiry_ref).where('educator_id', '=', educator.id).executeTakeFirst()
        : undefined;
      if (!enquiry) {
        throw new ProblemError(problems.validation([{ key: 'enquiry_ref', name: 'Enquiry', message: 'must be the id of an enquiry submitted to this educator' }]));
      }
      await takeHits(db, analyticsRules(c, name, educator.id, courseId), now());
      return c.json({ accepted: true }, 202);
    }
    // Per client and per target.
    await takeHits(db, analyticsRules(c, name, educator.id, courseId), now());
    const properties: Record<string, unknown> = { educator_ref: educator.id, educator_name: educator.name };
    if (courseId) properties.course_ref = courseId;
    if (body.link_type) properties.link_type = body.link_type;
    await recordAnalyticsEvent(db, { name, educatorId: educator.id, courseId, properties, context: callerContext(c).context, now: now() });
    return c.json({ accepted: true }, 202);
  });
  return app;
}
