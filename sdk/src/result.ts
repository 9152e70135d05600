import { TaskApiError } from './errors.js';

/** Expected failures come back as values; only a broken transport (network error, abort) throws. */
export type Result<T> =
  | { data: T; error?: undefined; response: Response }
  | { data?: undefined; error: TaskApiError; response: Response };

export async function settle<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (response.ok) return { data: data as T, response };
  return failure(response, error);
}

/** A refused answer as a Result; reads the body when the caller has not. */
export async function failure(response: Response, body?: unknown): Promise<{ error: TaskApiError; response: Response }> {
  const parsed = body ?? (await response.json().catch(() => undefined));
  return { error: new TaskApiError(response.status, parsed, response.headers), response };
}
