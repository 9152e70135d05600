import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A route's steps and error renderers as one Express handler, composed once at start-up: the steps
 * run in order, the first error (passed to `next`, thrown, or a rejected promise, as Express takes
 * them) goes to the renderers in order, and what the last one passes on goes back to Express. The
 * same contract as handing Express the steps one by one, without its router's dispatch around each
 * step: on a small request that dispatch cost more than the steps it ran (bench/pipeline.bench.ts).
 */
export function chainOf(steps: readonly RequestHandler[], renderers: readonly ErrorRequestHandler[]): RequestHandler {
  const run = (req: Request, res: Response, done: NextFunction, at: number, err: unknown): void => {
    if (err !== undefined && err !== null) return renderError(req, res, done, 0, err);
    const step = steps[at];
    if (step === undefined) return done();
    const next = (nextErr?: unknown) => run(req, res, done, at + 1, nextErr);
    try {
      const result: unknown = step(req, res, next);
      if (isPromise(result)) result.then(undefined, (thrown: unknown) => next(thrown ?? new Error('Rejected promise')));
    } catch (thrown) {
      next(thrown);
    }
  };

  const renderError = (req: Request, res: Response, done: NextFunction, at: number, err: unknown): void => {
    const renderer = renderers[at];
    if (renderer === undefined) return done(err);
    const next = (nextErr?: unknown) => (nextErr === undefined ? done() : renderError(req, res, done, at + 1, nextErr));
    try {
      const result: unknown = renderer(err, req, res, next);
      if (isPromise(result)) result.then(undefined, (thrown: unknown) => next(thrown ?? new Error('Rejected promise')));
    } catch (thrown) {
      next(thrown);
    }
  };

  return function route(req, res, next) {
    run(req, res, next, 0, undefined);
  };
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
