/** Parsing outside input with zod at the boundary; bad input becomes a validation problem (400). */
import type { Context } from 'hono';
import { z } from 'zod';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { INVALID_CURRENCY_ISSUE, zodProblem } from './errors.ts';

/** An amount of money from outside: a number of whole pence (spec 5), else the invalid-currency problem. */
export const pence = z.number().superRefine((value, ctx) => {
  if (!Number.isInteger(value)) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'Expected an integer amount of pence', params: { problem: INVALID_CURRENCY_ISSUE } });
  }
});

export async function parseJson<S extends z.ZodTypeAny>(c: Context, schema: S): Promise<z.infer<S>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ProblemError(problems.validation([{ key: 'body', message: 'must be a JSON object' }]));
  }
  return parseWith(schema, body);
}

export function parseQuery<S extends z.ZodTypeAny>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

export function parseParams<S extends z.ZodTypeAny>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.param());
}

export function parseWith<S extends z.ZodTypeAny>(schema: S, input: unknown, prefix = ''): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ProblemError(zodProblem(result.error, prefix));
  return result.data;
}
