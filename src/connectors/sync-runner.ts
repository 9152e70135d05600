import type { Logger } from '../platform/logger.js';

/** Why a running job was told to stop: the process is shutting down (the job goes back to the queue). */
export class ShutdownAbort extends Error {
  constructor() {
    super('The server is shutting down.');
    this.name = 'ShutdownAbort';
  }
}

export interface SyncRunner {
  /** Runs the job when a slot is free; a job already queued or running here is not queued twice. */
  enqueue: (jobId: string) => void;
  /** Starts taking jobs, and sweeps the store now and then for jobs nobody runs (queued elsewhere, or left by a crash). */
  start: () => void;
  /** Stops taking jobs, lets running ones finish for a moment, then interrupts them. */
  stop: () => Promise<void>;
}

export interface SyncRunnerOptions {
  concurrency: number;
  sweepEveryMs: number;
  /** How long stop() lets running jobs go on before interrupting them. */
  graceMs: number;
  claimable: () => Promise<string[]>;
  run: (jobId: string, signal: AbortSignal) => Promise<void>;
  logger: Logger;
}

/** A small in-process job runner with bounded concurrency; the store decides who runs what (see claimJob). */
export function createSyncRunner(options: SyncRunnerOptions): SyncRunner {
  const queue: string[] = [];
  const known = new Set<string>();
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let started = false;
  let stopping = false;
  let sweepTimer: NodeJS.Timeout | undefined;

  const pump = () => {
    while (started && !stopping && running.size < options.concurrency && queue.length > 0) {
      const jobId = queue.shift()!;
      const controller = new AbortController();
      const done = options
        .run(jobId, controller.signal)
        .catch((err: unknown) => options.logger.error({ err, jobId }, 'sync job crashed the runner'))
        .finally(() => {
          running.delete(jobId);
          known.delete(jobId);
          pump();
        });
      running.set(jobId, { controller, done });
    }
  };

  const sweep = () => {
    options
      .claimable()
      .then((ids) => ids.forEach(enqueue))
      .catch((err: unknown) => options.logger.warn({ err }, 'could not look for sync jobs to run'));
  };

  function enqueue(jobId: string): void {
    if (stopping || known.has(jobId)) return;
    known.add(jobId);
    queue.push(jobId);
    pump();
  }

  return {
    enqueue,
    start() {
      if (started) return;
      started = true;
      sweep();
      sweepTimer = setInterval(sweep, options.sweepEveryMs);
      sweepTimer.unref();
      pump();
    },
    async stop() {
      stopping = true;
      clearInterval(sweepTimer);
      queue.length = 0;
      const all = () => Promise.all([...running.values()].map((job) => job.done));
      if (await settlesWithin(all(), options.graceMs)) return;
      for (const job of running.values()) job.controller.abort(new ShutdownAbort());
      await settlesWithin(all(), options.graceMs);
    },
  };
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true), timeout]);
  clearTimeout(timer);
  return settled;
}
