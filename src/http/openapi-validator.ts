import * as OpenApiValidator from 'express-openapi-validator';
import addFormats from 'ajv-formats';
import type { RequestHandler } from 'express';
import { isRfc3339DateTime } from '../platform/time.js';

const EMAIL = addFormats.default.get('email') as RegExp;

/** The formats as this service checks them, for every door an operation is run through (http/run-operation.ts too). */
export const DOCUMENT_FORMATS = {
  // An email is trimmed before it is stored (docs/signing-in.md), so spaces around it are not an error.
  email: { type: 'string' as const, validate: (value: string) => EMAIL.test(value.trim()) },
  // The calendar too, not only the shape: 2026-02-31 is refused here, the one place every time enters.
  'date-time': { type: 'string' as const, validate: isRfc3339DateTime },
};

/**
 * The validate step: `checkAccess`, then express-openapi-validator's steps in the library's own order
 * (its security step does nothing with `validateSecurity: false`: refusals are ours, as the library's
 * would be bare statuses): its match of the request to an operation, its checks of parameters and body;
 * responses too when `validateResponses` is on, so a handler cannot answer off-contract unnoticed. One
 * validator per app, its compiled schemas shared by every route.
 */
export function createOpenApiValidator(document: Record<string, unknown>, validateResponses: boolean) {
  const steps = OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as never,
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    // The document has no multipart bodies: no multer in front of every request.
    fileUploader: false,
    formats: DOCUMENT_FORMATS,
  }) as RequestHandler[];
  const matchAt = steps.findIndex((candidate) => candidate.name === 'metadataMiddleware');
  // The library's steps are named functions; a release that renames its match fails here, at start-up.
  if (matchAt < 0) throw new Error('express-openapi-validator has no step named metadataMiddleware: check its release before upgrading');
  return {
    /** The steps of a route of `method`: `checkAccess`, then the library's. */
    stepsFor(method: string, checkAccess: RequestHandler): RequestHandler[] {
      const checks = [checkAccess, ...steps.map((step, i) => (i === matchAt ? matchedOnce(step) : step))];
      // A HEAD reaches the GET route (Express routes it there) and is checked as that GET; Node leaves
      // the body out of the answer to a HEAD whatever the method reads from here on.
      return method === 'get' ? [headAsGet, ...checks] : checks;
    },
  };
}

/**
 * The library's match of a request to its operation, made on a route's first request only: later ones
 * get the same operation with their own path parameters, decoded by the route as the library decodes
 * them. The library compiles each documented path to a regular expression, in order, on every request
 * until one matches: half the CPU of a `GET /me` on SQLite (48 to 102 us in bench/pipeline.bench.ts),
 * and a validator per path, which would match one, took eight times as long to start. A release that
 * keeps each path's compiled expression (the library's open pull request 1217, "perf: cache route
 * matchers") makes this step the library's own again.
 */
function matchedOnce(matchOperation: RequestHandler): RequestHandler {
  let matched: Record<string, unknown> | undefined;
  return function matchedOnce(req, res, next) {
    if (matched !== undefined) {
      req.openapi = { ...matched, pathParams: req.params };
      return next();
    }
    return matchOperation(req, res, (err?: unknown) => {
      if (err === undefined && req.openapi !== undefined) matched = { ...(req.openapi as Record<string, unknown>) };
      next(err);
    });
  };
}

const headAsGet: RequestHandler = function headAsGet(req, _res, next) {
  if (req.method === 'HEAD') req.method = 'GET';
  next();
};
