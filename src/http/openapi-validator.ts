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
 * The validate step: `checkAccess`, then express-openapi-validator's steps in the order it gives them
 * (matching, then its checks of parameters and body; responses too when `validateResponses` is on, so a
 * handler cannot answer off-contract unnoticed). With `validateSecurity: false` the library's own
 * security step passes every request through (it would turn every refusal into a bare status): access
 * is ours, and comes first. One validator per app, its compiled schemas shared by every route.
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
  return {
    /** The steps of a route of `method`: `checkAccess`, then the library's. */
    stepsFor(method: string, checkAccess: RequestHandler): RequestHandler[] {
      // A HEAD reaches the GET route (Express routes it there) and is checked as that GET; Node leaves
      // the body out of the answer to a HEAD whatever the method reads from here on.
      return method === 'get' ? [headAsGet, checkAccess, ...steps] : [checkAccess, ...steps];
    },
  };
}

const headAsGet: RequestHandler = function headAsGet(req, _res, next) {
  if (req.method === 'HEAD') req.method = 'GET';
  next();
};
