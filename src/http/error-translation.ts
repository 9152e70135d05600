import { isDatabaseUnavailable } from '../platform/database-errors.js';
import { AppError, errors } from '../platform/errors.js';
import type { OperationRoute } from './operation-table.js';

/** What the libraries in a route's chain throw: body-parser's and express-openapi-validator's errors. */
interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  errors?: { path?: string; message?: string }[];
  /** express-openapi-validator puts `Allow` here on a 405. */
  headers?: Record<string, string>;
}

/**
 * The one translation of anything thrown into the one error type: ours as they are; the database
 * unreachable as a 503; body-parser's and the validator's by their type and status; anything else a
 * 500 that hides what went wrong.
 */
export function toAppError(err: unknown, request: { method: string; path: string; route: OperationRoute | undefined }): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) return errors.serviceUnavailable();
  const e = (err ?? {}) as HttpLikeError;
  switch (e.type) {
    case 'entity.parse.failed':
      return errors.validation([{ path: '/body', message: 'is not valid JSON' }], 'The request body is not valid JSON.');
    case 'entity.too.large':
      return errors.payloadTooLarge(request.route?.bodyLimitBytes ?? 0);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return errors.unsupportedMediaType('The request body encoding is not supported.');
  }
  switch (e.status ?? e.statusCode) {
    case 400:
      return errors.validation((e.errors ?? []).map((item) => ({ path: item.path ?? '', message: item.message ?? 'is invalid' })));
    case 404:
      return errors.routeNotFound(request.method, request.path);
    case 405:
      return errors.methodNotAllowed(request.method, request.path, (e.headers?.Allow ?? '').split(/, */).filter(Boolean));
    case 413:
      return errors.payloadTooLarge(request.route?.bodyLimitBytes ?? 0);
    case 415:
      return errors.unsupportedMediaType();
    default:
      return errors.internal();
  }
}
