/**
 * GET /api/student_metadata/form/{formId} → {formId, values} (spec 3 "Form", 7): the learner's earlier answers
 * to this form (kept when they last filled in contact details), with the system fields from their account.
 * The e-mail is always the account's.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseParams } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';

const params = z.object({ formId: z.string().min(1).max(200) });

export function studentMetadataRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/student_metadata/form/:formId', async (c) => {
    const { formId } = parseParams(c, params);
    const user = c.var.user;
    if (!user) throw new ProblemError(problems.unknownUser());
    const saved = await c.var.deps.db
      .selectFrom('student_form_responses')
      .select('form_response')
      .where('user_id', '=', user.id)
      .where('form_id', '=', formId)
      .executeTakeFirst();
    // The latest answers to any form fill the system fields when this form was never filled in.
    const latest = saved ? null : await c.var.deps.db
      .selectFrom('student_form_responses')
      .select('form_response')
      .where('user_id', '=', user.id)
      .orderBy('updated_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    const values: Record<string, unknown> = { ...(saved?.form_response ?? {}) };
    const fallback = latest?.form_response ?? {};
    values.system_first_name = values.system_first_name || fallback.system_first_name || user.firstName || '';
    values.system_last_name = values.system_last_name || fallback.system_last_name || user.lastName || '';
    values.system_email = user.email;
    c.header('cache-control', 'no-store');
    return c.json({ formId, values });
  });
  return app;
}
