/**
 * Statements that are the same text on every call but for one bound value, compiled once. kysely builds and compiles
 * a query's tree on each call: ~50 µs for the checkout's read (joins, forty-odd columns), ~20 µs for the session
 * lookup, and those two run on every checkout request. A statement made here is built by kysely as usual the first
 * time, then only its value is bound.
 */
import type { Compilable, CompiledQuery, Kysely } from 'kysely';

/**
 * `build` makes the query for a value, and must bind that value as its only parameter (checked on the first call).
 * One compiled text is kept per database handle (its transactions share it): the text depends on the engine.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function compiledOnce<R>(build: (q: Kysely<any>, value: string) => Compilable<R>) {
  const compiled = new WeakMap<object, CompiledQuery<R>>();
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return async (q: Kysely<any>, value: string): Promise<R[]> => {
    // The adapter is the dialect's, shared by a handle and every transaction opened on it.
    const key = q.getExecutor().adapter;
    let query = compiled.get(key);
    if (!query) {
      query = build(q, value).compile();
      if (query.parameters.length !== 1 || query.parameters[0] !== value) throw new Error(`not a statement of one bound value: ${query.sql}`);
      compiled.set(key, query);
    }
    const { rows } = await q.executeQuery<R>({ ...query, parameters: [value] });
    return rows;
  };
}
