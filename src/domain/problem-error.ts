/**
 * The problem-details shape and its Error (spec 8), apart from the catalogue (problems.ts re-exports all of this):
 * code that throws only one problem — money's integer-pence check, which runs on every course page — then does
 * not load the whole catalogue in the browser.
 */

/** Default errors host that prefixes every problem type (spec 8 "{errors-host}"). */
export const ERRORS_HOST_DEFAULT = 'https://errors.example.invalid';

/** Spec 8 "Validation errors": one invalid property. */
export interface ProblemProperty {
  key: string;
  name?: string;
  message: string;
}

/** Spec 8 problem-details shape: type, title, status, detail, instance plus extensions. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail?: string;
  instance?: string;
  properties?: ProblemProperty[];
  [extension: string]: unknown;
}

/** Spec 8: the type is the slug prefixed by the errors host (one '/' between them). */
export function problemType(slug: string, errorsHost: string = ERRORS_HOST_DEFAULT): string {
  return `${errorsHost.replace(/\/+$/, '')}/${slug.replace(/^\/+/, '')}`;
}

/** Spec 8 / 2.14: the banner text, 'title: detail', or the title alone when there is no detail. */
export function problemMessage(problem: Pick<Problem, 'title' | 'detail'>): string {
  return problem.detail ? `${problem.title}: ${problem.detail}` : problem.title;
}

/** An Error that carries a problem; thrown by domain rules, turned into a response by the API. */
export class ProblemError extends Error {
  readonly problem: Problem;

  constructor(problem: Problem) {
    super(problemMessage(problem));
    this.name = 'ProblemError';
    this.problem = problem;
  }

  get status(): number {
    return this.problem.status;
  }
}

/** Spec 5: money must be an integer number of pence — generic/invalid-currency, 'Invalid Currency', 400. */
export const INVALID_CURRENCY_SLUG = 'generic/invalid-currency';

export function invalidCurrencyProblem(detail?: string, errorsHost: string = ERRORS_HOST_DEFAULT): Problem {
  const problem: Problem = { type: problemType(INVALID_CURRENCY_SLUG, errorsHost), title: 'Invalid Currency', status: 400 };
  if (detail !== undefined) problem.detail = detail;
  return problem;
}
