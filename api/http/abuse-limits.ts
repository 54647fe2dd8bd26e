/**
 * Limits on guessing and flooding the public API, per client IP and per target (api/http/rate-limit.ts
 * does the atomic counting):
 *
 * - voucher codes: failed look-ups per client and per educator (whose codes are being guessed), across
 *   every place a code is tried (POST /vouchers/validate, the cost summary, the checkout's pricing
 *   actions, the request flow's delivery options). A code that works is given back, so a learner with a real
 *   code is never slowed down, and the educator's budget is open to clean clients (api/http/rate-limit.ts): once
 *   others' guesses have spent it, a learner who has not been guessing is still checked, and only a wrong code
 *   answers 429;
 * - enquiries: accepted enquiries per client and per educator, each hour;
 * - analytics events: per client, and per client and target (event, educator, course). The
 *   'Enquriy Sumbitted' event is not counted from clients at all: the enquiry records it
 *   (api/routes/analytics.ts).
 */
import type { Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import { clientIp } from './client-ip.ts';
import { ipBucket, keyBucket, type RateRule } from './rate-limit.ts';

const QUARTER = 15 * 60;
const HOUR = 60 * 60;

export function voucherRules(c: Context<AppEnv>, educatorId: string): RateRule[] {
  const config = c.var.deps.config;
  return [
    { bucket: ipBucket('voucher', clientIp(c)), limit: config.RATE_LIMIT_VOUCHER_PER_IP, windowSeconds: QUARTER },
    { bucket: keyBucket('voucher', 'educator', educatorId), limit: config.RATE_LIMIT_VOUCHER_PER_EDUCATOR, windowSeconds: QUARTER, shared: true, openToCleanClients: true },
  ];
}

export function enquiryRules(c: Context<AppEnv>, educatorId: string): RateRule[] {
  const config = c.var.deps.config;
  return [
    { bucket: ipBucket('enquiry', clientIp(c)), limit: config.RATE_LIMIT_ENQUIRY_PER_IP, windowSeconds: HOUR },
    { bucket: keyBucket('enquiry', 'educator', educatorId), limit: config.RATE_LIMIT_ENQUIRY_PER_EDUCATOR, windowSeconds: HOUR, shared: true },
  ];
}

export function analyticsRules(c: Context<AppEnv>, event: string, educatorId: string, courseId: string | null): RateRule[] {
  const config = c.var.deps.config;
  const ip = clientIp(c);
  return [
    { bucket: ipBucket('analytics', ip), limit: config.RATE_LIMIT_ANALYTICS_PER_IP, windowSeconds: QUARTER },
    { bucket: keyBucket('analytics', 'target', `${ip}\n${event}\n${educatorId}\n${courseId ?? ''}`), limit: config.RATE_LIMIT_ANALYTICS_PER_TARGET, windowSeconds: QUARTER },
  ];
}
