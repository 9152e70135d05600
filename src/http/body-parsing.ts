import express, { type RequestHandler } from 'express';

export const BODY_LIMIT = '1mb';

/**
 * Parses JSON and form bodies (1 MiB at most) but holds a parse error back until the rate limiter
 * has counted the request: every response, errors included, then carries the rate-limit headers,
 * and a flood of bad bodies still spends budget.
 */
export function parseBodies(): RequestHandler[] {
  const parsers = [
    express.json({ limit: BODY_LIMIT, type: ['application/json', 'application/*+json'] }),
    express.urlencoded({ limit: BODY_LIMIT, extended: false }),
  ];
  return parsers.map(
    (parse): RequestHandler =>
      (req, res, next) =>
        parse(req, res, (err?: unknown) => {
          if (err) req.deferredError = err;
          next();
        }),
  );
}

export const releaseDeferredError: RequestHandler = (req, _res, next) => next(req.deferredError);
