import type { components } from '../../generated/api.js';
import type { ApiTokens, TokenPairs } from '../auth/auth.component.js';
import type { Caller } from '../http/caller.js';
import { errors } from '../platform/errors.js';
import type { AuthorizationCodesRepository } from './authorization-codes.repository.js';
import type { AuthorizationsRepository } from './authorizations.repository.js';
import type { Clients } from './clients.service.js';
import { toAuthorization } from './oauth.presenter.js';

type AuthorizationList = components['schemas']['AuthorizationList'];

/** The apps an account has authorised, and withdrawing an app's authorisation. */
export interface Authorizations {
  list: (caller: Caller) => Promise<AuthorizationList>;
  /** Revokes every token the app holds for the account; 404 when it holds no authorisation. */
  revoke: (caller: Caller, clientId: string) => Promise<void>;
}

export function createAuthorizations(deps: {
  repository: AuthorizationsRepository;
  codes: AuthorizationCodesRepository;
  tokenPairs: TokenPairs;
  apiTokens: Pick<ApiTokens, 'revokeForOAuthClient'>;
  clients: Clients;
  /** The device grant's approved codes (RFC 8628), withdrawn like authorisation codes. */
  deviceCodes?: { withdraw: (accountId: string, clientId: string) => Promise<void> };
  /** What else the app made goes with it (its webhooks). */
  onWithdrawn?: (accountId: string, clientId: string) => Promise<unknown>;
}): Authorizations {
  const { repository, codes, tokenPairs, apiTokens, clients, deviceCodes, onWithdrawn } = deps;
  // The account's own sessions and API tokens manage every app; an app manages only itself.
  const visibleTo = (caller: Caller, clientId: string) => caller.kind !== 'oauth' || caller.clientId === clientId;

  return {
    list: async (caller) => {
      const summaries = await repository.list(caller.accountId, caller.kind === 'oauth' ? caller.clientId : undefined);
      const names = await clients.names(summaries.map((summary) => summary.clientId));
      return { items: summaries.map((summary) => toAuthorization(summary, names.get(summary.clientId))) };
    },

    revoke: async (caller, clientId) => {
      if (!visibleTo(caller, clientId) || !(await repository.remove(caller.accountId, clientId))) throw errors.notFound('Authorisation');
      // Codes first: a redemption in flight then sees the mark and revokes what it issues itself.
      await codes.revokeAccountClient(caller.accountId, clientId, Date.now());
      await deviceCodes?.withdraw(caller.accountId, clientId);
      await tokenPairs.revokeClientSessions(caller.accountId, clientId);
      await apiTokens.revokeForOAuthClient(caller.accountId, clientId);
      await onWithdrawn?.(caller.accountId, clientId);
    },
  };
}
