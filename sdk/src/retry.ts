import { parseRetryAfter } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). */
  maxAttempts?: number;
  /**
   * Longest single wait in seconds (default 120). When the server asks for longer (a spent hourly
   * window, a locked login), the 429 is handed back at once: retrying earlier would only fail.
   */
  maxDelaySeconds?: number;
  /** Injected for tests. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** The wait the description asks for when the server sent no Retry-After. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
/** Up to this fraction is added to each wait, so clients told the same Retry-After do not return together. */
const JITTER = 0.2;

/**
 * Opt-in: on 429, waits Retry-After seconds (60 when absent, at least 1) plus up to 20% jitter,
 * at most `maxAttempts` attempts in all, then hands the 429 back. Never a tight loop, never
 * earlier than the server asked, and an aborted request stops waiting.
 */
export function withRetry(send: (request: Request) => Promise<Response>, options: RetryOptions) {
  const maxAttempts = Number.isFinite(options.maxAttempts) ? Math.max(1, Math.floor(options.maxAttempts!)) : 3;
  const maxDelayMs = (options.maxDelaySeconds ?? 120) * 1000;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  return async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const copy = attempt < maxAttempts ? request.clone() : undefined;
      const response = await send(request);
      if (response.status !== 429 || !copy) return response;
      const seconds = Math.max(1, parseRetryAfter(response.headers.get('retry-after')) ?? DEFAULT_RETRY_AFTER_SECONDS);
      if (seconds * 1000 > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, seconds * 1000 * (1 + JITTER * random())), request.signal);
      request = copy;
    }
  };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
