import { parseRetryAfter } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). */
  maxAttempts?: number;
  /** Longest single wait in seconds (default 120). */
  maxDelaySeconds?: number;
  /** Injected for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** The wait the description asks for when the server sent no Retry-After. */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Opt-in: on 429, waits Retry-After seconds (60 when absent) plus up to 20% jitter, at most
 * `maxAttempts` times in all, then hands the 429 back. Never a tight loop.
 */
export function withRetry(send: (request: Request) => Promise<Response>, options: RetryOptions) {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const maxDelayMs = (options.maxDelaySeconds ?? 120) * 1000;
  const sleep = options.sleep ?? realSleep;
  const random = options.random ?? Math.random;
  return async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const copy = attempt < maxAttempts ? request.clone() : undefined;
      const response = await send(request);
      if (response.status !== 429 || !copy) return response;
      const seconds = Math.max(1, parseRetryAfter(response.headers.get('retry-after')) ?? DEFAULT_RETRY_AFTER_SECONDS);
      await response.body?.cancel();
      await sleep(Math.min(maxDelayMs, seconds * 1000 * (1 + 0.2 * random())));
      request = copy;
    }
  };
}
