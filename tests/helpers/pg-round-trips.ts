/**
 * Counts PostgreSQL round trips in a test, as tests/bench/statement-profile.mjs does in a benchmarked server: a
 * statement sent on a connection with nothing in flight starts one; statements sent while one is in flight (a held
 * BEGIN or write with the next statement, a statement sent ahead) ride on it.
 *
 * It wraps pg's Client#query, which the product's pool binds on each connection as it connects (db/client.ts), so
 * only connections opened while counting is installed are counted: open the database handle to count after
 * `install()`. A notice listener's LISTEN is never counted. `uninstall()` restores pg for the connections opened later; counted connections keep forwarding.
 */
import pg from 'pg';

type Query = (...args: unknown[]) => unknown;

export interface RoundTrips {
  /** Round trips so far on the counted connections. */
  count(): number;
  /** The text of every statement sent on them so far, in the order sent. */
  texts(): string[];
  uninstall(): void;
}

export function countRoundTrips(): RoundTrips {
  const proto = pg.Client.prototype as unknown as { query: Query };
  const original = proto.query;
  const pending = new WeakMap<object, number>();
  let trips = 0;
  const texts: string[] = [];
  let active = true;
  proto.query = function counted(this: object, ...args: unknown[]) {
    const result = original.apply(this, args);
    if (!active || !result || typeof (result as Promise<unknown>).then !== 'function') return result;
    const [config] = args;
    const text = typeof config === 'string' ? config : String((config as { text?: unknown } | null)?.text ?? '');
    // A LISTEN goes out on a notice listener's connection of its own (db/notices.ts), whenever a server started
    // just before gets it connected: no action's round trip.
    if (/^\s*listen\b/i.test(text)) return result;
    texts.push(text);
    const inFlight = pending.get(this) ?? 0;
    if (inFlight === 0) trips++;
    pending.set(this, inFlight + 1);
    const done = () => pending.set(this, (pending.get(this) ?? 1) - 1);
    (result as Promise<unknown>).then(done, done);
    return result;
  };
  return {
    count: () => trips,
    texts: () => [...texts],
    uninstall() {
      active = false;
      proto.query = original;
    },
  };
}
