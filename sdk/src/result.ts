import { TaskApiError } from './errors.js';
import { rateLimitOf, type RateLimitWindow } from './rate-limit.js';

/**
 * Expected failures come back as values; only a broken transport (network error, abort) throws.
 * `rateLimit` is every budget window the answer reports (empty when it reports none).
 */
export type Result<T> =
  | { data: T; error?: undefined; response: Response; rateLimit: RateLimitWindow[]; etag?: string | undefined }
  | { data?: undefined; error: TaskApiError; response: Response; rateLimit: RateLimitWindow[]; etag?: string | undefined };

/**
 * A conditional read's answer: the data, an error, or (`notModified: true`) word that the copy the
 * caller holds, the one its `ifNoneMatch` named, is still current (a 304, no body).
 */
export type ReadResult<T> = (Result<T> & { notModified?: false }) | NotModified;

export interface NotModified {
  notModified: true;
  data?: undefined;
  error?: undefined;
  response: Response;
  rateLimit: RateLimitWindow[];
  /** The current version's ETag: the one `ifNoneMatch` named. */
  etag?: string | undefined;
}

type Answer<T> = { data?: T; error?: unknown; response: Response };

export async function settle<T>(call: Promise<Answer<T>>): Promise<Result<T>> {
  return settled(await call);
}

/** As `settle`, and a 304 is `{ notModified: true }`: neither data nor an error. */
export async function settleRead<T>(call: Promise<Answer<T>>): Promise<ReadResult<T>> {
  const answer = await call;
  if (answer.response.status !== 304) return settled(answer);
  return withEtag({ notModified: true as const, response: answer.response, rateLimit: rateLimitOf(answer.response.headers) });
}

async function settled<T>({ data, error, response }: Answer<T>): Promise<Result<T>> {
  if (response.ok) return succeeded(data as T, response);
  return failure(response, error);
}

export function succeeded<T>(data: T, response: Response): Result<T> {
  return withEtag({ data, response, rateLimit: rateLimitOf(response.headers) });
}

/** A refused answer as a Result; reads the body when the caller has not. */
export async function failure(
  response: Response,
  body?: unknown,
): Promise<{ error: TaskApiError; response: Response; rateLimit: RateLimitWindow[]; etag?: string }> {
  const parsed = body ?? (await response.json().catch(() => undefined));
  return withEtag({ error: new TaskApiError(response.status, parsed, response.headers), response, rateLimit: rateLimitOf(response.headers) });
}

/** One task's answers (and a 412) carry its version as ETag: pass it back as `ifMatch`. */
function withEtag<R extends { response: Response }>(result: R): R & { etag?: string } {
  const etag = result.response.headers.get('etag');
  return etag === null ? result : { ...result, etag };
}
