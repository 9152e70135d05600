import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../platform/logger.js';
import type { OperationRoute } from './operation-table.js';
import { callerIn } from './request-state.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/** Up to 128 visible ASCII characters: anything else a caller sends is replaced, never echoed. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The request id of a request that went through `requestLog` (undefined in apps built without it). */
export function requestIdOf(req: Request): string | undefined {
  return req.id;
}

/** The logger for the lines logged while a request is served: they carry its request id. */
export function loggerFor(req: Request, logger: Logger): Logger {
  return req.id === undefined ? logger : logger.child({ requestId: req.id });
}

/** What is known of a request once its response is done (or the client went away). */
export interface FinishedRequest {
  readonly req: Request;
  readonly res: Response;
  /** The operation whose route served the request; undefined for a 404 or 405. */
  readonly route: OperationRoute | undefined;
  readonly seconds: number;
}

/**
 * The caller's X-Request-Id when it is sane, else a new one; echoed on every response (set before
 * anything can answer); carried by every line logged for the request (`loggerFor`); and, when the
 * response is done, one access-log line (its fields: docs/production.md) and `onFinished` (the
 * request metrics) from one listener.
 *
 * Not pino-http: its two child loggers per request, made whether or not anything logs, cost more than
 * the whole observability budget. Here a request's child logger is made only when something logs for it.
 */
export function requestLog(logger: Logger, onFinished: (request: FinishedRequest) => void): RequestHandler {
  // The access line holds named fields only (never a header, the query, a body, a token or a
  // password), so its logger skips the redaction paths (src/platform/logger.ts).
  const accessLog = logger.child({}, { redact: [] });
  const logFinished = (res: Response): void => {
    const { req } = res;
    const seconds = (performance.now() - res.locals.receivedAt!) / 1000;
    const route = res.locals.route;
    const caller = callerIn(res.locals.identity);
    // Probes too (docs/production.md: one line per request); LOG_LEVEL=warn keeps only the 5xx lines.
    accessLog[res.statusCode >= 500 ? 'error' : 'info'](
      {
        requestId: req.id!,
        method: req.method,
        route: route?.path ?? null,
        operationId: route?.operationId ?? null,
        status: res.statusCode,
        durationMs: Math.round(seconds * 1_000_000) / 1000,
        accountId: caller?.accountId ?? null,
        clientId: caller?.clientId ?? null,
        aborted: res.writableFinished ? undefined : true,
      },
      'request',
    );
    onFinished({ req, res, route, seconds });
  };
  // One listener for every response (a closure per request was most of this step's allocation).
  function logWhenClosed(this: Response): void {
    logFinished(this);
  }
  return function requestLog(req, res, next) {
    res.locals.receivedAt = performance.now();
    const offered = req.headers['x-request-id'];
    const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
    req.id = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    // 'close' comes after 'finish' for a response written whole, and alone when the client left first.
    res.on('close', logWhenClosed);
    next();
  };
}
