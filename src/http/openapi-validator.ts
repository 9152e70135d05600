import * as OpenApiValidator from 'express-openapi-validator';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { RequestHandler } from 'express';
import { isRfc3339DateTime } from '../platform/time.js';
import { requireAccess } from './security-handlers.js';

/**
 * Requests are checked against the document (the caller's access first, then parameters and body);
 * responses too when `validateResponses` is on, so a handler cannot answer off-contract unnoticed.
 */
export function openApiValidator(document: Record<string, unknown>, validateResponses: boolean): RequestHandler[] {
  const steps = OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as never,
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    // Our own step instead (security-handlers.ts): the library's turns every refusal into a bare status.
    validateSecurity: false,
    validateFormats: true,
    ignoreUndocumented: false,
    // The document has no multipart bodies: no multer in front of every request.
    fileUploader: false,
    // An email is trimmed before it is stored (decisions §3), so spaces around it are not an error.
    formats: {
      email: { type: 'string', validate: (value: string) => (fullFormats.email as RegExp).test(value.trim()) },
      // The calendar too, not only the shape: 2026-02-31 is refused here, the one place every time enters.
      'date-time': { type: 'string', validate: isRfc3339DateTime },
    },
  }) as RequestHandler[];
  return withStepInPlaceOf(steps, 'securityMiddleware', requireAccess(document));
}

/** The library's steps are named functions; a release that renames them fails here, at start-up. */
function withStepInPlaceOf(steps: RequestHandler[], name: string, step: RequestHandler): RequestHandler[] {
  const at = steps.findIndex((candidate) => candidate.name === name);
  if (at < 0) throw new Error(`express-openapi-validator has no step named ${name}: check its release before upgrading`);
  return [...steps.slice(0, at), step, ...steps.slice(at + 1)];
}
