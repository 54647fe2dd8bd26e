/**
 * Sessions this process has resolved, kept in memory on PostgreSQL so that a request carrying a session costs no
 * round trip to find its user: the lookup was one round trip on every API request, a fifth of a checkout's.
 *
 * Kept right by the database, not by a timer: triggers send the user's id on `session_user_changed` whenever a
 * session, the user or the educators they administer change or go (db/migrations/0294_session_change_notices.ts),
 * and every process forgets that user's sessions when it hears it. This process also forgets at once what it
 * changes itself (logging out, a new e-mail), so its own next request never sees the old session. Another process
 * hears of a logout as soon as PostgreSQL delivers the notice, within milliseconds of its commit.
 *
 * Three rules keep a stale session out:
 * - a lookup stores its answer only if nothing was forgotten while it was in flight (it may have read the row
 *   just before the change whose notice arrived before its answer);
 * - nothing is served or stored while the listening connection is down (notices would be missed), and everything is
 *   forgotten when it goes down;
 * - every entry is also dropped after `maxAgeMs`, and the expiry of the session itself is checked on each use.
 */
import type { Db } from '../../db/client.ts';
import { listenForNotices, type NoticeListener } from '../../db/notices.ts';
import { SESSION_CHANNEL } from '../../db/migrations/0294_session_change_notices.ts';

export interface SessionCache<Rows> {
  /** A token for `store`: taken before the lookup is sent. */
  ticket(): number;
  get(tokenHash: string, nowMs?: number): Rows | undefined;
  /** Keeps what a lookup taken with `ticket` found, unless something was forgotten since. */
  store(ticket: number, tokenHash: string, userId: string, rows: Rows, nowMs?: number): void;
  /** Forgets every session of a user (this process changed the user or a session of theirs). */
  forgetUser(userId: string): void;
  /** Serving: the notices are being heard. */
  live(): boolean;
  size(): number;
  close(): Promise<void>;
}

interface Entry<Rows> {
  rows: Rows;
  userId: string;
  storedAt: number;
}

export interface SessionCacheOptions {
  maxEntries?: number;
  maxAgeMs?: number;
}

/** The cache alone, fed by whoever hears the notices (`listeningSessionCache` below, or a test). */
export function createSessionCache<Rows>(options: SessionCacheOptions = {}): SessionCache<Rows> & { up(): void; down(): void } {
  const maxEntries = options.maxEntries ?? 20_000;
  const maxAgeMs = options.maxAgeMs ?? 5 * 60_000;
  // Insertion order is age order: the oldest entry is the first key.
  const entries = new Map<string, Entry<Rows>>();
  const byUser = new Map<string, Set<string>>();
  let generation = 0;
  let serving = false;

  const drop = (tokenHash: string) => {
    const entry = entries.get(tokenHash);
    if (!entry) return;
    entries.delete(tokenHash);
    const hashes = byUser.get(entry.userId);
    hashes?.delete(tokenHash);
    if (hashes && hashes.size === 0) byUser.delete(entry.userId);
  };
  const forgetUser = (userId: string) => {
    generation++;
    for (const tokenHash of byUser.get(userId) ?? []) entries.delete(tokenHash);
    byUser.delete(userId);
  };
  const forgetAll = () => {
    generation++;
    entries.clear();
    byUser.clear();
  };

  const down = () => {
    serving = false;
    forgetAll();
  };

  return {
    ticket: () => generation,
    get(tokenHash, nowMs = Date.now()) {
      if (!serving) return undefined;
      const entry = entries.get(tokenHash);
      if (!entry) return undefined;
      if (nowMs - entry.storedAt >= maxAgeMs) {
        drop(tokenHash);
        return undefined;
      }
      return entry.rows;
    },
    store(ticket, tokenHash, userId, rows, nowMs = Date.now()) {
      if (!serving || ticket !== generation) return;
      drop(tokenHash);
      entries.set(tokenHash, { rows, userId, storedAt: nowMs });
      let hashes = byUser.get(userId);
      if (!hashes) byUser.set(userId, (hashes = new Set()));
      hashes.add(tokenHash);
      while (entries.size > maxEntries) drop(entries.keys().next().value as string);
    },
    forgetUser,
    up() {
      forgetAll();
      serving = true;
    },
    down,
    live: () => serving,
    size: () => entries.size,
    close: async () => down(),
  };
}

/** A cache kept by the database's notices; undefined on SQLite, which needs none. */
export function listeningSessionCache<Rows>(db: Db, options: SessionCacheOptions = {}): SessionCache<Rows> | undefined {
  const cache = createSessionCache<Rows>(options);
  const listener: NoticeListener | undefined = listenForNotices(db, SESSION_CHANNEL, {
    notice: (userId) => cache.forgetUser(userId),
    onUp: () => cache.up(),
    onDown: () => cache.down(),
  });
  if (!listener) return undefined;
  return {
    ...cache,
    async close() {
      await listener.close();
      await cache.close();
    },
  };
}
