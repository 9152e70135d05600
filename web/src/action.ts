import type { TaskApiError } from '@task-service/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { noticeSessionLoss } from './api.js';
import { isNetworkFailure } from './words.js';

/** Dispatched on window when the service answers again after a failure to reach it. */
export const REACHABLE = 'task-service:reachable';

type Answer<T> = { data?: T | undefined; error?: TaskApiError | undefined };

export interface Action {
  busy: boolean;
  /** The last failure: a refusal, or the connection itself (cleared when the browser is back online). */
  error: unknown;
  /** Counts failures, so the same failure twice is a new message (announced again). */
  attempt: number;
  /** Runs one call unless one is already under way; `ok` is false when it failed (the failure is in `error`). */
  run: <T>(call: () => Promise<Answer<T>>) => Promise<{ ok: true; data: T } | { ok: false }>;
  clear: () => void;
}

/** One button's call: busy while it waits (the button disabled), its failure kept where the action was. */
export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const [attempt, setAttempt] = useState(0);
  const running = useRef(false);
  useEffect(() => {
    const back = () => setError((held: unknown) => (isNetworkFailure(held) ? undefined : held));
    addEventListener('online', back);
    addEventListener(REACHABLE, back);
    return () => {
      removeEventListener('online', back);
      removeEventListener(REACHABLE, back);
    };
  }, []);

  const run = async <T>(call: () => Promise<Answer<T>>): Promise<{ ok: true; data: T } | { ok: false }> => {
    if (running.current) return { ok: false };
    running.current = true;
    setBusy(true);
    try {
      const answer = await call();
      noticeSessionLoss(answer.error);
      setError(answer.error);
      if (answer.error) {
        setAttempt((count) => count + 1);
        return { ok: false };
      }
      return { ok: true, data: answer.data as T };
    } catch (caught) {
      setError(caught ?? new Error('unreachable'));
      setAttempt((count) => count + 1);
      return { ok: false };
    } finally {
      running.current = false;
      setBusy(false);
    }
  };
  return { busy, error, attempt, run, clear: () => setError(undefined) };
}

/**
 * The Idempotency-Key of what a form is about to create: the same while its contents stay the same,
 * so a second click or a retry after a lost answer makes one thing; a new one after success.
 */
export function useIdempotencyKey(contents: string): { key: string; spent: () => void } {
  const held = useRef<{ contents: string; key: string }>();
  if (!held.current || held.current.contents !== contents) held.current = { contents, key: crypto.randomUUID() };
  return { key: held.current.key, spent: () => (held.current = undefined) };
}
