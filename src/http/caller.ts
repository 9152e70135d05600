import type { components } from '../../generated/api.js';

export type Scope = components['schemas']['Scope'];
export const ALL_SCOPES: readonly Scope[] = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write', 'tokens:manage'];
/**
 * Managing API tokens and authorised apps: held by web sessions, and by an API token or an app only
 * when it was named. A token made without scopes and an app naming none get the others.
 */
export const TOKEN_MANAGEMENT_SCOPE: Scope = 'tokens:manage';
export const grantedByDefault = (scopes: readonly Scope[]): Scope[] => scopes.filter((scope) => scope !== TOKEN_MANAGEMENT_SCOPE);

/** Who makes a request: the account, the client inside it (its own fence), and what it may do. */
export interface Caller {
  accountId: string;
  /** `web`, an OAuth client_id, or `api-token:<id>`: the key of the per-client fence. */
  clientId: string;
  kind: 'web' | 'oauth' | 'api-token';
  scopes: readonly Scope[];
  /** The refresh-token family of a web or OAuth session. */
  sessionId?: string;
  apiTokenId?: string;
  /** The `aud` of a bearer JWT (RFC 8707): which resource it was issued for. API tokens have none: they are for the REST API. */
  audience?: string;
}

export type AuthFailure = 'expired' | 'invalid';

declare module 'express-serve-static-core' {
  interface Request {
    caller?: Caller;
    authFailure?: AuthFailure;
    /** What the security handlers decided, so the error handler can render the right code. */
    securityOutcome?: { requiredScope?: string };
    /** A body-parsing error held back until the request has been counted by the rate limiter. */
    deferredError?: unknown;
    /** Set by express-openapi-validator when the request matched a documented operation. */
    openapi?: unknown;
  }
}
