import type { RateLimitStore, StoreDecision, WindowCharge } from './store.js';

/**
 * Per-process counts, grouped by the instant their window ends so a whole window is dropped at
 * once when it is over: memory follows the subjects active in the current windows, nothing more.
 * Every method runs without an await, so each decision is atomic within the process.
 */
export class MemoryStore implements RateLimitStore {
  private readonly windowsByEnd = new Map<number, Map<string, number>>();

  spend(windows: readonly WindowCharge[], now: number): Promise<StoreDecision> {
    return Promise.resolve(this.spendNow(windows, now));
  }

  peek(windows: readonly WindowCharge[], now: number): Promise<number[]> {
    this.dropEnded(now);
    return Promise.resolve(windows.map((window) => this.windowsByEnd.get(window.endsAt)?.get(window.key) ?? 0));
  }

  /** Loops rather than array callbacks: this runs on every request. */
  spendNow(windows: readonly WindowCharge[], now: number): StoreDecision {
    this.dropEnded(now);
    const counters: Map<string, number>[] = [];
    const counts: number[] = [];
    let allowed = true;
    for (const window of windows) {
      const windowCounters = this.countersEnding(window.endsAt);
      const count = windowCounters.get(window.key) ?? 0;
      if (count >= window.limit) allowed = false;
      counters.push(windowCounters);
      counts.push(count);
    }
    if (!allowed) return { allowed, counts };
    for (let i = 0; i < windows.length; i++) {
      counts[i]! += 1;
      counters[i]!.set(windows[i]!.key, counts[i]!);
    }
    return { allowed, counts };
  }

  /** How many subjects are counted, over all live windows (for tests of the clean-up). */
  get size(): number {
    let size = 0;
    for (const counters of this.windowsByEnd.values()) size += counters.size;
    return size;
  }

  close(): Promise<void> {
    this.windowsByEnd.clear();
    return Promise.resolve();
  }

  private countersEnding(endsAt: number): Map<string, number> {
    let counters = this.windowsByEnd.get(endsAt);
    if (!counters) {
      counters = new Map();
      this.windowsByEnd.set(endsAt, counters);
    }
    return counters;
  }

  private dropEnded(now: number): void {
    for (const endsAt of this.windowsByEnd.keys()) if (endsAt <= now) this.windowsByEnd.delete(endsAt);
  }
}
