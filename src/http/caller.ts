import type { components } from '../../generated/api.js';
import { errors } from '../platform/errors.js';
import type { Identity } from './request-state.js';

export type Scope = components['schemas']['Scope'];
export const ALL_SCOPES: readonly Scope[] = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write', 'tokens:manage', 'webhooks:manage'];
/**
 * Managing API tokens and authorised apps, and webhooks (docs/webhooks.md): held by web sessions, and by
 * an API token or an app only when it was named. A token made without scopes and an app naming none get the others.
 */
const NAMED_ONLY: readonly Scope[] = ['tokens:manage', 'webhooks:manage'];
export const grantedByDefault = (scopes: readonly Scope[]): Scope[] => scopes.filter((scope) => !NAMED_ONLY.includes(scope));

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

/**
 * The caller's account as the identify step read it for this request (the check that a bearer JWT's
 * account still exists reads these columns): GET /me answers from it, and a poll of the change feed
 * that finds the number it knows (docs/change-feed.md), instead of reading the row again.
 */
export interface CallerAccount {
  id: string;
  email: string;
  name: string | null;
  createdAtMs: number;
  /** The number of the account's latest task change (0 before any). */
  lastTaskChange: number;
}

/**
 * The caller identified from the request's bearer token, or the 401 the request gets when an operation
 * needs one: `TOKEN_EXPIRED` for a genuine token past its exp, so the client knows to refresh.
 */
export function callerOf(identity: Identity | undefined): Caller {
  if (identity?.kind === 'caller') return identity.caller;
  throw identity?.kind === 'failure' && identity.failure === 'expired' ? errors.tokenExpired() : errors.unauthenticated();
}
