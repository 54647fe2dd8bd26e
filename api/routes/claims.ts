/**
 * Claim profile (spec 2.5 "/{educatorSlug}/claim-profile", "Own this business?"): a signed-in user asks to
 * claim an unclaimed educator; the request is stored for the team to check (approval happens in the admin app).
 *
 *   POST /educators/{educatorSlug}/claim  {message?, phone?} → 201 {id, status: 'pending', educatorId, createdAt}
 *                                                              (200 with the same request when asked again)
 *   GET  /educators/{educatorSlug}/claim                     → {claimed, request | null}
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseJson, parseParams } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { normalisePhone } from '../../src/domain/phone.ts';
import { requireUser } from '../auth/middleware.ts';
import { authProblems } from '../auth/problems.ts';
import { newId } from '../shared/ids.ts';
import { findClaim } from '../../db/queries/accounts.ts';

const params = z.object({ educatorSlug: z.string().min(1).max(200) });

function claimJson(row: { id: string; status: string; educator_id: string; created_at: number }) {
  return { id: row.id, status: row.status, educatorId: row.educator_id, createdAt: Number(row.created_at) };
}

export function claimsRoutes() {
  const app = new Hono<AppEnv>();

  app.get('/educators/:educatorSlug/claim', async (c) => {
    const user = requireUser(c);
    const { educatorSlug } = parseParams(c, params);
    const { db } = c.var.deps;
    const educator = await db.selectFrom('educators').select(['id', 'claimed']).where('slug', '=', educatorSlug).executeTakeFirst();
    if (!educator) throw new ProblemError(problems.notFound('No educator has this address.'));
    const claim = await findClaim(db, user.id, educator.id);
    return c.json({ claimed: Boolean(educator.claimed), request: claim ? claimJson(claim) : null }, 200, { 'cache-control': 'no-store' });
  });

  app.post('/educators/:educatorSlug/claim', async (c) => {
    const user = requireUser(c);
    const { educatorSlug } = parseParams(c, params);
    const body = await parseJson(c, z.object({
      message: z.string().trim().max(2000, 'must be at most 2000 characters').optional().default(''),
      phone: z.string().trim().max(40).optional().nullable(),
    }));
    const { db } = c.var.deps;
    const educator = await db.selectFrom('educators').select(['id', 'name', 'claimed']).where('slug', '=', educatorSlug).executeTakeFirst();
    if (!educator) throw new ProblemError(problems.notFound('No educator has this address.'));
    if (educator.claimed) throw new ProblemError(authProblems.conflict('Already Claimed', `${educator.name} has already been claimed.`));
    const phone = body.phone ? normalisePhone(body.phone) : null;
    const existing = await findClaim(db, user.id, educator.id);
    if (existing) return c.json(claimJson(existing), 200);
    const now = c.var.deps.now();
    await db
      .insertInto('educator_claims')
      .values({ id: newId('clm'), educator_id: educator.id, user_id: user.id, message: body.message, phone, status: 'pending', created_at: now })
      .onConflict((oc) => oc.columns(['educator_id', 'user_id']).doNothing())
      .execute();
    const claim = await findClaim(db, user.id, educator.id);
    return c.json(claimJson(claim!), 201);
  });

  return app;
}
