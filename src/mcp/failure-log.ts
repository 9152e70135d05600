import { AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';

/**
 * Logs a failure of an MCP request as the HTTP error renderer does (http/error-renderers.ts): one
 * `request failed` line at error level, with the request id and what was thrown (the cause that
 * http/run-operation.ts keeps on a 5xx), for a 5xx only; refusals are answers, not failures.
 */
export function logFailure(logger: Logger, requestId: string | undefined, err: unknown, fields: Record<string, unknown> = {}): void {
  if (err instanceof AppError && err.status < 500) return;
  const cause = err instanceof AppError && err.cause !== undefined ? err.cause : err;
  (requestId === undefined ? logger : logger.child({ requestId })).error({ err: cause, ...fields }, 'request failed');
}
