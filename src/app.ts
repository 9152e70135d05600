import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import { isRefreshRequest, parseBodies } from './http/body-parsing.js';
import { countedFirst } from './http/counted-first.js';
import { corsHeaders, rateLimitHeaderNames } from './http/cors.js';
import { createDocsRouter, loadOpenApiDocument } from './http/docs.routes.js';
import { errorHandler } from './http/error-handler.js';
import { headAsGet } from './http/head-requests.js';
import { createObservability, type Metric } from './http/observability.js';
import { createHealthRouter, type ReadinessProbes } from './http/health.routes.js';
import { refuseNulCharacters } from './http/nul-characters.js';
import { openApiValidator } from './http/openapi-validator.js';
import { serveOperations, type OperationEntry } from './http/operations.js';
import { oauthPageHeaders } from './oauth/oauth.component.js';
import { errors } from './platform/errors.js';
import type { CoreDeps } from './deps.js';

export interface AppParts extends CoreDeps {
  readonly readiness: ReadinessProbes;
  /** Sets req.caller (or req.authFailure) from the bearer token; refuses nothing (a database error waits for the count). */
  readonly identifyCaller: RequestHandler;
  /** Spends the budgets that apply, sets the X-RateLimit-* headers, or answers 429. */
  readonly rateLimit: RequestHandler;
  /** The components' operations by operationId, served after validation. */
  readonly operations: readonly OperationEntry[];
  /** The components' counters, served by GET /metrics with the app's own. */
  readonly metrics?: readonly Metric[];
  /** false: no request ids, access log or /metrics (only benches measuring what they cost). */
  readonly observe?: boolean;
  /** POST /mcp (the MCP server), mounted at /mcp before the validator; absent in apps built without it. */
  readonly mcp?: readonly (RequestHandler | ErrorRequestHandler)[];
  /** /mcp's DNS-rebinding protection (403 for a foreign Host or Origin), before anything reads the request. */
  readonly mcpGuard?: RequestHandler;
}

/** The middleware order, top to bottom, is the life of a request. */
export function createApp(parts: AppParts): Express {
  const { config, logger } = parts;
  const openApi = loadOpenApiDocument();
  const app = express();
  app.disable('x-powered-by');
  // Off for every response: Express would hash every body, and answer a matching If-None-Match (or `*`,
  // ETag or not) or If-Modified-Since with a 304 no client of the contract expects. The one task's
  // answers that the document gives an ETag set their own (src/tasks/tasks.routes.ts, decisions §15).
  app.set('etag', false);
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
  app.set('trust proxy', config.TRUST_PROXY);
  app.set('query parser', 'extended');

  // First: every response, the early refusals and the probes included, carries its request id.
  if (parts.observe !== false) app.use(...createObservability({ ...parts, document: openApi.document }));
  // Before the guards and the budgets: a preflight is answered here (204) and spends nothing.
  app.use(corsHeaders(config.CORS_ALLOWED_ORIGINS, rateLimitHeaderNames(openApi.document)));
  app.use(createHealthRouter(parts.readiness));
  if (parts.mcpGuard) app.use('/mcp', parts.mcpGuard);
  app.use(['/oauth/authorize', '/oauth/device'], oauthPageHeaders);
  // Counted before the body is read: the caller is known from the headers. Only the refresh budget
  // keys on the body (its token), so that small body is read first. What fails before the count
  // (a database down, a malformed body) is answered after it, with the rate-limit headers.
  app.use(countedFirst([parts.identifyCaller, parseBodies({ when: isRefreshRequest })], parts.rateLimit));
  app.use(parseBodies());
  app.use(refuseNulCharacters);
  if (parts.mcp) app.use('/mcp', ...parts.mcp);
  app.use(createDocsRouter(openApi));
  app.use(headAsGet);
  // Matches the request to an operation of the document, answers 401/403 for its security, checks its parameters and body.
  app.use(openApiValidator(openApi.document, config.OPENAPI_VALIDATE_RESPONSES));
  // The operation's handler, by operationId, with the request as that operation's typed context.
  app.use(serveOperations(openApi.document, parts.operations));
  // Reached only by documented operations that no component serves yet (the validator 404s the rest).
  app.use((req, _res, next) => next(req.openapi ? errors.notImplemented() : errors.notFound('Route')));
  app.use(errorHandler(logger, config.PUBLIC_URL, parts.readiness.database));
  return app;
}
