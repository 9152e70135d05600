import { TaskApiError } from './errors.js';
import { rateLimitOf, type RateLimitWindow } from './rate-limit.js';

/**
 * Expected failures come back as values; only a broken transport (network error, abort) throws.
 * `rateLimit` is every budget window the answer reports (empty when it reports none).
 */
export type Result<T> =
  | { data: T; error?: undefined; response: Response; rateLimit: RateLimitWindow[] }
  | { data?: undefined; error: TaskApiError; response: Response; rateLimit: RateLimitWindow[] };

export async function settle<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (response.ok) return succeeded(data as T, response);
  return failure(response, error);
}

export function succeeded<T>(data: T, response: Response): Result<T> {
  return { data, response, rateLimit: rateLimitOf(response.headers) };
}

/** A refused answer as a Result; reads the body when the caller has not. */
export async function failure(response: Response, body?: unknown): Promise<{ error: TaskApiError; response: Response; rateLimit: RateLimitWindow[] }> {
  const parsed = body ?? (await response.json().catch(() => undefined));
  return { error: new TaskApiError(response.status, parsed, response.headers), response, rateLimit: rateLimitOf(response.headers) };
}
