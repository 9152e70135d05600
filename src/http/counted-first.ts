import type { RequestHandler } from 'express';

declare module 'express-serve-static-core' {
  interface Request {
    /** The first error of a step run before the rate limiter, released once the request is counted. */
    deferredError?: unknown;
  }
}

/**
 * Runs the steps the rate limiter needs (identifying the caller, reading the refresh body), then the
 * limiter. An error of a step (the database down while a token is checked, a malformed body) is held
 * until the request has been counted: its answer then carries the rate-limit headers like any other,
 * and a request over its budget is answered 429 whatever else is wrong with it. A step may also hold
 * its failure itself and carry on (identify-caller does, so it never answers on its own).
 */
export function countedFirst(steps: readonly RequestHandler[], count: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const runFrom = (index: number): void => {
      const isCount = index >= steps.length;
      const step = isCount ? count : steps[index]!;
      let done = false;
      const after = (err?: unknown) => {
        if (done) return;
        done = true;
        if (isCount) return next(err ?? req.deferredError);
        if (err) req.deferredError ??= err;
        runFrom(index + 1);
      };
      try {
        void Promise.resolve(step(req, res, after)).catch(after);
      } catch (err) {
        after(err);
      }
    };
    runFrom(0);
  };
}
