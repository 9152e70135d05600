import type { Request, RequestHandler } from 'express';
import { errors } from '../platform/errors.js';
import { callerOf, type Caller, type Scope } from './caller.js';

type SecurityRequirement = Record<string, string[]>;
interface DocumentedOperation {
  security?: SecurityRequirement[];
}

/**
 * The one step that answers 401 and 403, run between the validator's route matching and its checks of
 * parameters and body (a request without a caller is refused before its body is judged). The caller was
 * identified earlier, so the rate limiter could key on it; here the operation's security requirements
 * decide: any one requirement met lets the request through, as OpenAPI has it; none met is a 401 without
 * a caller (`TOKEN_EXPIRED` for a genuine expired token), else a 403 naming the first scope missing.
 */
export function requireAccess(document: Record<string, unknown>): RequestHandler {
  const documentSecurity = document.security as SecurityRequirement[] | undefined;
  return (req, _res, next) => {
    const operation = (req.openapi as { schema?: DocumentedOperation } | undefined)?.schema;
    const requirements = operation ? (operation.security ?? documentSecurity) : undefined;
    if (!requirements?.length || requirements.some((requirement) => Object.keys(requirement).length === 0)) return next();
    next(refusal(req, requirements));
  };
}

function refusal(req: Request, requirements: SecurityRequirement[]) {
  let caller: Caller;
  try {
    caller = callerOf(req);
  } catch (unauthenticated) {
    return unauthenticated;
  }
  const missing = requirements.map((requirement) => firstMissingScope(caller, requirement));
  if (missing.some((scope) => scope === undefined)) return undefined;
  return errors.insufficientScope(missing[0]!);
}

function firstMissingScope(caller: Caller, requirement: SecurityRequirement): string | undefined {
  for (const scopes of Object.values(requirement)) {
    const missing = scopes.find((scope) => !caller.scopes.includes(scope as Scope));
    if (missing) return missing;
  }
  return undefined;
}
