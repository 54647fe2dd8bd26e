/**
 * What every route, job and service is given: the server's dependencies and the Hono environment of a request.
 * A leaf of the module graph (types only), so the modules the composition root (api/app.ts) wires together
 * never import it back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpBindings } from '@hono/node-server';
import type { Config } from './config.ts';
import type { Db, Dialect } from '../db/client.ts';
import type { AppContext } from '../src/domain/app-context.ts';
import type { SessionUser } from '../src/domain/session-user.ts';
import type { Metrics } from './ops/metrics.ts';
import type { PaymentEventSink } from './payments/port.ts';
import type { FeedSignal } from './publish/feed-signal.ts';
import type { SessionCache } from './auth/session-cache.ts';
import type { SessionRows } from './auth/sessions.ts';
import type { SearchThreads } from './search/threads.ts';

/** Which site a request is for, decided from its host and path (api/http/context.ts resolveSite). */
export interface RequestSite {
  context: AppContext;
  /** The educator slug of a minisite host. */
  minisiteSlug: string | null;
  /** Hostname (no port) the visitor used. */
  hostname: string;
  /** The admin dashboard's host (ADMIN_HOST): it serves the educator admin and the API, nothing public. */
  admin: boolean;
}

export interface Deps {
  db: Db;
  dialect: Dialect;
  config: Config;
  /** Clock in epoch seconds; tests may pin it. */
  now(): number;
  /** Prometheus metrics (api/ops/metrics.ts); createApp makes them when not given. */
  metrics?: Metrics;
  /**
   * Where a provider's payment events go (api/payments/port.ts): the checkout engine, which createApp wires when
   * not given. A port, so the payment providers never import the checkout.
   */
  paymentEvents?: PaymentEventSink;
  /**
   * Word that a save has committed to the change feed (api/publish/feed-signal.ts), so this process's publisher
   * publishes it at once; without it the publisher finds the save at its next poll.
   */
  feedSignal?: FeedSignal;
  /**
   * PostgreSQL: the sessions this process resolved, kept fresh by the database's notices (api/auth/session-cache.ts);
   * without it every request reads its session.
   */
  sessionCache?: SessionCache<SessionRows>;
  /** SQLite: threads that answer course searches beside the event loop (api/search/threads.ts); without them the loop does. */
  searchThreads?: SearchThreads;
}

export type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void, locals?: object) => Promise<void> | void;

export type AppEnv = {
  Bindings: HttpBindings;
  /** `user` is null for a visitor who is not signed in (set by the auth middleware). */
  Variables: { deps: Deps; site: RequestSite; user: SessionUser | null; requestId: string };
};
