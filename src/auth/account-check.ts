import type { RequestHandler } from 'express';

/**
 * Drops the caller of an access token whose account no longer exists (closed, or a `sub` naming no
 * account): one primary-key read per request, against the shared database, so a closed account stops
 * working at once on every instance, whatever a token cache still holds. API tokens need no check: they
 * are rows of their account and go with it.
 */
export function createAccountCheck(accountExists: (accountId: string) => Promise<boolean>): RequestHandler {
  return async (req, _res, next) => {
    const caller = req.caller;
    if (!caller || caller.kind === 'api-token') return next();
    try {
      if (!(await accountExists(caller.accountId))) {
        req.caller = undefined;
        req.authFailure = 'invalid';
      }
    } catch (error) {
      // Database down: a 503, counted and given the rate-limit headers before it is sent (app.ts).
      req.caller = undefined;
      return next(error);
    }
    next();
  };
}
