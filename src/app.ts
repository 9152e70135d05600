import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import type { IdentifyCaller } from './auth/auth.component.js';
import { dispatchOnly } from './http/app-dispatch.js';
import type { CoreDeps } from './deps.js';
import { chainOf } from './http/chain.js';
import { docsOperations } from './http/docs.operations.js';
import { useOwnMessageClasses } from './http/message-classes.js';
import { createErrorRenderers } from './http/error-renderers.js';
import { healthOperations, type ReadinessProbes } from './http/health.operations.js';
import { createObservability, type Metric } from './http/observability.js';
import type { OpenApiDocument } from './http/openapi-document.js';
import { createOpenApiValidator } from './http/openapi-validator.js';
import type { OperationRoute } from './http/operation-table.js';
import { ownResponse, type OperationEntry } from './http/operations.js';
import { parseQuery } from './http/query-parser.js';
import { createRoutes } from './http/routes.js';
import { serveWebApp } from './http/web-app.js';
import { errors } from './platform/errors.js';

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
  // Node's own parser's answers (a plain query taken apart without it, src/http/query-parser.ts): no query
  // parameter of the document is an object or an array (a test holds the document to that:
  // contract-tests/conformance/edges.test.ts), so qs's nesting would only cost.
  app.set('query parser', parseQuery);

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
    }),
    pageHeaders: parts.pageHeaders,
    mcpGuard: parts.mcpGuard,
  }));
  // First: every response, the early refusals and the probes included, carries its request id. One
  // handler, handed every request without Express's router (http/app-dispatch.ts).
  dispatchOnly(app, observability ? chainOf([observability.requestLog, routes], []) : routes, parts.logger);
  return app;
}

/** In an app built without observability (benches measuring its cost), /metrics is not there. */
const metricsOff = ownResponse('getMetrics', (req, _res, next) => next(errors.routeNotFound(req.method, req.path)));
