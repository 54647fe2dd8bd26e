/**
 * Turning failures into problem details (spec 8): a thrown ProblemError becomes its problem,
 * a zod error becomes generic/validation-error, anything else /unknown-error without internals.
 */
import type { Context } from 'hono';
import { ZodError } from 'zod';
import { DatabaseBusyError } from '../../db/sqlite-driver.ts';
import { ERRORS_HOST_DEFAULT, ProblemError, problems, type Problem, type ProblemProperty } from '../../src/domain/problems.ts';

export function problemResponse(c: Context, problem: Problem, errorsHost: string): Response {
  const type = problem.type.startsWith(ERRORS_HOST_DEFAULT)
    ? errorsHost.replace(/\/$/, '') + problem.type.slice(ERRORS_HOST_DEFAULT.length)
    : problem.type;
  const body = { ...problem, type, instance: problem.instance ?? c.req.path };
  const headers: Record<string, string> = { 'content-type': 'application/problem+json; charset=utf-8', 'cache-control': 'no-store' };
  // A temporary refusal (429, 503) says when to try again.
  if (typeof problem.retryAfter === 'number' && (problem.status === 429 || problem.status === 503)) headers['retry-after'] = String(problem.retryAfter);
  return new Response(JSON.stringify(body), { status: problem.status, headers });
}

/** The marker a boundary schema puts on an issue that is a money problem, not a validation one (see parse.ts `pence`). */
export const INVALID_CURRENCY_ISSUE = 'invalid-currency';

/**
 * zod issues → validation properties `{key, message}`; key is the dotted path under `prefix`. An amount of money
 * that is not whole pence is its own problem (spec 5: invalid-currency), whatever else is wrong with the input.
 */
export function zodProblem(error: ZodError, prefix = ''): Problem {
  const money = error.issues.find((issue) => issue.code === 'custom' && issue.params?.problem === INVALID_CURRENCY_ISSUE);
  if (money) return problems.invalidCurrency(money.message);
  const properties: ProblemProperty[] = error.issues.map((issue) => ({
    key: [prefix, ...issue.path.map(String)].filter(Boolean).join('.') || 'body',
    message: issue.message,
  }));
  return problems.validation(properties);
}

export function toProblem(err: unknown): Problem {
  if (err instanceof ProblemError) return err.problem;
  if (err instanceof ZodError) return zodProblem(err);
  // SQLite stayed locked beyond the short wait (db/sqlite-driver.ts): a busy answer, not a failure.
  const busy = busyError(err);
  if (busy) return problems.serviceBusy(busy.retryAfterSeconds);
  return problems.unknownError();
}

/** The DatabaseBusyError in an error or its causes (kysely and our own code may wrap it). */
function busyError(err: unknown): DatabaseBusyError | null {
  for (let e = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseBusyError) return e;
  }
  return null;
}
