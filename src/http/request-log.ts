import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../platform/logger.js';
import type { RouteOf } from './route-of.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

const omitted = (): undefined => undefined;

/** Up to 128 visible ASCII characters: anything else a caller sends is replaced, never echoed. */
const SANE_REQUEST_ID = /^[\x21-\x7e]{1,128}$/;

/** The request id of a request that went through `requestLog` (undefined in apps built without it). */
export function requestIdOf(req: Request): string | undefined {
  const id = (req as { id?: unknown }).id;
  return typeof id === 'string' ? id : undefined;
}

/**
 * Decisions §14: the caller's X-Request-Id when it is sane, else a new one; echoed on every
 * response (set before anything can answer); bound to `req.log`, so every line logged for the
 * request carries it; and one access-log line when the response is done. The line is built from
 * named fields only: never a header, the URL with its query, a body, a token or a password.
 */
export function requestLog(logger: Logger, routeOf: (req: Request) => RouteOf | undefined): RequestHandler {
  const line = (req: IncomingMessage, res: ServerResponse) => {
    const request = req as Request;
    const route = routeOf(request);
    return {
      method: request.method,
      route: route?.route ?? null,
      operationId: route?.operationId ?? null,
      status: res.statusCode,
      durationMs: Math.round((performance.now() - (startedAt.get(request) ?? 0)) * 1000) / 1000,
      accountId: request.caller?.accountId ?? null,
      clientId: request.caller?.clientId ?? null,
      // The client went away before the answer was written.
      ...(res.writableFinished ? {} : { aborted: true }),
    };
  };
  const startedAt = new WeakMap<Request, number>();
  const log = pinoHttp({
    logger,
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'requestId' },
    wrapSerializers: false,
    // pino-http binds the whole request to a child logger of every request even when quiet: without
    // this, pino serialised the IncomingMessage (socket and all) each time, for a logger never used.
    serializers: { req: omitted, res: omitted },
    genReqId: (req, res) => {
      const offered = req.headers['x-request-id'];
      const id = typeof offered === 'string' && SANE_REQUEST_ID.test(offered) ? offered : randomUUID();
      res.setHeader(REQUEST_ID_HEADER, id);
      return id;
    },
    // Probes too (decisions §14: one line per request); LOG_LEVEL=warn keeps only the 5xx lines.
    customLogLevel: (_req, res) => (res.statusCode >= 500 ? 'error' : 'info'),
    customSuccessObject: line,
    customErrorObject: line,
    customSuccessMessage: () => 'request',
    customErrorMessage: () => 'request',
  });
  return (req, res, next) => {
    startedAt.set(req, performance.now());
    log(req, res, next);
  };
}
