import type { ErrorRequestHandler, RequestHandler } from 'express';

/**
 * A route's steps and error renderers as one Express handler with one `next`: the steps run in order,
 * the first error (passed to `next`, thrown, or a rejected promise) goes to the renderers in order, and
 * what the last passes on goes back to Express, as if Express ran them one by one, without its router's
 * dispatch around each step, which cost more than the steps on a small request (bench/pipeline.bench.ts).
 */
export function chainOf(steps: readonly RequestHandler[], renderers: readonly ErrorRequestHandler[]): RequestHandler {
  return function route(req, res, done) {
    let stepAt = 0;
    /** Past the steps: the renderer to hand the next error to (-1 while no error occurred). */
    let rendererAt = -1;

    const next = (err?: unknown): void => {
      if (rendererAt >= 0) return err === undefined ? done() : render(err);
      if (err !== undefined && err !== null) {
        rendererAt = 0;
        return render(err);
      }
      const step = steps[stepAt++];
      if (step === undefined) return done();
      try {
        settle(step(req, res, next));
      } catch (thrown) {
        next(thrown);
      }
    };

    const render = (err: unknown): void => {
      const renderer = renderers[rendererAt++];
      if (renderer === undefined) return done(err);
      try {
        settle(renderer(err, req, res, next));
      } catch (thrown) {
        next(thrown);
      }
    };

    const rejected = (thrown: unknown) => next(thrown ?? new Error('Rejected promise'));
    const settle = (result: unknown) => {
      if (isPromise(result)) result.then(undefined, rejected);
    };

    next();
  };
}

const isPromise = (value: unknown): value is Promise<unknown> =>
  value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
