/**
 * The rules that keep a stale session out of the in-memory cache (api/auth/session-cache.ts), without a database:
 * what the notices feed it is simulated by calling `forgetUser`, `up` and `down` as the listener would.
 */
import { describe, expect, it } from 'vitest';
import { createSessionCache } from '../../api/auth/session-cache.ts';

const T0 = 1_800_000_000_000;

function liveCache(options: { maxEntries?: number; maxAgeMs?: number } = {}) {
  const cache = createSessionCache<string>(options);
  cache.up();
  return cache;
}

describe('the session cache', () => {
  it('serves nothing and keeps nothing until the notices are heard', () => {
    const cache = createSessionCache<string>();
    const ticket = cache.ticket();
    cache.store(ticket, 'h1', 'u1', 'rows', T0);
    expect(cache.get('h1', T0)).toBeUndefined();
    expect(cache.size()).toBe(0);
    cache.up();
    // A lookup sent before the listener was up is not kept: a notice may have been missed while it was in flight.
    cache.store(ticket, 'h1', 'u1', 'rows', T0);
    expect(cache.get('h1', T0)).toBeUndefined();
    cache.store(cache.ticket(), 'h1', 'u1', 'rows', T0);
    expect(cache.get('h1', T0)).toBe('rows');
  });

  it('does not keep what a lookup found when a user was forgotten while it was in flight', () => {
    const cache = liveCache();
    const ticket = cache.ticket();
    cache.forgetUser('someone-else');
    cache.store(ticket, 'h1', 'u1', 'read before the change', T0);
    expect(cache.get('h1', T0)).toBeUndefined();
  });

  it('forgets every session of the user it hears of, and only theirs', () => {
    const cache = liveCache();
    cache.store(cache.ticket(), 'h1', 'u1', 'u1 on the laptop', T0);
    cache.store(cache.ticket(), 'h2', 'u1', 'u1 on the phone', T0);
    cache.store(cache.ticket(), 'h3', 'u2', 'u2', T0);
    cache.forgetUser('u1');
    expect(cache.get('h1', T0)).toBeUndefined();
    expect(cache.get('h2', T0)).toBeUndefined();
    expect(cache.get('h3', T0)).toBe('u2');
    cache.store(cache.ticket(), 'h3', 'u2', 'u2 again', T0);
    cache.forgetUser('u2');
    expect(cache.size()).toBe(0);
  });

  it('forgets everything and serves nothing while the listening connection is down', () => {
    const cache = liveCache();
    cache.store(cache.ticket(), 'h1', 'u1', 'rows', T0);
    cache.down();
    expect(cache.live()).toBe(false);
    expect(cache.get('h1', T0)).toBeUndefined();
    cache.store(cache.ticket(), 'h1', 'u1', 'rows', T0);
    expect(cache.size()).toBe(0);
    cache.up();
    expect(cache.get('h1', T0)).toBeUndefined();
  });

  it('drops an entry once it is maxAgeMs old (served at maxAgeMs - 1)', () => {
    const cache = liveCache({ maxAgeMs: 60_000 });
    cache.store(cache.ticket(), 'h1', 'u1', 'rows', T0);
    expect(cache.get('h1', T0 + 59_999)).toBe('rows');
    expect(cache.get('h1', T0 + 60_000)).toBeUndefined();
    expect(cache.size()).toBe(0);
  });

  it('keeps at most maxEntries, dropping the oldest first', () => {
    const cache = liveCache({ maxEntries: 2 });
    cache.store(cache.ticket(), 'h1', 'u1', 'one', T0);
    cache.store(cache.ticket(), 'h2', 'u2', 'two', T0);
    cache.store(cache.ticket(), 'h3', 'u3', 'three', T0);
    expect(cache.size()).toBe(2);
    expect(cache.get('h1', T0)).toBeUndefined();
    expect(cache.get('h2', T0)).toBe('two');
    expect(cache.get('h3', T0)).toBe('three');
    // The dropped entry left nothing behind: forgetting its user touches no other entry.
    cache.forgetUser('u1');
    expect(cache.size()).toBe(2);
  });
});
