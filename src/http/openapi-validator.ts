import * as OpenApiValidator from 'express-openapi-validator';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { RequestHandler } from 'express';
import { isRfc3339DateTime } from '../platform/time.js';
import { securityHandlers } from './security-handlers.js';

/**
 * Requests are checked against the document (security first, then parameters and body); responses
 * too when `validateResponses` is on, so a handler cannot answer off-contract unnoticed.
 */
export function openApiValidator(document: Record<string, unknown>, validateResponses: boolean): RequestHandler[] {
  return OpenApiValidator.middleware({
    apiSpec: structuredClone(document) as never,
    validateRequests: { allowUnknownQueryParameters: false, allErrors: true },
    validateResponses: validateResponses ? { allErrors: true } : false,
    validateSecurity: { handlers: securityHandlers },
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
}
