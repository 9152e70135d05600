import { TaskApiError } from './errors.js';

/** Expected failures come back as values; only a broken transport (network error, abort) throws. */
export type Result<T> =
  | { data: T; error?: undefined; response: Response; etag?: string | undefined }
  | { data?: undefined; error: TaskApiError; response: Response; etag?: string | undefined };

export async function settle<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (response.ok) return withEtag({ data: data as T, response });
  return withEtag(await failure(response, error));
}

/** One task's answers (and a 412) carry its version as ETag: pass it back as `ifMatch`. */
function withEtag<R extends { response: Response }>(result: R): R & { etag?: string } {
  const etag = result.response.headers.get('etag');
  return etag === null ? result : { ...result, etag };
}

/** A refused answer as a Result; reads the body when the caller has not. */
export async function failure(response: Response, body?: unknown): Promise<{ error: TaskApiError; response: Response }> {
  const parsed = body ?? (await response.json().catch(() => undefined));
  return { error: new TaskApiError(response.status, parsed, response.headers), response };
}
