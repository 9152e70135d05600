import { parseRetryAfter } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included (default 3). */
  maxAttempts?: number | undefined;
  /**
   * Longest single wait in seconds (default 120). When the server asks for longer (a spent hourly
   * window, a locked login), the 429 is handed back at once: retrying earlier would only fail.
   */
  maxDelaySeconds?: number | undefined;
  /** Injected for tests. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  random?: (() => number) | undefined;
}

/** The wait when the server sent no Retry-After (60 s, as docs/rate-limits.md says). */
export const DEFAULT_RETRY_AFTER_SECONDS = 60;
/** Up to this fraction is added to each wait, so clients told the same Retry-After do not return together. */
const JITTER = 0.2;
/** After a network error the n-th retry waits 2^(n-1) seconds (plus jitter): the server sent no wait to honour. */
const NETWORK_BACKOFF_SECONDS = 1;
/** Methods that mean the same when sent twice (RFC 9110 §9.2.2); a POST is only with an Idempotency-Key. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);

/**
 * Opt-in: on 429 waits Retry-After seconds (60 when absent, at least 1), on 503 with Retry-After
 * waits that, and after a network error on an idempotent request backs off 1, 2, 4... seconds;
 * each wait plus up to 20% jitter, at most `maxAttempts` attempts in all, then the last answer (or
 * error) is handed back. Never a tight loop, never earlier than the server asked, never longer than
 * `maxDelaySeconds` (a longer Retry-After is handed back at once), and an aborted request stops waiting.
 */
export function withRetry(send: (request: Request) => Promise<Response>, options: RetryOptions) {
  const maxAttempts = Number.isFinite(options.maxAttempts) ? Math.max(1, Math.floor(options.maxAttempts!)) : 3;
  const maxDelayMs = (options.maxDelaySeconds ?? 120) * 1000;
  const sleep = options.sleep ?? abortableSleep;
  const random = options.random ?? Math.random;
  return async (request: Request): Promise<Response> => {
    for (let attempt = 1; ; attempt++) {
      const copy = attempt < maxAttempts ? request.clone() : undefined;
      let seconds: number | undefined;
      try {
        const response = await send(request);
        seconds = copy ? serverWait(response) : undefined;
        if (seconds === undefined || seconds * 1000 > maxDelayMs) return response;
        await response.body?.cancel();
      } catch (err) {
        // Our own abort or timeout, or a request that may have been done already: not ours to repeat.
        if (!copy || request.signal.aborted || !isIdempotent(request)) throw err;
        seconds = Math.min(maxDelayMs / 1000, NETWORK_BACKOFF_SECONDS * 2 ** (attempt - 1));
      }
      await sleep(Math.min(maxDelayMs, seconds * 1000 * (1 + JITTER * random())), request.signal);
      request = copy!;
    }
  };
}

/** The seconds a 429 (always) or a 503 (when it says how long) asks us to wait; undefined for any other answer. */
function serverWait(response: Response): number | undefined {
  const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
  if (response.status === 429) return Math.max(1, retryAfter ?? DEFAULT_RETRY_AFTER_SECONDS);
  if (response.status === 503 && retryAfter !== undefined) return Math.max(1, retryAfter);
  return undefined;
}

function isIdempotent(request: Request): boolean {
  return IDEMPOTENT_METHODS.has(request.method) || request.headers.has('idempotency-key');
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
