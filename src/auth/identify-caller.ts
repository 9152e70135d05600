import type { Request, RequestHandler } from 'express';
import { LRUCache } from 'lru-cache';
import passport from 'passport';
import type { Caller, CallerAccount } from '../http/caller.js';
import type { OperationRoute } from '../http/operation-table.js';
import type { Identity } from '../http/request-state.js';
import { ANONYMOUS } from '../http/request-state.js';
import type { AccessTokens } from './access-tokens.js';
import { API_TOKEN_PREFIX, type ApiTokens } from './api-tokens.service.js';

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const STRATEGY = 'access-token';
/** Verified access tokens kept (each until its exp): a client signs every request with the same one. */
const VERIFIED_TOKENS_KEPT = 10_000;
/**
 * An HS256 signature's length in base64url: the key holds the whole signature, so a caller who could
 * reach an entry already holds what a token's secret part is (its header and claims are not secret), and
 * the comparison with the whole header that follows has nothing left to give away by its timing.
 */
const CACHE_KEY_CHARACTERS = 43;

/** The identify step: who `Authorization: Bearer <JWT | tsk_...>` says the caller of a route's request is. */
export type IdentifyCaller = (req: Request, resource: OperationRoute['resource']) => Promise<Identity>;

export interface IdentifyChecks {
  /** RFC 8707: whether a token issued for `audience` (undefined: an API token, for the REST API) may call `resource`. */
  audienceFits: (req: Request, audience: string | undefined, resource: OperationRoute['resource']) => boolean;
  /** The account behind an access token, if it still exists (a closed account stops at once on every instance). */
  accountOf: (accountId: string) => Promise<CallerAccount | undefined>;
}

/**
 * Finds the caller of a request, or why a token sent gave none ('invalid', or 'expired' for a genuine
 * access token past its exp), or the error that kept it from knowing. It never answers: the count step
 * decides on what it finds (http/routes.ts), then the access step decides whether the operation needs
 * a caller.
 */
export function createIdentifyCaller(accessTokens: AccessTokens, apiTokens: ApiTokens, checks: IdentifyChecks): IdentifyCaller {
  // An instance of our own, without sessions: nothing global, nothing stored per request.
  const authenticator = new passport.Passport();
  authenticator.use(STRATEGY, accessTokens.strategy);
  // Checking the signature and claims through passport is a fifth of a small request's cost; the
  // same bytes verified once stay valid until their exp, which the cache entry does not outlive.
  // A client sends the same Authorization header again and again: an entry is found by the header's
  // last 43 characters (the signature's) and holds the whole header, so a known header is neither
  // matched against BEARER nor hashed whole (docs/benchmarks.md#pipeline).
  const verified = new LRUCache<string, { header: string; caller: Caller; expiresAtMs: number }>({ max: VERIFIED_TOKENS_KEPT });
  // The entry's ttl only frees memory: lru-cache's clock is not the wall clock `exp` is read against.
  const stillValid = (header: string) => {
    const entry = verified.get(header.slice(-CACHE_KEY_CHARACTERS));
    return entry && entry.header === header && Date.now() < entry.expiresAtMs ? entry.caller : undefined;
  };

  const verifyJwt = (req: Request, header: string, token: string) =>
    new Promise<Caller | 'expired' | 'invalid'>((resolve, reject) => {
      const authenticate = authenticator.authenticate(
        STRATEGY,
        { session: false },
        (err: unknown, caller: Caller | false | undefined, info: unknown) => {
          if (err) return reject(err);
          if (caller) {
            const expiresAtMs = accessTokens.expiresAtMs(token);
            const ttl = expiresAtMs - Date.now();
            if (ttl > 0) verified.set(header.slice(-CACHE_KEY_CHARACTERS), { header, caller: Object.freeze(caller), expiresAtMs }, { ttl });
            return resolve(caller);
          }
          resolve(isExpiry(info) && accessTokens.isGenuineButExpired(token) ? 'expired' : 'invalid');
        },
      ) as RequestHandler;
      void authenticate(req, req.res!, reject);
    });

  const invalid: Identity = Object.freeze({ kind: 'failure', failure: 'invalid' });
  const expired: Identity = Object.freeze({ kind: 'failure', failure: 'expired' });

  /** What a verified (or remembered) access token says: its caller if it fits the resource and its account is open. */
  const identityOf = async (req: Request, resource: OperationRoute['resource'], found: Caller | 'expired' | 'invalid'): Promise<Identity> => {
    if (found === 'expired') return expired;
    if (found === 'invalid' || !checks.audienceFits(req, found.audience, resource)) return invalid;
    const account = await checks.accountOf(found.accountId);
    return account ? { kind: 'caller', caller: found, account } : invalid;
  };

  return async (req, resource) => {
    const header = req.headers.authorization;
    if (header === undefined) return ANONYMOUS;
    try {
      const known = stillValid(header);
      if (known !== undefined) return await identityOf(req, resource, known);
      const token = BEARER.exec(header)?.[1];
      if (!token) return invalid;
      if (token.startsWith(API_TOKEN_PREFIX)) {
        // API tokens are rows of their account and go with it: no account check.
        const caller = await apiTokens.authenticate(token);
        return caller && checks.audienceFits(req, undefined, resource) ? { kind: 'caller', caller } : invalid;
      }
      return await identityOf(req, resource, await verifyJwt(req, header, token));
    } catch (error) {
      // The database down while a token is looked up: the count step fails the request after counting it.
      return { kind: 'error', error };
    }
  };
}

const isExpiry = (info: unknown) => info instanceof Error && info.name === 'TokenExpiredError';
