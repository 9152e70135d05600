import { Router, type RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { IdentifyCaller } from '../auth/auth.component.js';
import { errors } from '../platform/errors.js';
import { checkAccess } from './access-check.js';
import { chainOf } from './chain.js';
import { readBody, readBodyBeforeCount } from './body-parsing.js';
import { corsHeaders, rateLimitHeaderNames } from './cors.js';
import type { createErrorRenderers } from './error-renderers.js';
import { refuseNulCharacters } from './nul-characters.js';
import { byPath, type OperationRoute } from './operation-table.js';
import { entriesByOperation, handle, type OperationEntry } from './operations.js';
import type { createOpenApiValidator } from './openapi-validator.js';
import { MCP_PATH } from './resources.js';

export interface RouteParts {
  readonly config: Config;
  readonly document: Record<string, unknown>;
  readonly table: readonly OperationRoute[];
  readonly operations: readonly OperationEntry[];
  readonly identifyCaller: IdentifyCaller;
  /** The count step: spends the budgets of the route's operation, sets the X-RateLimit-* headers, or refuses with 429. */
  readonly rateLimit: RequestHandler;
  readonly validator: ReturnType<typeof createOpenApiValidator>;
  readonly renderers: ReturnType<typeof createErrorRenderers>;
  /** The sign-in pages' security headers (oauth/consent-page.ts). */
  readonly pageHeaders: RequestHandler;
  /** /mcp's DNS-rebinding protection (403 for a foreign Host or Origin), before anything reads the request. */
  readonly mcpGuard: RequestHandler;
}

/**
 * One Express route per documented operation, its chain decided here, once, from what the document
 * declares (http/operation-table.ts), in the order a request lives it:
 *
 *   cors → identify → count → read the body → refuse NUL → check access → validate → handle → render
 *
 * (sign-in pages get their security headers instead of CORS; /mcp its DNS-rebinding guard first; the
 * refresh budget keys on the body's token, so that route reads its body before the count; the probes
 * and /metrics are outside the limits: no identify, no count). Then, for each path, a route for the
 * methods it does not take (405), and last one for paths the document does not have (404). Express's
 * router is the only matcher; a HEAD reaches the GET route and spends what the GET spends. Each route's
 * steps and renderers are one handler (http/chain.ts).
 */
export function createRoutes(parts: RouteParts): Router {
  const served = entriesByOperation(parts.table, parts.operations);
  const cors = corsHeaders(parts.config.CORS_ALLOWED_ORIGINS, rateLimitHeaderNames(parts.document));
  const identifyFor = (resource: OperationRoute['resource']): RequestHandler =>
    async function identify(req, res, next) {
      res.locals.identity = await parts.identifyCaller(req, resource);
      next();
    };
  const identify = { api: identifyFor('api'), mcp: identifyFor('mcp') };
  // Over budget is a 429 whatever else is wrong with the request; else what kept the caller from being
  // identified (the database down) or the refresh body from being read fails it, counted and with its headers.
  const count: RequestHandler = function count(req, res, next) {
    parts.rateLimit(req, res, (refusal?: unknown) => {
      const identity = res.locals.identity;
      next(refusal ?? (identity?.kind === 'error' ? identity.error : res.locals.bodyError));
    });
  };

  /** The steps every route of `route`'s path shares up to the count: who may see it, who calls, what it costs. */
  const admission = (route: OperationRoute, counted: boolean, beforeCount: RequestHandler[] = []): RequestHandler[] => [
    ...(route.cors ? [cors] : []),
    ...(route.page ? [parts.pageHeaders] : []),
    ...(route.resource === 'mcp' ? [parts.mcpGuard] : []),
    ...(counted ? [identify[route.resource], ...beforeCount, count] : []),
  ];

  const chainFor = (route: OperationRoute, entry: OperationEntry): RequestHandler => {
    const counted = route.budget.budget !== 'none';
    const keysOnBody = route.budget.budget === 'refresh';
    const bodyStep = keysOnBody ? undefined : readBody(route);
    const earlyBodyStep = keysOnBody ? readBodyBeforeCount(route) : undefined;
    const access = checkAccess(route.security);
    // The operations that write their own response (docs, probes, /metrics, /mcp) are not the validator's.
    const checks = 'handler' in entry ? parts.validator.stepsFor(route.method, access) : [access];
    const steps = [
      routeOf(route),
      ...admission(route, counted, earlyBodyStep ? [earlyBodyStep] : []),
      ...(bodyStep ? [bodyStep] : []),
      ...(counted ? [refuseNulCharacters] : []),
      ...(counted ? checks : []),
      handle(entry),
    ];
    return chainOf(steps, parts.renderers[route.errorStyle]);
  };

  const router = Router();
  for (const [path, routes] of byPath(parts.table)) {
    const first = routes[0]!;
    for (const route of routes) router[route.method](route.expressPath, chainFor(route, served.get(route.operationId)!));
    const allow = routes.map((route) => route.method.toUpperCase());
    const hint = path === MCP_PATH ? ': POST JSON-RPC messages' : '';
    const refuseMethod: RequestHandler = (req, _res, next) => next(errors.methodNotAllowed(req.method, req.path, allow, hint));
    // Counted like any request; a preflight (OPTIONS) is answered by the CORS step before it.
    router.all(first.expressPath, chainOf([...admission(first, true), refuseNulCharacters, refuseMethod], parts.renderers.common));
  }
  const notFound: RequestHandler = (req, _res, next) => next(errors.routeNotFound(req.method, req.path));
  router.use(chainOf([cors, identify.api, count, refuseNulCharacters, notFound], parts.renderers.common));
  return router;
}

/** The first step of an operation's route: the request is this operation's (the access log's and the limiter's label). */
function routeOf(route: OperationRoute): RequestHandler {
  return function routeOf(_req, res, next) {
    res.locals.route = route;
    next();
  };
}
