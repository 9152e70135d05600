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

  spendNow(windows: readonly WindowCharge[], now: number): StoreDecision {
    this.dropEnded(now);
    const counters = windows.map((window) => this.countersEnding(window.endsAt));
    const counts = windows.map((window, i) => counters[i]!.get(window.key) ?? 0);
    if (windows.some((window, i) => counts[i]! >= window.limit)) return { allowed: false, counts };
    windows.forEach((window, i) => {
      const count = counts[i]! + 1;
      counts[i] = count;
      counters[i]!.set(window.key, count);
    });
    return { allowed: true, counts };
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
