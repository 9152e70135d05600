import { Router, type RequestHandler } from 'express';
import type { CoreDeps } from '../deps.js';

export interface AuthComponent {
  /** Sets req.caller, or req.authFailure for a bad or expired token; never answers by itself. */
  identifyCaller: RequestHandler;
  /** /auth/*, /me and /api-tokens. */
  router: Router;
  /** The account a refresh token belongs to (any state), so the refresh budget can key on it. */
  refreshTokenAccount: (refreshToken: string) => Promise<string | undefined>;
}

// Stub until the sign-in issue lands: nobody is identified, every operation of this component is 501.
export function createAuthComponent(_deps: CoreDeps): AuthComponent {
  return {
    identifyCaller: (_req, _res, next) => next(),
    router: Router(),
    refreshTokenAccount: async () => undefined,
  };
}
