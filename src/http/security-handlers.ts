import type { Request } from 'express';
import type { Scope } from './caller.js';

interface StatusError extends Error {
  status: number;
}

function reject(status: number): StatusError {
  return Object.assign(new Error(status === 401 ? 'unauthenticated' : 'forbidden'), { status });
}

/**
 * The validator's security step, run before body validation: a caller was identified earlier (so the
 * rate limiter could key on it); here we only decide 401 / 403 for the operation's required scopes.
 */
function requireCaller(req: Request, scopes: string[]): true {
  const caller = req.caller;
  if (!caller) throw reject(401);
  const missing = scopes.find((scope) => !caller.scopes.includes(scope as Scope));
  if (missing) {
    req.securityOutcome = { requiredScope: missing };
    throw reject(403);
  }
  return true;
}

export const securityHandlers = {
  bearerAuth: requireCaller,
  apiToken: requireCaller,
  oauth2: requireCaller,
};
