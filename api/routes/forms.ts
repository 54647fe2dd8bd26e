/**
 * GET /api/forms/{formId}/view → {fields[], validations[]} (spec 3 "Form", 7): the three system fields
 * always first, `educator_marketing_consent` removed from the displayed fields.
 */
import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../deps.ts';
import { parseParams } from '../http/parse.ts';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { loadForm } from '../../db/queries/checkout.ts';
import { displayedFields } from '../../src/domain/checkout/validation.ts';

const params = z.object({ formId: z.string().min(1).max(200) });

export function formsRoutes() {
  const app = new Hono<AppEnv>();
  app.get('/forms/:formId/view', async (c) => {
    const { formId } = parseParams(c, params);
    const form = await loadForm(c.var.deps.db, formId);
    if (!form) throw new ProblemError(problems.notFound('No such form'));
    return c.json({ _id: form._id, name: form.name, fields: displayedFields(form), validations: form.validations ?? [] });
  });
  return app;
}
