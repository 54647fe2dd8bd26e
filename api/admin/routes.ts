/**
 * The educator admin's API (docs/admin.md), mounted under /api by the composition root:
 *
 *   GET /admin/me                                   → the signed-in user and the educators they administer
 *   GET /admin/educators/{educatorId}/changes       → the audit log, newest first (?entity=&entityId=&before=&cursor=&limit=),
 *                                                     with `next`, the cursor of the following page (null at the end)
 *   GET /admin/educators/{educatorId}/publish-status → whether the educator's pages are fresh (?courseId= for links)
 *   POST /admin/educators, GET /admin/slug-check     → onboarding (api/admin/educators.ts)
 *   …   /admin/educators/{educatorId}/…             → one router per area, each mounted below
 *
 * Everything under /admin/educators/{educatorId} passes `educatorAdminOnly` first (api/admin/access.ts): 401
 * without a session, 403 for anyone who does not administer that educator. Answers are never cached.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseQuery } from '../http/parse.ts';
import { requireUser } from '../auth/middleware.ts';
import { educatorsOf } from '../auth/identity.ts';
import { adminEducatorId, educatorAdminOnly } from './access.ts';
import { listChanges } from './audit.ts';
import { publishStatus } from './publish-status.ts';
import { datesAdminRoutes } from './dates.ts';
import { formsAdminRoutes } from './forms.ts';
import { locationsAdminRoutes } from './locations.ts';
import { collectionsAdminRoutes } from './collections.ts';
import { promoCodesAdminRoutes } from './promo-codes.ts';
import { giftVouchersAdminRoutes } from './gift-vouchers.ts';
import { membershipsAdminRoutes } from './memberships.ts';
import { courseAdminRoutes } from './courses.ts';
import { courseImageAdminRoutes, courseImagePublicRoutes } from './course-images.ts';
import { educatorOnboardingRoutes, educatorProfileRoutes } from './educators.ts';
import { paymentOptionsAdminRoutes } from './payments.ts';
import { bookingsAdminRoutes } from './bookings.ts';
import { approvalsAdminRoutes } from './approvals.ts';
import { reviewsAdminRoutes } from './reviews.ts';
import { registersAdminRoutes } from './registers.ts';
import { inboxAdminRoutes } from './inbox.ts';
import { numbersAdminRoutes } from './numbers.ts';
import { moneyAdminRoutes } from './money.ts';
import { messagesAdminRoutes } from './messages.ts';

/** Methods that change nothing. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The routers of each area of the admin, relative to /admin/educators/{educatorId}. */
function educatorAreas(): Hono<AppEnv>[] {
  return [changesRoutes(), publishStatusRoutes(), datesAdminRoutes(), formsAdminRoutes(),
    locationsAdminRoutes(), collectionsAdminRoutes(), promoCodesAdminRoutes(), giftVouchersAdminRoutes(), membershipsAdminRoutes(),
    courseAdminRoutes(), courseImageAdminRoutes(), educatorProfileRoutes(), paymentOptionsAdminRoutes(),
    bookingsAdminRoutes(), approvalsAdminRoutes(),
    reviewsAdminRoutes(), registersAdminRoutes(), inboxAdminRoutes(), numbersAdminRoutes(), moneyAdminRoutes(), messagesAdminRoutes()];
}

export function adminRoutes() {
  const app = new Hono<AppEnv>();
  app.use('/admin/*', async (c, next) => {
    await next();
    c.res.headers.set('cache-control', 'private, no-store');
    // A save has committed (its pages are in the change feed): the admin waits to see them live, so the publisher
    // starts now rather than at its next poll.
    if (!SAFE_METHODS.has(c.req.method) && c.res.status < 400) c.var.deps.feedSignal?.committed();
  });

  app.get('/admin/me', async (c) => {
    const user = requireUser(c);
    return c.json({
      user: { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName },
      educators: await educatorsOf(c.var.deps.db, user.educatorIds),
    });
  });

  // Creating an educator (onboarding) and the live slug check: for any signed-in user, no educator yet.
  app.route('/', educatorOnboardingRoutes());

  const scoped = new Hono<AppEnv>();
  scoped.use('*', educatorAdminOnly());
  for (const area of educatorAreas()) scoped.route('/', area);
  app.route('/admin/educators/:educatorId', scoped);
  // Course images are public: every host's pages load them (api/admin/course-images.ts).
  app.route('/', courseImagePublicRoutes());
  return app;
}

function changesRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/changes', async (c) => {
    const q = parseQuery(c, z.object({
      entity: z.string().max(40).optional(),
      entityId: z.string().max(64).optional(),
      before: z.coerce.number().int().positive().optional(),
      limit: z.coerce.number().int().min(1).max(200).optional(),
      /** The `next` of the previous page ("{at}:{id}"): "Load more" (the Activity screen). */
      cursor: z.string().max(120).regex(/^[0-9]{1,12}:[A-Za-z0-9_-]{1,100}$/, 'is not a cursor of this list').optional(),
    }));
    const { cursor, ...rest } = q;
    const limit = q.limit ?? 50;
    const at = cursor ? { before: Number(cursor.slice(0, cursor.indexOf(':'))), beforeId: cursor.slice(cursor.indexOf(':') + 1) } : {};
    const changes = await listChanges(c.var.deps.db, { educatorId: adminEducatorId(c), ...rest, ...at, limit });
    const last = changes[changes.length - 1];
    return c.json({ changes, next: changes.length === limit && last ? `${last.at}:${last.id}` : null });
  });
  return app;
}

function publishStatusRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/publish-status', async (c) => {
    const q = parseQuery(c, z.object({ courseId: z.string().max(64).optional() }));
    return c.json(await publishStatus(c.var.deps, adminEducatorId(c), q.courseId ?? null));
  });
  return app;
}
