import type { ErrorRequestHandler, Request } from 'express';
import { isDatabaseUnavailable } from '../platform/database-errors.js';
import { AppError, errors } from '../platform/errors.js';
import { bodyLimitOf } from './body-parsing.js';
import { createDatabaseOutageLog } from './database-outage.js';
import type { Logger } from '../platform/logger.js';
import { bearerChallenge } from './bearer-challenge.js';
import { loggerFor, requestIdOf } from './request-log.js';

interface HttpLikeError {
  status?: number;
  statusCode?: number;
  type?: string;
  errors?: { path?: string; message?: string }[];
  message?: string;
  /** express-openapi-validator puts `Allow` here on a 405. */
  headers?: Record<string, string>;
}

/** Renders every error in the common body; unknown errors become a 500 without internals. */
export function errorHandler(logger: Logger, publicUrl: string | undefined, databaseReachable?: () => Promise<boolean>): ErrorRequestHandler {
  const outage = databaseReachable && createDatabaseOutageLog(logger, databaseReachable);
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    const appError = toAppError(err, req);
    // The line carries the request id; the access-log line has the route.
    const log = loggerFor(req, logger);
    if (outage && appError.code === 'SERVICE_UNAVAILABLE') outage.refusal(err);
    else if (appError.status >= 500 && appError.code !== 'NOT_IMPLEMENTED') log.error({ err }, 'request failed');
    res.locals.error = appError;
    const challenge = bearerChallenge(req, appError, publicUrl);
    if (challenge) res.setHeader('WWW-Authenticate', challenge);
    for (const [name, value] of Object.entries(appError.headers)) res.setHeader(name, value);
    const requestId = appError.status >= 500 ? requestIdOf(req) : undefined;
    res.status(appError.status).json(requestId === undefined ? appError.toBody() : { ...appError.toBody(), requestId });
  };
}

function payloadTooLarge(req: Request): AppError {
  const limit = bodyLimitOf(req.path);
  const size = limit >= 1024 * 1024 ? `${limit / (1024 * 1024)} MiB` : `${limit / 1024} KiB`;
  return new AppError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${size}, the limit of this operation.`);
}

function toAppError(err: unknown, req: Request): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseUnavailable(err)) return errors.serviceUnavailable();
  const e = (err ?? {}) as HttpLikeError;
  switch (e.type) {
    case 'entity.parse.failed':
      return errors.validation([{ path: '/body', message: 'is not valid JSON' }], 'The request body is not valid JSON.');
    case 'entity.too.large':
      return payloadTooLarge(req);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'The request body encoding is not supported.');
  }
  const status = e.status ?? e.statusCode;
  switch (status) {
    case 400:
      return errors.validation(
        (e.errors ?? []).map((item) => ({ path: item.path ?? '', message: item.message ?? 'is invalid' })),
      );
    case 404:
      return new AppError(404, 'NOT_FOUND', `No route ${req.method} ${req.path}.`);
    case 405: {
      // RFC 9110 §15.5.6: a 405 names the methods the resource does take.
      const allow = e.headers?.Allow;
      return new AppError(405, 'METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}.`, {}, allow ? { Allow: allow } : {});
    }
    case 413:
      return payloadTooLarge(req);
    case 415:
      return new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', 'This operation does not take that content type.');
    default:
      return errors.internal();
  }
}
