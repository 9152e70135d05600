import type { AppError } from '../platform/errors.js';
import type { Caller, CallerAccount } from './caller.js';
import type { OperationRoute } from './operation-table.js';

/**
 * Who the bearer token says the caller is, as the identify step finds it: a caller, the reason a
 * token sent gave none, or the error that kept the step from knowing (the database down). The count
 * step decides on it: a request over its budget is a 429 whatever else is wrong with it.
 */
export type Identity =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'caller'; readonly caller: Caller; readonly account?: CallerAccount }
  | { readonly kind: 'failure'; readonly failure: 'expired' | 'invalid' }
  | { readonly kind: 'error'; readonly error: unknown };

export const ANONYMOUS: Identity = Object.freeze({ kind: 'anonymous' });

/** The caller of an identity, if it names one. */
export const callerIn = (identity: Identity | undefined): Caller | undefined => (identity?.kind === 'caller' ? identity.caller : undefined);

// Everything a request carries beyond what Express gives it: the steps of a route's chain
// (http/routes.ts) hand values on through `res.locals`, Express's per-request state.
declare module 'express-serve-static-core' {
  interface Request {
    /** X-Request-Id of this request (docs/production.md), set by the request log. */
    id?: string;
    /** Set by express-openapi-validator on the requests it checks: the operation it matched. */
    openapi?: unknown;
  }
  interface Locals {
    /** When the request log first saw the request (performance.now(), ms): its access line's duration. */
    receivedAt?: number;
    /** The documented operation whose route serves this request; absent for 404s and 405s. */
    route?: OperationRoute;
    /** What the identify step found; absent on routes that identify nobody (probes, /metrics). */
    identity?: Identity;
    /** The raw body held something that may decode to U+0000: only then is the parsed body searched. */
    bodyMayHoldNul?: boolean;
    /** The body read before the count (the refresh budget keys on its token) could not be read. */
    bodyError?: unknown;
    /** A path parameter that is not valid percent-encoding, for its path's 400 (http/routes.ts). */
    malformedParameter?: { readonly name: string; readonly raw: string };
    /** The error the response reports, for the request metrics. */
    error?: AppError;
  }
}
