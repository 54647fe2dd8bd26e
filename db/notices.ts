/**
 * PostgreSQL notifications (LISTEN/NOTIFY) heard by this process on a connection of their own, outside the pool:
 * a listening connection is held for the process's life, and a pooled one would be lent to queries.
 *
 * What a listener may miss is what it must be told of: while the connection is down, notifications are lost, so
 * `onDown` is called as soon as it fails (the caller forgets whatever the notices were keeping fresh) and `onUp`
 * once LISTEN is in force again, after a reconnect with a growing pause.
 */
import pg from 'pg';
import type { Db } from './client.ts';
import { rawHandlesOf } from './client.ts';

export interface NoticeHandlers {
  notice(payload: string): void;
  /** LISTEN is in force: from now on every notice on the channel reaches `notice`. */
  onUp(): void;
  /** The connection failed or closed: notices may have been missed since. */
  onDown(error?: Error): void;
}

export interface NoticeListener {
  close(): Promise<void>;
}

const RETRY_FIRST_MS = 200;
const RETRY_MAX_MS = 10_000;

/** Listens on `channel` of the database `db` talks to; undefined on SQLite (no notifications). */
export function listenForNotices(db: Db, channel: string, handlers: NoticeHandlers): NoticeListener | undefined {
  const pool = rawHandlesOf(db)?.pgPool;
  if (!pool) return undefined;
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`Invalid channel name ${channel}`);
  const { connectionString, host, port, user, password, database } = pool.options;
  let client: pg.Client | null = null;
  let closed = false;
  let retryMs = RETRY_FIRST_MS;
  let timer: NodeJS.Timeout | undefined;

  const down = (current: pg.Client, error?: Error) => {
    if (client !== current) return;
    client = null;
    handlers.onDown(error);
    current.removeAllListeners('notification');
    current.end().catch(() => {});
    if (!closed) {
      timer = setTimeout(() => void connect(), retryMs);
      retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    }
  };

  const connect = async () => {
    if (closed) return;
    const current = new pg.Client({ connectionString, host, port, user, password, database });
    client = current;
    current.on('error', (error) => down(current, error));
    current.on('end', () => down(current));
    current.on('notification', (message) => {
      if (message.channel === channel) handlers.notice(message.payload ?? '');
    });
    try {
      await current.connect();
      await current.query(`listen ${channel}`);
      if (client !== current || closed) return;
      retryMs = RETRY_FIRST_MS;
      handlers.onUp();
    } catch (error) {
      down(current, error as Error);
    }
  };
  void connect();

  return {
    async close() {
      closed = true;
      clearTimeout(timer);
      const current = client;
      client = null;
      if (current) {
        handlers.onDown();
        await current.end().catch(() => {});
      }
    },
  };
}
