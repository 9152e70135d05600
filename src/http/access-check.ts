import type { RequestHandler } from 'express';
import { errors, type AppError } from '../platform/errors.js';
import type { Caller, Scope } from './caller.js';
import type { SecurityRequirement } from './operation-table.js';
import type { Identity } from './request-state.js';

/**
 * Whether the identified caller may run an operation with these security requirements (the document's):
 * any one requirement met lets it through, as OpenAPI has it, every scheme of the requirement counted;
 * none met is a 401 without a caller (`TOKEN_EXPIRED` for a genuine expired token), else a 403 naming
 * the first scope missing. The same rule for a route and for an MCP tool (http/run-operation.ts).
 */
export function accessRefusal(requirements: readonly SecurityRequirement[], identity: Identity | undefined): AppError | undefined {
  if (requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0)) return undefined;
  if (identity?.kind !== 'caller') return identity?.kind === 'failure' && identity.failure === 'expired' ? errors.tokenExpired() : errors.unauthenticated();
  const missing = requirements.map((requirement) => firstMissingScope(identity.caller, requirement));
  if (missing.some((scope) => scope === undefined)) return undefined;
  return errors.insufficientScope(missing[0]!);
}

/**
 * The check-access step of a route: run between the validator's matching and its checks of parameters
 * and body, so a request without a caller is refused before its body is judged.
 */
export function checkAccess(requirements: readonly SecurityRequirement[]): RequestHandler {
  return function checkAccess(_req, res, next) {
    next(accessRefusal(requirements, res.locals.identity));
  };
}

function firstMissingScope(caller: Caller, requirement: SecurityRequirement): string | undefined {
  for (const scopes of Object.values(requirement)) {
    const missing = scopes.find((scope) => !caller.scopes.includes(scope as Scope));
    if (missing) return missing;
  }
  return undefined;
}
