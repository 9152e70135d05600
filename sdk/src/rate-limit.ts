import { parseList, type Parameters } from 'structured-headers';

/** One rate-limit window a response reports (docs/rate-limits.md): a budget's burst or sustained window. */
export interface RateLimitWindow {
  /** As the 429 body's `window`: `account-burst`, `client-sustained`, `strict-burst`, `anonymous-burst`, ... */
  name: string;
  /** Requests the window allows (`q`). */
  limit: number;
  /** Requests left in it after this one (`r`); on a 429, 0 in the window that refused. */
  remaining: number;
  /** Whole seconds until it rolls over (`t`). */
  resetSeconds: number;
  /** Its length in seconds (`w`): 60 for burst, 3600 for sustained; absent when the server did not say. */
  windowSeconds?: number;
}

/**
 * Every window of a response, from the standard `RateLimit-Policy` and `RateLimit` fields (RFC 9651
 * Structured Fields lists), in the server's order: the governing budget's, then the client fence's.
 * Empty when the response carries none (health, readiness) or they do not parse: reading a budget
 * never turns an answer into a failure. A window needs its `r` and `t` and, by name, its policy's `q`.
 */
export function rateLimitOf(headers: Headers): RateLimitWindow[] {
  const state = headers.get('ratelimit');
  const policy = headers.get('ratelimit-policy');
  if (state === null || policy === null) return [];
  try {
    const policies = new Map<string, Parameters>();
    for (const [name, parameters] of parseList(policy)) if (typeof name === 'string') policies.set(name, parameters);
    const windows: RateLimitWindow[] = [];
    for (const [name, parameters] of parseList(state)) {
      if (typeof name !== 'string') continue;
      const limit = integer(policies.get(name)?.get('q'));
      const remaining = integer(parameters.get('r'));
      const resetSeconds = integer(parameters.get('t'));
      if (limit === undefined || remaining === undefined || resetSeconds === undefined) continue;
      const windowSeconds = integer(policies.get(name)?.get('w'));
      windows.push(windowSeconds === undefined ? { name, limit, remaining, resetSeconds } : { name, limit, remaining, resetSeconds, windowSeconds });
    }
    return windows;
  } catch {
    return [];
  }
}

const integer = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined);
