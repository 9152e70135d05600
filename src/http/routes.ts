import type { RequestHandler } from 'express';
import type { Config } from '../config.js';
import type { IdentifyCaller } from '../auth/auth.component.js';
import { errors } from '../platform/errors.js';
import { checkAccess } from './access-check.js';
import { chainOf } from './chain.js';
import { readBody, readBodyBeforeCount } from './body-parsing.js';
import { corsHeaders, rateLimitHeaderNames } from './cors.js';
import { deprecationSteps } from './deprecation.js';
import type { createErrorRenderers } from './error-renderers.js';
import { refuseNulCharacters } from './nul-characters.js';
import { byPath, type OperationRoute } from './operation-table.js';
import { entriesByOperation, handle, type OperationEntry } from './operations.js';
import type { createOpenApiValidator } from './openapi-validator.js';
import { pathMatcher } from './path-matcher.js';
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
 * One route per documented operation, its chain decided once from the operation table
 * (http/operation-table.ts), in the order a request lives it:
 *
 *   cors → identify → count → read the body → refuse NUL → check access → validate → handle → render
 *
 * Sign-in pages get security headers instead of CORS, /mcp its DNS-rebinding guard first; the refresh
 * route reads its body before the count (its budget keys on the body's token); the probes and /metrics
 * are not counted. A path refuses the methods it does not take (405) and malformed percent-encoding
 * (400); an undocumented path is a counted 404; a HEAD runs (and spends as) its GET's chain.
 */
export function createRoutes(parts: RouteParts): RequestHandler {
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
      ...deprecationSteps(parts.document, route, parts.config.PUBLIC_URL),
      ...admission(route, counted, earlyBodyStep ? [earlyBodyStep] : []),
      ...(bodyStep ? [bodyStep] : []),
      ...(counted ? [refuseNulCharacters] : []),
      ...(counted ? checks : []),
      handle(entry, { validateResponses: parts.config.OPENAPI_VALIDATE_RESPONSES }),
    ];
    return chainOf(steps, parts.renderers[route.errorStyle]);
  };

  /** A path's refusal (405, 400): counted like any request; a preflight (OPTIONS) is answered by the CORS step before it. */
  const refusalOf = (route: OperationRoute, refuse: RequestHandler) => chainOf([...admission(route, true), refuseNulCharacters, refuse], parts.renderers.common);
  const paths = new Map<string, PathRoutes>();
  for (const [path, routes] of byPath(parts.table)) {
    const first = routes[0]!;
    // HEAD is answered wherever GET is (openapi.yaml's conventions), so a 405 names it too.
    const allow = routes.flatMap((route) => (route.method === 'get' ? ['GET', 'HEAD'] : [route.method.toUpperCase()]));
    const hint = path === MCP_PATH ? ': POST JSON-RPC messages' : '';
    paths.set(path, {
      methods: new Map(routes.map((route) => [route.method.toUpperCase(), chainFor(route, served.get(route.operationId)!)])),
      refuseMethod: refusalOf(first, (req, _res, next) => next(errors.methodNotAllowed(req.method, req.path, allow, hint))),
      refuseMalformed: refusalOf(first, (_req, res, next) => next(malformedParameter(res.locals.malformedParameter!))),
    });
  }
  const notFound = chainOf([cors, identify.api, count, refuseNulCharacters, (req, _res, next) => next(errors.routeNotFound(req.method, req.path))], parts.renderers.common);
  const matchPath = pathMatcher(paths);

  return function routeRequest(req, res, next) {
    const found = matchPath(req.path);
    if (found === undefined) return notFound(req, res, next);
    if ('malformed' in found) {
      res.locals.malformedParameter = found.malformed;
      return found.entry.refuseMalformed(req, res, next);
    }
    req.params = found.params;
    const { methods, refuseMethod } = found.entry;
    const chain = methods.get(req.method) ?? (req.method === 'HEAD' ? methods.get('GET') : undefined) ?? refuseMethod;
    chain(req, res, next);
  };
}

/** A documented path's chains: one per method it takes, and its refusals. */
interface PathRoutes {
  readonly methods: ReadonlyMap<string, RequestHandler>;
  readonly refuseMethod: RequestHandler;
  readonly refuseMalformed: RequestHandler;
}

function malformedParameter({ name, raw }: { name: string; raw: string }) {
  return errors.validation([{ path: `/path/${name}`, message: `must be valid percent-encoding (got ${JSON.stringify(raw)})` }]);
}

/** The first step of an operation's route: the request is this operation's (the access log's and the limiter's label). */
function routeOf(route: OperationRoute): RequestHandler {
  return function routeOf(_req, res, next) {
    res.locals.route = route;
    next();
  };
}
