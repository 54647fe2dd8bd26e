/**
 * No text we accept may hold a NUL character (U+0000): PostgreSQL refuses it in text (a 500 there, while
 * SQLite would store it), and nothing a person types contains one. JSON bodies are checked where they are
 * parsed (api/http/parse.ts `readJson`); this checks the path and query string of every request, so a
 * query such as `?query=pot%00tery` is bad input (400) on every engine.
 */
import type { MiddlewareHandler } from 'hono';
import { ProblemError, problems } from '../../src/domain/problems.ts';
import { NUL_MESSAGE } from './parse.ts';

/** `%00` is the only way a NUL reaches a decoded path or query (`%2500` decodes to the text '%00'). */
// eslint-disable-next-line no-control-regex -- finding the control character is the point
const NUL_IN_URL = /%00|\u0000/i;

export function refuseNulInUrl(): MiddlewareHandler {
  return async (c, next) => {
    const url = c.req.url;
    const q = url.indexOf('?');
    const pathPart = q < 0 ? url : url.slice(0, q);
    if (NUL_IN_URL.test(pathPart)) throw new ProblemError(problems.validation([{ key: 'path', message: NUL_MESSAGE }]));
    if (q >= 0 && NUL_IN_URL.test(url.slice(q))) throw new ProblemError(problems.validation([{ key: 'query', message: NUL_MESSAGE }]));
    return next();
  };
}
