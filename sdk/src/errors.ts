import type { components } from './api.js';
import { KNOWN_ERROR_CODES } from './contract-version.js';

export type ErrorBody = components['schemas']['Error'];
export type ErrorCode = components['schemas']['ErrorCode'];

/** What the client package reports when the server refused a request. */
export class TaskApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode | 'UNKNOWN';
  /** True for 429 answers (rate limit or login lockout): wait `retryAfterSeconds`, then retry. */
  readonly isRateLimited: boolean;
  /** Seconds the server asked us to wait; undefined when it sent no Retry-After. */
  readonly retryAfterSeconds: number | undefined;
  readonly body: Partial<ErrorBody> | undefined;
  /** The OAuth endpoints' `error` (RFC 6749 §5.2, e.g. `invalid_grant`), when the answer came from one. */
  readonly oauthError: string | undefined;

  constructor(status: number, body: unknown, headers: Headers) {
    const errorBody = isErrorBody(body) ? body : undefined;
    const oauthBody = errorBody ? undefined : asOAuthError(body);
    super(errorBody?.message ?? oauthBody?.error_description ?? oauthBody?.error ?? `HTTP ${status}`);
    this.name = 'TaskApiError';
    this.status = status;
    // A code added by a later minor version (ErrorCode is an open enum): UNKNOWN here, as sent in `body.code`.
    this.code = errorBody && KNOWN_ERROR_CODES.includes(errorBody.code) ? errorBody.code : 'UNKNOWN';
    this.body = errorBody;
    this.oauthError = oauthBody?.error;
    this.isRateLimited = status === 429;
    this.retryAfterSeconds = parseRetryAfter(headers.get('retry-after'));
  }
}

/** Whole seconds from a Retry-After header (delta-seconds or an HTTP date); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  // Only an HTTP date is worth parsing (it has a weekday and month name); `1.5` or `-3` are not waits.
  if (!/[a-z]/i.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function isErrorBody(body: unknown): body is ErrorBody {
  return typeof body === 'object' && body !== null && 'code' in body && 'message' in body;
}

function asOAuthError(body: unknown): { error: string; error_description?: string } | undefined {
  if (typeof body !== 'object' || body === null || typeof (body as { error?: unknown }).error !== 'string') return undefined;
  const { error, error_description: description } = body as { error: string; error_description?: unknown };
  return typeof description === 'string' ? { error, error_description: description } : { error };
}
