/**
 * Approvals and requests (docs/admin.md "Approvals and requests"), relative to /api/admin/educators/{educatorId}:
 *
 *   GET  /requests                               → bookings awaiting approval, applications and requests to answer, recent answers
 *   POST /bookings/{bookingId}/approve           → confirm a booking awaiting approval (the learner is e-mailed)
 *   POST /bookings/{bookingId}/decline           → decline it: cancelled, refunded in full, spaces back {requestKey, reason?}
 *   POST /applications/{applicationId}/accept    → book it (spaces taken now; paid in person or free)
 *   POST /applications/{applicationId}/decline   → {reason?}
 *   POST /requests/{requestId}/answer            → a date and a price {start, end, price, spaces?, delivery?, message?, validDays?}
 *   POST /requests/{requestId}/decline           → {reason?}
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson, parseParams } from '../http/parse.ts';
import { adminEducatorId } from './access.ts';
import { adminIdParam } from './bookings.ts';
import { cancelBookingAsEducator, requestKeySchema } from './bookings-actions.ts';
import {
  acceptApplication, answerRequest, approveBooking, decisionBodySchema, declineApplication, declineRequest, listRequests, quoteBodySchema,
} from './approvals-service.ts';

export function approvalsAdminRoutes(): Hono<AppEnv> {
  const app = new Hono<AppEnv>();

  app.get('/requests', async (c) => c.json(await listRequests(c.var.deps, adminEducatorId(c))));

  app.post('/bookings/:bookingId/approve', async (c) => {
    const { bookingId } = parseParams(c, z.object({ bookingId: adminIdParam }));
    return c.json(await approveBooking(c.var.deps, { userId: c.var.user!.id, educatorId: adminEducatorId(c), bookingId }));
  });

  app.post('/bookings/:bookingId/decline', async (c) => {
    const { bookingId } = parseParams(c, z.object({ bookingId: adminIdParam }));
    const body = await parseJson(c, z.object({ requestKey: requestKeySchema, reason: z.string().trim().max(1000).optional() }));
    return c.json(await cancelBookingAsEducator(c.var.deps, {
      userId: c.var.user!.id, educatorId: adminEducatorId(c), bookingId, kind: 'decline', choice: { kind: 'full' },
      requestKey: body.requestKey, reason: body.reason || null,
    }));
  });

  app.post('/applications/:applicationId/accept', async (c) => {
    const { applicationId } = parseParams(c, z.object({ applicationId: adminIdParam }));
    return c.json(await acceptApplication(c.var.deps, { userId: c.var.user!.id, educatorId: adminEducatorId(c), applicationId }));
  });

  app.post('/applications/:applicationId/decline', async (c) => {
    const { applicationId } = parseParams(c, z.object({ applicationId: adminIdParam }));
    const body = await parseJson(c, decisionBodySchema);
    return c.json(await declineApplication(c.var.deps, { userId: c.var.user!.id, educatorId: adminEducatorId(c), applicationId, reason: body.reason || null }));
  });

  app.post('/requests/:requestId/answer', async (c) => {
    const { requestId } = parseParams(c, z.object({ requestId: adminIdParam }));
    const body = await parseJson(c, quoteBodySchema);
    return c.json(await answerRequest(c.var.deps, { userId: c.var.user!.id, educatorId: adminEducatorId(c), requestId, body }), 201);
  });

  app.post('/requests/:requestId/decline', async (c) => {
    const { requestId } = parseParams(c, z.object({ requestId: adminIdParam }));
    const body = await parseJson(c, decisionBodySchema);
    return c.json(await declineRequest(c.var.deps, { userId: c.var.user!.id, educatorId: adminEducatorId(c), requestId, reason: body.reason || null }));
  });

  return app;
}
