import type { TaskApiError, TaskChange } from '@task-service/sdk';
import { REACHABLE } from '../action.js';
import { client, noticeSessionLoss, pollInterval } from '../api.js';

/** The longest wait between two polls while the tab is hidden. */
const HIDDEN_MAX_MS = 5 * 60_000;

/**
 * Keeps the list in step with other tabs and devices through the change feed (docs/change-feed.md): the
 * feed's cursor from the start, then a poll every interval while the tab is visible, doubling up to
 * five minutes while it is hidden, and at once when the tab is shown or focused again or the
 * browser is back online. A 429 waits as long as it says. `report` gets each poll's failure, or
 * `undefined` when a poll succeeded (so a stale "could not be reached" goes away). Returns the stop.
 */
export function followChanges(apply: (changes: TaskChange[]) => void, report: (error: unknown) => void): () => void {
  let stopped = false;
  let cursor: string | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let hiddenWait = pollInterval();
  let polling = false;
  let failed = false;
  /** A 429's wait holds for the early polls too (tab shown, focus, online). */
  let quietUntil = 0;

  const schedule = (ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void poll(), ms);
  };
  const poll = async (): Promise<void> => {
    if (polling || stopped) return;
    polling = true;
    let wait = pollInterval();
    try {
      const starting = cursor === undefined;
      for await (const page of client.followTaskChanges(cursor, { limit: 500 })) {
        if (stopped) return;
        if (!starting) apply(page.changes);
        cursor = page.cursor;
      }
      report(undefined);
      // A success after a failure: forms that could not reach the service clear that (action.ts).
      if (failed) dispatchEvent(new Event(REACHABLE));
      failed = false;
    } catch (caught) {
      const error = caught as TaskApiError;
      if (error?.code === 'CURSOR_EXPIRED') cursor = undefined;
      else {
        noticeSessionLoss(typeof error?.status === 'number' ? error : undefined);
        report(caught);
        failed = true;
        if (error?.isRateLimited) {
          wait = (error.retryAfterSeconds ?? 60) * 1000;
          quietUntil = Date.now() + wait;
        }
      }
    } finally {
      polling = false;
    }
    if (document.visibilityState === 'hidden') {
      hiddenWait = Math.min(hiddenWait * 2, HIDDEN_MAX_MS);
      wait = Math.max(wait, hiddenWait);
    } else hiddenWait = pollInterval();
    schedule(wait);
  };
  const now = () => {
    if (document.visibilityState !== 'visible') return;
    hiddenWait = pollInterval();
    schedule(Math.max(0, quietUntil - Date.now()));
  };
  document.addEventListener('visibilitychange', now);
  addEventListener('focus', now);
  addEventListener('online', now);
  void poll();
  return () => {
    stopped = true;
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', now);
    removeEventListener('focus', now);
    removeEventListener('online', now);
  };
}
