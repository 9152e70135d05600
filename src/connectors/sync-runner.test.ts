import { describe, expect, it } from 'vitest';
import { createLogger } from '../platform/logger.js';
import { createSyncRunner, ShutdownAbort } from './sync-runner.js';

const logger = createLogger('silent');
const tick = (ms = 10) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the sync runner', () => {
  it('runs at most `concurrency` jobs at once, each job once however often it is queued', async () => {
    let active = 0;
    let peak = 0;
    const ran: string[] = [];
    const runner = createSyncRunner({
      concurrency: 2,
      sweepEveryMs: 60_000,
      graceMs: 1_000,
      claimable: async () => [],
      logger,
      run: async (jobId) => {
        ran.push(jobId);
        active += 1;
        peak = Math.max(peak, active);
        await tick(20);
        active -= 1;
      },
    });
    runner.start();
    for (const id of ['a', 'b', 'c', 'a', 'd', 'e']) runner.enqueue(id);
    await tick(150);
    expect(peak).toBe(2);
    expect(ran).toEqual(['a', 'b', 'c', 'd', 'e']);
    await runner.stop();
  });

  it('picks up the jobs the store says nobody runs, as soon as it starts', async () => {
    const ran: string[] = [];
    const runner = createSyncRunner({
      concurrency: 2,
      sweepEveryMs: 60_000,
      graceMs: 1_000,
      claimable: async () => ['left-by-crash'],
      logger,
      run: async (jobId) => void ran.push(jobId),
    });
    runner.start();
    await tick();
    expect(ran).toEqual(['left-by-crash']);
    await runner.stop();
  });

  it('on stop, lets a short job finish and interrupts a long one with ShutdownAbort', async () => {
    const outcomes: Record<string, string> = {};
    const runner = createSyncRunner({
      concurrency: 2,
      sweepEveryMs: 60_000,
      graceMs: 100,
      claimable: async () => [],
      logger,
      run: (jobId, signal) =>
        new Promise<void>((resolve) => {
          const timer = setTimeout(() => {
            outcomes[jobId] = 'finished';
            resolve();
          }, jobId === 'short' ? 20 : 10_000);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            outcomes[jobId] = signal.reason instanceof ShutdownAbort ? 'interrupted' : 'aborted';
            resolve();
          });
        }),
    });
    runner.start();
    runner.enqueue('short');
    runner.enqueue('long');
    const started = Date.now();
    await runner.stop();
    expect(outcomes).toEqual({ short: 'finished', long: 'interrupted' });
    expect(Date.now() - started).toBeLessThan(1_000);
    runner.enqueue('after-stop');
    await tick();
    expect(outcomes['after-stop']).toBeUndefined();
  });
});
