import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../api/log.ts';
import { drain, startWorker, type BackgroundJob } from '../../api/background.ts';

function collector() {
  const lines: Record<string, unknown>[] = [];
  const log = createLogger('debug', {}, { write: (line) => lines.push(JSON.parse(line)) });
  return { lines, log };
}

describe('structured logger', () => {
  it('writes one JSON line per call at or below the configured level', () => {
    const lines: string[] = [];
    const log = createLogger('info', { service: 'api' }, { write: (l) => lines.push(l), clock: () => new Date(0) });
    log.debug('hidden');
    log.info('shown', { requestId: 'r1' });
    log.error('failed', { error: new Error('boom') });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0])).toEqual({ time: '1970-01-01T00:00:00.000Z', level: 'info', msg: 'shown', service: 'api', requestId: 'r1' });
    expect(JSON.parse(lines[1]).error.message).toBe('boom');
  });

  it('writes nothing when silent', () => {
    const lines: string[] = [];
    const log = createLogger('silent', {}, { write: (l) => lines.push(l) });
    log.error('x');
    expect(lines).toEqual([]);
  });
});

describe('background workers', () => {
  it('drains a backlog pass after pass, then stops after the running pass', async () => {
    const { log } = collector();
    let backlog = 3;
    let passes = 0;
    const job: BackgroundJob = {
      name: 'test', idleMs: 10_000,
      async run() {
        passes++;
        if (backlog === 0) return 0;
        backlog--;
        return 1;
      },
    };
    const worker = startWorker(job, log);
    await vi.waitFor(() => expect(passes).toBe(4));
    expect(backlog).toBe(0);
    await worker.stop();
    expect(passes).toBe(4);
  });

  it('keeps running after a failed pass, and logs it', async () => {
    const { lines, log } = collector();
    let calls = 0;
    const worker = startWorker({
      name: 'flaky', idleMs: 1, maxBackoffMs: 2,
      async run() {
        calls++;
        if (calls === 1) throw new Error('database busy');
        return 0;
      },
    }, log);
    await vi.waitFor(() => expect(calls).toBeGreaterThan(1));
    await worker.stop();
    expect(lines.find((l) => l.msg === 'background pass failed')).toMatchObject({ worker: 'flaky', failures: 1 });
  });

  it('kick starts the next pass without waiting out the pause', async () => {
    const { log } = collector();
    let calls = 0;
    const worker = startWorker({ name: 'idle', idleMs: 60_000, async run() { calls++; return 0; } }, log);
    await vi.waitFor(() => expect(calls).toBe(1));
    worker.kick();
    // The pause is a minute: a second pass can only come from the kick.
    await vi.waitFor(() => expect(calls).toBe(2));
    await worker.stop();
  });

  it('new work heard while a pass runs starts the next pass at once, not after the pause', async () => {
    const { log } = collector();
    let calls = 0;
    let wake: (() => void) | null = null;
    let release: (() => void) | null = null;
    const worker = startWorker({
      name: 'listening', idleMs: 60_000,
      listen(w) {
        wake = w;
        return () => (wake = null);
      },
      async run() {
        calls++;
        // The first pass finds nothing, and the work arrives while it is still running.
        if (calls === 1) await new Promise<void>((ok) => (release = ok));
        return 0;
      },
    }, log);
    await vi.waitFor(() => expect(release).not.toBeNull());
    wake!();
    release!();
    // The pause is a minute: a second pass can only come from the work heard during the first.
    await vi.waitFor(() => expect(calls).toBe(2));
    await worker.stop();
    expect(wake, 'stops listening when stopped').toBeNull();
  });

  it('new work does not cut short the back-off after a failed pass', async () => {
    const { log } = collector();
    let calls = 0;
    let wake: (() => void) | null = null;
    const worker = startWorker({
      name: 'failing', idleMs: 30_000, maxBackoffMs: 60_000,
      listen(w) {
        wake = w;
        return () => undefined;
      },
      async run() {
        calls++;
        throw new Error('database down');
      },
    }, log);
    await vi.waitFor(() => expect(calls).toBe(1));
    wake!();
    await new Promise((ok) => setTimeout(ok, 200));
    expect(calls).toBe(1);
    await worker.stop();
  });

  it('drain runs passes until one handles nothing', async () => {
    let backlog = 5;
    const total = await drain({ async run() { if (!backlog) return 0; backlog -= 2; if (backlog < 0) backlog = 0; return 2; } });
    expect(total).toBe(6);
  });
});
