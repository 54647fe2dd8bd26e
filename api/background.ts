/**
 * Background work that must not happen inside a request (DESIGN 11): sending the e-mail outbox, publishing
 * changed pages, reconciling payments, releasing lapsed holds. Each is a job with one `run` pass that claims
 * a batch of due work from the database, does it and reports how much it did; this module only decides when
 * the next pass starts and stops the passes cleanly on shutdown.
 *
 * All state lives in the database (claimed rows, leases), never in this process, so several server processes
 * can run the same job side by side and a crash loses nothing: the next pass, here or elsewhere, picks the
 * work up again.
 */
import type { Logger } from './log.ts';

export interface BackgroundJob {
  readonly name: string;
  /** One pass over due work. Returns how many items it handled; 0 means there was nothing to do. */
  run(signal: AbortSignal): Promise<number>;
  /** Pause after a pass that found nothing to do (ms). */
  readonly idleMs: number;
  /** Pause after a pass that did work (ms); 0 runs the next pass at once to drain a backlog. */
  readonly busyMs?: number;
  /** Longest pause after repeated failures (ms); failures back off exponentially from idleMs. */
  readonly maxBackoffMs?: number;
  /**
   * Hears of new work in this process (e.g. a save the publisher should take at once): calls `wake` to start the next
   * pass without waiting out the pause; returns the function that stops listening.
   */
  listen?(wake: () => void): () => void;
}

export interface Worker {
  readonly name: string;
  /** Start the next pass now instead of waiting out the pause (e.g. right after a request queued work). */
  kick(): void;
  /** Stop after the pass in progress, if any, has finished. */
  stop(): Promise<void>;
}

export function startWorker(job: BackgroundJob, log: Logger): Worker {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | null = null;
  let wake: (() => void) | null = null;
  // Woken while a pass ran: the work may have come after that pass looked, so the next one starts at once.
  let woken = false;
  let failures = 0;
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      wake = resolve;
      timer = setTimeout(resolve, ms);
      // A pending pause must not keep the process alive on its own.
      timer.unref();
    }).finally(() => {
      wake = null;
      if (timer) clearTimeout(timer);
      timer = null;
    });

  const loop = (async () => {
    while (!controller.signal.aborted) {
      let pause: number;
      try {
        const handled = await job.run(controller.signal);
        failures = 0;
        pause = handled > 0 ? job.busyMs ?? 0 : job.idleMs;
      } catch (error) {
        failures++;
        pause = Math.min(job.idleMs * 2 ** Math.min(failures, 10), job.maxBackoffMs ?? 60_000);
        log.error('background pass failed', { worker: job.name, failures, retryInMs: pause, error });
      }
      if (controller.signal.aborted) break;
      if (woken && failures === 0) pause = 0;
      woken = false;
      if (pause > 0) await sleep(pause);
      else await new Promise<void>((resolve) => setImmediate(resolve));
    }
  })();

  const kick = () => {
    if (wake) wake();
    else woken = true;
  };
  // New work wakes a worker that is idle, never one backing off after failures.
  const unlisten = job.listen?.(() => {
    if (failures === 0) kick();
  });

  return {
    name: job.name,
    kick,
    async stop() {
      unlisten?.();
      controller.abort();
      wake?.();
      await loop;
    },
  };
}

/** Runs passes until one finds nothing to do (a CLI such as `npm run publish -- --once`, or a test). */
export async function drain(job: Pick<BackgroundJob, 'run'>, signal: AbortSignal = new AbortController().signal): Promise<number> {
  let total = 0;
  for (;;) {
    const handled = await job.run(signal);
    total += handled;
    if (handled === 0 || signal.aborted) return total;
  }
}

/** The server's set of workers, stopped together on shutdown. */
export class Workers {
  readonly #workers: Worker[] = [];
  constructor(private readonly log: Logger) {}

  start(job: BackgroundJob): Worker {
    const worker = startWorker(job, this.log);
    this.#workers.push(worker);
    return worker;
  }

  get(name: string): Worker | undefined {
    return this.#workers.find((w) => w.name === name);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.#workers.splice(0).map((w) => w.stop()));
  }
}
