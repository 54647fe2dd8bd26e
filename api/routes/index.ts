/**
 * The JSON API under /api: the accounts middleware, then one route module per resource (spec section 7), then a
 * problem-details 404 for anything else. Mounted by the composition root (api/app.ts).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import type { Config } from '../config.ts';
import type { Metrics } from '../ops/metrics.ts';
import { problemResponse } from '../http/errors.ts';
import { problems } from '../../src/domain/problems.ts';
import { csrfProtection } from '../http/csrf.ts';
import { authMiddleware } from '../auth/middleware.ts';
import { healthRoutes } from './health.ts';
import { metricsRoutes } from './metrics.ts';
import { reviewsRoutes } from './reviews.ts';
import { enquiriesRoutes } from './enquiries.ts';
import { locationsRoutes } from './locations.ts';
import { courseDataRoutes } from './course-data.ts';
import { searchRoutes } from './search.ts';
import { analyticsRoutes } from './analytics.ts';
import { captchaRoutes } from './captcha.ts';
import { authRoutes } from './auth.ts';
import { identityRoutes } from './identity.ts';
import { savedCoursesRoutes } from './saved-courses.ts';
import { learnerReviewsRoutes } from './learner-reviews.ts';
import { claimsRoutes } from './claims.ts';
import { accountRoutes } from './account.ts';
import { paymentWebhookRoutes } from './payment-webhooks.ts';
import { paymentOptionsRoutes } from './payment-options.ts';
import { checkoutRoutes } from './checkout.ts';
import { formsRoutes } from './forms.ts';
import { studentMetadataRoutes } from './student-metadata.ts';
import { costSummaryRoutes } from './cost-summary.ts';
import { vouchersRoutes } from './vouchers.ts';
import { giftVoucherRoutes } from './gift-vouchers.ts';
import { giftCardRoutes } from './gift-cards.ts';
import { availabilityRoutes } from './availability.ts';
import { bookingsRoutes } from './bookings.ts';
import { membershipsRoutes, membershipTestRoutes } from './memberships.ts';
import { testPaymentsRoutes } from './test-payments.ts';
import { adminRoutes } from '../admin/routes.ts';

export function apiRoutes(config: Config, metrics: Metrics): Hono<AppEnv> {
  const api = new Hono<AppEnv>();
  // Accounts: refuse cross-site state-changing requests, then resolve the session into c.var.user.
  api.use('*', csrfProtection());
  api.use('*', authMiddleware());
  api.route('/', healthRoutes());
  if (config.METRICS_TOKEN) api.route('/', metricsRoutes(metrics));
  // Public pages' data.
  api.route('/', reviewsRoutes());
  api.route('/', enquiriesRoutes());
  api.route('/', locationsRoutes());
  api.route('/', courseDataRoutes());
  api.route('/', searchRoutes());
  api.route('/', analyticsRoutes());
  api.route('/', captchaRoutes());
  // Accounts.
  api.route('/', authRoutes());
  api.route('/', identityRoutes());
  api.route('/', savedCoursesRoutes());
  api.route('/', learnerReviewsRoutes());
  api.route('/', claimsRoutes());
  api.route('/', accountRoutes());
  // Payment provider webhooks (raw body, signature-verified; no Origin header, so CSRF lets them through).
  api.route('/', paymentWebhookRoutes());
  // Checkout (payment-options before the checkout's own /checkout/{id}).
  api.route('/', paymentOptionsRoutes());
  api.route('/', checkoutRoutes());
  api.route('/', formsRoutes());
  api.route('/', studentMetadataRoutes());
  api.route('/', costSummaryRoutes());
  api.route('/', vouchersRoutes());
  api.route('/', giftVoucherRoutes());
  api.route('/', giftCardRoutes());
  api.route('/', availabilityRoutes());
  api.route('/', bookingsRoutes());
  api.route('/', membershipsRoutes());
  // The educator admin (api/admin/routes.ts; every route checks the user administers the educator).
  api.route('/', adminRoutes());
  // The test provider's "servers" exist only while test payments are switched on (api/payments/registry.ts).
  if (config.PAYMENTS_MODE === 'test') {
    api.route('/', testPaymentsRoutes());
    api.route('/', membershipTestRoutes());
  }
  api.all('*', (c) => problemResponse(c, problems.notFound(), config.ERRORS_HOST));
  return api;
}
