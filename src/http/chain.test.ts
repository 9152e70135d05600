import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { chainOf } from './chain.js';

const req = {} as Request;
const res = {} as Response;

/** Runs the chain and answers what reached Express's `next` (undefined when nothing did). */
function runChain(steps: RequestHandler[], renderers: ErrorRequestHandler[]): Promise<{ passedOn: boolean; err: unknown }> {
  return new Promise((resolve) => {
    chainOf(steps, renderers)(req, res, (err?: unknown) => resolve({ passedOn: true, err }));
    setTimeout(() => resolve({ passedOn: false, err: undefined }), 20);
  });
}

describe('a route chain composed once', () => {
  it('runs the steps in order and passes on after the last', async () => {
    const seen: number[] = [];
    const step = (n: number): RequestHandler => (_req, _res, next) => {
      seen.push(n);
      next();
    };
    expect(await runChain([step(1), step(2), step(3)], [])).toEqual({ passedOn: true, err: undefined });
    expect(seen).toEqual([1, 2, 3]);
  });

  it('stops at a step that answers without calling next', async () => {
    const seen: string[] = [];
    const answered: RequestHandler = () => void seen.push('answered');
    const never: RequestHandler = () => void seen.push('never');
    expect((await runChain([answered, never], [])).passedOn).toBe(false);
    expect(seen).toEqual(['answered']);
  });

  it.each([
    ['passed to next', ((_req, _res, next) => next(new Error('boom'))) as RequestHandler],
    ['thrown', (() => {
      throw new Error('boom');
    }) as RequestHandler],
    ['a rejected promise', (async () => {
      throw new Error('boom');
    }) as RequestHandler],
  ])('an error %s skips the remaining steps and reaches the first renderer', async (_how, failing) => {
    const rendered: string[] = [];
    const after: RequestHandler = () => void rendered.push('later step ran');
    const renderer: ErrorRequestHandler = (err: Error) => void rendered.push(`rendered ${err.message}`);
    expect((await runChain([failing, after], [renderer])).passedOn).toBe(false);
    expect(rendered).toEqual(['rendered boom']);
  });

  it('a renderer that passes the error on hands it to the next renderer, and the last one to Express', async () => {
    const passOn: ErrorRequestHandler = (err, _req, _res, next) => next(err);
    const failing: RequestHandler = (_req, _res, next) => next('refused');
    expect(await runChain([failing], [passOn, passOn])).toEqual({ passedOn: true, err: 'refused' });
  });

  it('a renderer that throws hands what it threw to the next renderer', async () => {
    const seen: unknown[] = [];
    const throwing: ErrorRequestHandler = () => {
      throw new Error('renderer failed');
    };
    const last: ErrorRequestHandler = (err: Error) => void seen.push(err.message);
    await runChain([(_req, _res, next) => next(new Error('first'))], [throwing, last]);
    expect(seen).toEqual(['renderer failed']);
  });
});
