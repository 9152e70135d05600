import type { Request, RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import passport from 'passport';
import type { Caller } from '../http/caller.js';
import type { AccessTokens } from './access-tokens.js';
import { API_TOKEN_PREFIX, type ApiTokens } from './api-tokens.service.js';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const STRATEGY = 'access-token';
/** Verified access tokens kept (each until its exp): a client signs every request with the same one. */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Sets req.caller from `Authorization: Bearer <JWT | tsk_...>`, or req.authFailure when the token is
 * bad ('invalid') or a genuine access token past its exp ('expired'). It never answers: the rate limiter
 * runs next, then the access step (http/security-handlers.ts) decides whether the operation needs a caller.
 */
export function createIdentifyCaller(accessTokens: AccessTokens, apiTokens: ApiTokens): RequestHandler {
  // An instance of our own, without sessions: nothing global, nothing stored per request but the caller.
  const authenticator = new passport.Passport();
  authenticator.use(STRATEGY, accessTokens.strategy);
  // Checking the signature and claims through passport is a fifth of a small request's cost; the
  // same bytes verified once stay valid until their exp, which the cache entry does not outlive.
  const verified = new LRUCache<string, { caller: Caller; expiresAtMs: number }>({ max: VERIFIED_TOKENS_KEPT });
  // The entry's ttl only frees memory: lru-cache's clock is not the wall clock `exp` is read against.
  const stillValid = (token: string) => {
    const entry = verified.get(token);
    return entry && Date.now() < entry.expiresAtMs ? entry.caller : undefined;
  };

  const verifyJwt = (req: Request, token: string) =>
    new Promise<Caller | undefined>((resolve, reject) => {
      const authenticate = authenticator.authenticate(
        STRATEGY,
        { session: false },
        (err: unknown, caller: Caller | false | undefined, info: unknown) => {
          if (err) return reject(err);
          if (caller) {
            const expiresAtMs = accessTokens.expiresAtMs(token);
            const ttl = expiresAtMs - Date.now();
            if (ttl > 0) verified.set(token, { caller: Object.freeze(caller), expiresAtMs }, { ttl });
            return resolve(caller);
          }
          req.authFailure = isExpiry(info) && accessTokens.isGenuineButExpired(token) ? 'expired' : 'invalid';
          resolve(undefined);
        },
      ) as RequestHandler;
      void authenticate(req, req.res!, reject);
    });

  return async (req, _res, next) => {
    const header = req.headers.authorization;
    if (header === undefined) return next();
    const token = BEARER.exec(header)?.[1];
    if (!token) {
      req.authFailure = 'invalid';
      return next();
    }
    let caller: Caller | undefined;
    try {
      caller = token.startsWith(API_TOKEN_PREFIX) ? await apiTokens.authenticate(token) : (stillValid(token) ?? (await verifyJwt(req, token)));
    } catch (error) {
      // An API token is looked up in the database: when that is down, the answer (503) is held back
      // for after the rate limiter (http/counted-first.ts), so it is counted and carries its headers.
      req.deferredError ??= error;
      return next();
    }
    if (caller) req.caller = caller;
    else req.authFailure ??= 'invalid';
    next();
  };
}

const isExpiry = (info: unknown) => info instanceof Error && info.name === 'TokenExpiredError';
