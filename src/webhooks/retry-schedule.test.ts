import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule.js';

describe('the webhook retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then gives up after the eighth attempt', () => {
    const middle = () => 0.5;
    const delays = [1, 2, 3, 4, 5, 6, 7].map((attempts) => nextAttemptAt(attempts, 0, 1, middle));
    expect(delays).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(nextAttemptAt(MAX_ATTEMPTS, 0, 1, middle)).toBeNull();
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('spreads each delay by at most 20% either way', () => {
    expect(nextAttemptAt(1, 1_000, 1, () => 0)).toBe(1_000 + 4_000);
    expect(nextAttemptAt(1, 1_000, 1, () => 0.999999)).toBeCloseTo(1_000 + 6_000, -1);
    const seen = Array.from({ length: 200 }, () => nextAttemptAt(2, 0, 1)! / 300_000);
    expect(Math.min(...seen)).toBeGreaterThanOrEqual(0.8);
    expect(Math.max(...seen)).toBeLessThanOrEqual(1.2);
    expect(new Set(seen).size).toBeGreaterThan(100);
  });

  it('multiplies every delay by WEBHOOK_RETRY_SCALE', () => {
    expect(nextAttemptAt(3, 0, 0.001, () => 0.5)).toBe(1_800);
  });
});
