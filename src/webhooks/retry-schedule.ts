/** docs/webhooks.md: after a failed attempt, wait this long before the next; after the last, the delivery fails. */
const RETRY_DELAYS_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000, 10 * 3_600_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.2;

/**
 * When the attempt after `attemptsSoFar` failed ones is due, or null when none is left. Jitter of ±20%
 * keeps the retries of a receiver's outage from arriving together; `scale` is WEBHOOK_RETRY_SCALE.
 */
export function nextAttemptAt(attemptsSoFar: number, now: number, scale: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[attemptsSoFar - 1];
  if (base === undefined) return null;
  const jitter = 1 + JITTER * (2 * random() - 1);
  return now + Math.round(base * scale * jitter);
}
