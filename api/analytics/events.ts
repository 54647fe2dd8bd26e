/**
 * Analytics events (spec 1 "Analytics", 8): storing one, and telling which app context a browser call came from.
 * Used by POST /api/analytics/events (api/routes/analytics.ts) and by POST /api/enquiries, which records
 * 'Enquriy Sumbitted' itself in the enquiry's transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import type { Db, Tx } from '../../db/client.ts';
import { resolveSite } from '../http/context.ts';
import { isAllowedOrigin } from '../http/cors.ts';
import type { AppContext } from '../../src/domain/app-context.ts';
import { COURSE_PAGE_VIEW, EDUCATOR_PROFILE_VIEW, ENQUIRY_SUBMITTED, EXTERNAL_REDIRECT } from '../../src/domain/analytics.ts';

export const ANALYTICS_EVENT_NAMES = [EDUCATOR_PROFILE_VIEW, COURSE_PAGE_VIEW, EXTERNAL_REDIRECT, ENQUIRY_SUBMITTED] as const;
export type AnalyticsEventName = (typeof ANALYTICS_EVENT_NAMES)[number];

export interface AnalyticsEventInput {
  name: AnalyticsEventName;
  educatorId: string;
  courseId?: string | null;
  properties: Record<string, unknown>;
  context: AppContext;
  now: number;
}

/** Stores one event (in the caller's transaction when given one). */
export async function recordAnalyticsEvent(db: Db | Tx, event: AnalyticsEventInput): Promise<string> {
  const id = `evt_${randomUUID()}`;
  await db
    .insertInto('analytics_events')
    .values({
      id,
      name: event.name,
      educator_id: event.educatorId,
      course_id: event.courseId ?? null,
      properties: event.properties,
      context: event.context,
      created_at: event.now,
    })
    .execute();
  return id;
}

/**
 * The app context a browser call comes from: the page in its Referer (or its Origin) when that page is
 * one of ours ({slug}.{host} → minisite, /embed/… → embed), else the context of the API request itself.
 */
export function callerContext(c: Context<AppEnv>): { context: AppContext; site: string } {
  const { config } = c.var.deps;
  for (const header of ['referer', 'origin']) {
    const value = c.req.header(header);
    if (!value) continue;
    try {
      const url = new URL(value);
      if (!isAllowedOrigin(url.origin, config)) continue;
      const site = resolveSite(url.host.toLowerCase(), header === 'referer' ? url.pathname : '/', config);
      return { context: site.context, site: site.hostname };
    } catch {
      /* not a URL: ignore */
    }
  }
  return { context: c.var.site.context, site: c.var.site.hostname };
}
