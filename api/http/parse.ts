/** Parsing outside input with zod at the boundary; bad input becomes a validation problem (400). */
import type { Context } from 'hono';
import { z } from 'zod';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { INVALID_CURRENCY_ISSUE, zodProblem } from './errors.ts';

/** An amount of money from outside: a number of whole pence (spec 5), else the invalid-currency problem. */
export const pence = z.number().superRefine((value, ctx) => {
  if (!Number.isInteger(value)) {
    ctx.addIssue({ code: 'custom', message: 'Expected an integer amount of pence', params: { problem: INVALID_CURRENCY_ISSUE } });
  }
});

export const NUL_MESSAGE = 'must not contain a NUL character';

/**
 * The dotted path of the first string (value or key) holding U+0000, or null. No text we keep may hold
 * one: PostgreSQL refuses it in text columns, and nothing a person types contains it.
 */
export function nulPath(value: unknown, path = ''): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulPath(value[i], path ? `${path}.${i}` : String(i));
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return at;
      const found = nulPath(item, at);
      if (found) return found;
    }
  }
  return null;
}

/** The request's JSON body, or a validation problem: not JSON, or text holding a NUL character. */
export async function readJson(c: Context): Promise<unknown> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new ProblemError(problems.validation([{ key: 'body', message: 'must be a JSON object' }]));
  }
  const nul = nulPath(body);
  if (nul) throw new ProblemError(problems.validation([{ key: nul, message: NUL_MESSAGE }]));
  return body;
}

export async function parseJson<S extends z.ZodType>(c: Context, schema: S): Promise<z.infer<S>> {
  return parseWith(schema, await readJson(c));
}

export function parseQuery<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.query());
}

export function parseParams<S extends z.ZodType>(c: Context, schema: S): z.infer<S> {
  return parseWith(schema, c.req.param());
}

export function parseWith<S extends z.ZodType>(schema: S, input: unknown, prefix = ''): z.infer<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw new ProblemError(zodProblem(result.error, prefix));
  return result.data;
}
