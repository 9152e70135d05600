import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { IdentifyCaller } from './auth/auth.component.js';
import type { CoreDeps } from './deps.js';
import { docsOperations } from './http/docs.operations.js';
import { useOwnMessageClasses } from './http/message-classes.js';
import { createErrorRenderers } from './http/error-renderers.js';
import { healthOperations, type ReadinessProbes } from './http/health.operations.js';
import { createObservability, type Metric } from './http/observability.js';
import type { OpenApiDocument } from './http/openapi-document.js';
import { createOpenApiValidator } from './http/openapi-validator.js';
import type { OperationRoute } from './http/operation-table.js';
import { ownResponse, type OperationEntry } from './http/operations.js';
import { loggerFor } from './http/request-log.js';
import { createRoutes } from './http/routes.js';
import { serveWebApp } from './http/web-app.js';
import { errors } from './platform/errors.js';
import type { Logger } from './platform/logger.js';

export interface AppParts extends CoreDeps {
  /** The contract, read once by the process entry, and its operations as the routes are built from them. */
  readonly openApi: OpenApiDocument;
  readonly table: readonly OperationRoute[];
  readonly readiness: ReadinessProbes;
  /** The identify step: the caller of the bearer token, a bad or expired token, or the error that kept it from knowing. */
  readonly identifyCaller: IdentifyCaller;
  /** The count step: spends the budgets that apply, sets the X-RateLimit-* headers, or answers 429. */
  readonly rateLimit: RequestHandler;
  /** The components' operations by operationId: with the docs, probes and /metrics, every operation of the document. */
  readonly operations: readonly OperationEntry[];
  /** The components' counters, served by GET /metrics with the app's own. */
  readonly metrics?: readonly Metric[];
  /** false: no request ids, access log or /metrics (only benches measuring what they cost). */
  readonly observe?: boolean;
  /** The sign-in pages' security headers. */
  readonly pageHeaders: RequestHandler;
  /** /mcp's DNS-rebinding protection (403 for a foreign Host or Origin), before anything reads the request. */
  readonly mcpGuard: RequestHandler;
  /** /mcp's renderer of a refused `tools/call`. */
  readonly mcpRefusal?: ErrorRequestHandler;
  /** The scopes a token for /mcp can use, named in the challenge of its 401s. */
  readonly mcpScopes?: readonly string[];
}

/**
 * The life of a request: its id and access-log line (observability), then the route of its operation,
 * whose chain http/routes.ts decides at start-up from the operation table of the document
 * (cors → identify → count → read the body → check access → validate → handle → render).
 */
export function createApp(parts: AppParts): Express {
  const { config, openApi } = parts;
  const app = express();
  useOwnMessageClasses(app);
  app.disable('x-powered-by');
  // Off for every response: Express would hash every body, and answer a matching If-None-Match (or `*`,
  // ETag or not) or If-Modified-Since with a 304 no client of the contract expects. The one task's
  // answers that the document gives an ETag set their own (src/tasks/tasks.operations.ts, docs/change-feed.md).
  app.set('etag', false);
  Object.defineProperty(app.request, 'fresh', { configurable: true, get: () => false });
  app.set('trust proxy', config.TRUST_PROXY);
  // Node's querystring: no query parameter of the document is an object or an array (a test holds the
  // document to that: contract-tests/conformance/edges.test.ts), so qs's nesting would only cost.
  app.set('query parser', 'simple');

  const observability = parts.observe === false ? undefined : createObservability(parts);
  const routes = serveWebApp(config.WEB_APP_DIR, createRoutes({
    config,
    document: openApi.document,
    table: parts.table,
    operations: [
      ...parts.operations,
      ...docsOperations(openApi),
      ...healthOperations(parts.readiness),
      ...(observability?.operations ?? [metricsOff]),
    ],
    identifyCaller: parts.identifyCaller,
    rateLimit: parts.rateLimit,
    validator: createOpenApiValidator(openApi.document, config.OPENAPI_VALIDATE_RESPONSES),
    renderers: createErrorRenderers({
      logger: parts.logger,
      publicUrl: config.PUBLIC_URL,
      databaseReachable: parts.readiness.database,
      mcpRefusal: parts.mcpRefusal,
      mcpScopes: parts.mcpScopes,
    }),
    pageHeaders: parts.pageHeaders,
    mcpGuard: parts.mcpGuard,
  }));
  // First: every response, the early refusals and the probes included, carries its request id.
  if (observability) app.use(observability.requestLog);
  app.use(routes);
  app.use(failedPastRenderers(parts.logger));
  return app;
}

/**
 * What a route's renderers pass on (its response already begun) is logged with the request id, and the
 * connection closed as Express's final handler would, which would print it to standard error instead.
 */
function failedPastRenderers(logger: Logger): ErrorRequestHandler {
  return function failedPastRenderers(err: unknown, req, res, next) {
    loggerFor(req, logger).error({ err }, 'request failed past its error renderers');
    if (res.headersSent) req.socket.destroy();
    else next(err);
  };
}

/** In an app built without observability (benches measuring its cost), /metrics is not there. */
const metricsOff = ownResponse('getMetrics', (req, _res, next) => next(errors.routeNotFound(req.method, req.path)));
