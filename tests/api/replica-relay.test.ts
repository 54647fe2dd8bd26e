/**
 * The account the primary of SERVER_PROCESSES keeps of the machine's one search replica (ReplicaRelay,
 * api/search/replica-host.ts): which processes to tell of a replica made, when a replaced file is read by nobody and
 * may go, and whose caughtUp question a look at the feed answered. The processes and the channel themselves are
 * tested in tests/api/server-processes.test.ts (PostgreSQL).
 */
import { describe, expect, it } from 'vitest';
import { ReplicaRelay } from '../../api/search/replica-host.ts';

const made = (file: string, atMs = 1000) => ({ type: 'made' as const, file, ms: 10, atMs });
const look = (atMs: number, caughtUp: number[] = []) => ({ type: 'look' as const, atMs, caughtUp });

describe('the search replica shared by the processes of a machine', () => {
  it('tells every process that has joined of a replica made, and one that joins later of the replica made so far', () => {
    const relay = new ReplicaRelay();
    expect(relay.joined(1)).toBeNull();
    expect(relay.made(made('a.sqlite'))).toEqual({ tell: [1], release: [] });
    relay.looked(look(5000));
    // A replacement process, started after the replica was made: told of it, as fresh as the last look.
    expect(relay.joined(2)).toEqual(made('a.sqlite', 5000));
    expect(relay.made(made('b.sqlite')).tell).toEqual([1, 2]);
  });

  it('releases a replaced file once every process that read it has moved off it, not before', () => {
    const relay = new ReplicaRelay();
    relay.joined(1);
    relay.joined(2);
    relay.made(made('a.sqlite'));
    expect(relay.made(made('b.sqlite')).release).toEqual([]);
    expect(relay.released(1, 'a.sqlite')).toEqual([]);
    expect(relay.released(2, 'a.sqlite')).toEqual(['a.sqlite']);
    // Said twice, or of a file already gone: nothing more to release.
    expect(relay.released(2, 'a.sqlite')).toEqual([]);
  });

  it('does not wait for a process that joined after the file was replaced, nor for one that exited', () => {
    const relay = new ReplicaRelay();
    relay.joined(1);
    relay.joined(2);
    relay.made(made('a.sqlite'));
    relay.made(made('b.sqlite'));
    // Process 3 started reading b; it never read a.
    relay.joined(3);
    expect(relay.released(1, 'a.sqlite')).toEqual([]);
    // Process 2 dies before it moved off a.
    expect(relay.exited(2)).toEqual(['a.sqlite']);
    relay.made(made('c.sqlite'));
    expect(relay.released(1, 'b.sqlite')).toEqual([]);
    expect(relay.released(3, 'b.sqlite')).toEqual(['b.sqlite']);
  });

  it('releases a replaced file at once when no process has joined', () => {
    const relay = new ReplicaRelay();
    relay.made(made('a.sqlite'));
    expect(relay.made(made('b.sqlite'))).toEqual({ tell: [], release: ['a.sqlite'] });
  });

  it('answers each process\'s caughtUp questions with its own ids, on the look that answered them', () => {
    const relay = new ReplicaRelay();
    relay.joined(1);
    relay.joined(2);
    const first = relay.asked(1, 7);
    const second = relay.asked(2, 7);
    expect(first).not.toBe(second);
    expect(relay.looked(look(1, [first]))).toEqual(new Map([[1, [7]], [2, []]]));
    expect(relay.looked(look(2, [second, first]))).toEqual(new Map([[1, []], [2, [7]]]));
    // A question of a process that exited is forgotten.
    const third = relay.asked(2, 8);
    relay.exited(2);
    expect(relay.looked(look(3, [third]))).toEqual(new Map([[1, []]]));
  });
});
