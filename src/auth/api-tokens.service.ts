import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import { grantedByDefault, type Caller } from '../http/caller.js';
import { errors } from '../platform/errors.js';
import { parseScopes } from './access-tokens.js';
import type { ApiTokenRow, ApiTokensRepository } from './api-tokens.repository.js';
import { toApiToken } from './auth.presenter.js';
import { randomSecret, sha256Hex } from './secrets.js';

type Schemas = components['schemas'];
export type ApiToken = Schemas['ApiToken'];
export type ApiTokenCreated = Schemas['ApiTokenCreated'];

export const API_TOKEN_PREFIX = 'tsk_';
/** How many leading characters of the secret are kept in clear, to recognise a token in the list. */
const RECOGNISABLE_LENGTH = API_TOKEN_PREFIX.length + 8;
/** lastUsedAt is kept to the minute: an authenticated request writes at most once a minute per token. */
const LAST_USED_PRECISION_MS = 60_000;
const DAY_MS = 86_400_000;

export interface ApiTokens {
  create: (caller: Caller, request: Schemas['CreateApiTokenRequest']) => Promise<ApiTokenCreated>;
  list: (accountId: string) => Promise<ApiToken[]>;
  revoke: (accountId: string, tokenId: string) => Promise<void>;
  /** Revokes the tokens that live under an app's authorisation, when the account withdraws it. */
  revokeForOAuthClient: (accountId: string, clientId: string) => Promise<void>;
  /** The caller a `tsk_` secret stands for, or undefined when it is unknown, revoked or expired. */
  authenticate: (secret: string) => Promise<Caller | undefined>;
}

export function createApiTokens(repository: ApiTokensRepository, sessions: { isSessionLive: (familyId: string) => Promise<boolean> }): ApiTokens {
  /** Whether what the caller signed in with still stands: an app's session, or the API token it used. */
  const creatorStillLive = async (caller: Caller): Promise<boolean> => {
    if (caller.kind === 'oauth') return caller.sessionId !== undefined && (await sessions.isSessionLive(caller.sessionId));
    if (caller.kind === 'api-token') return caller.apiTokenId !== undefined && !(await repository.isRevoked(caller.apiTokenId));
    return true;
  };

  return {
    create: async (caller, request) => {
      const scopes = request.scopes ?? grantedByDefault(caller.scopes);
      // A token can only narrow what its creator holds, so an API token cannot mint a stronger one.
      const beyondCreator = scopes.find((scope) => !caller.scopes.includes(scope));
      if (beyondCreator) throw errors.insufficientScope(beyondCreator);
      const now = Date.now();
      const secret = `${API_TOKEN_PREFIX}${randomSecret(32)}`;
      const row: ApiTokenRow = {
        id: randomUUID(),
        account_id: caller.accountId,
        name: request.name,
        token_hash: sha256Hex(secret),
        prefix: secret.slice(0, RECOGNISABLE_LENGTH),
        scopes: scopes.join(' '),
        created_at: now,
        expires_at: request.expiresInDays === undefined ? null : now + request.expiresInDays * DAY_MS,
        last_used_at: null,
        revoked_at: null,
        oauth_client_id: await oauthClientBehind(caller, repository),
      };
      await repository.insert(row);
      // Withdrawing an app revokes its sessions first, then its API tokens. Checking the creator only
      // after the insert, a token minted during a withdrawal is revoked by one step or the other; and
      // an app's access token, valid until its exp, cannot mint a way back in after it.
      if (row.oauth_client_id !== null && !(await creatorStillLive(caller))) {
        await repository.revoke(caller.accountId, row.id, Date.now());
        throw errors.unauthenticated("This app's authorisation was withdrawn; sign in again.");
      }
      return { ...toApiToken(row), token: secret };
    },

    list: async (accountId) => (await repository.listForAccount(accountId)).map(toApiToken),

    revoke: async (accountId, tokenId) => {
      if (!(await repository.revoke(accountId, tokenId, Date.now()))) throw errors.notFound('API token');
    },

    revokeForOAuthClient: (accountId, clientId) => repository.revokeForOAuthClient(accountId, clientId, Date.now()),

    authenticate: async (secret) => {
      const now = Date.now();
      const token = await repository.findUsable(sha256Hex(secret), now);
      if (!token) return undefined;
      const staleBefore = now - LAST_USED_PRECISION_MS;
      if (token.last_used_at === null || token.last_used_at < staleBefore) await repository.touch(token.id, now, staleBefore);
      return {
        accountId: token.account_id,
        clientId: `api-token:${token.id}`,
        kind: 'api-token',
        scopes: parseScopes(token.scopes),
        apiTokenId: token.id,
      };
    },
  };
}

/**
 * The app a new token must not outlive. A token minted by an API token inherits that token's app, so
 * an app cannot escape its withdrawal through a chain of tokens; a web session is the person
 * themselves, and their own tokens survive withdrawing any app.
 */
async function oauthClientBehind(caller: Caller, repository: ApiTokensRepository): Promise<string | null> {
  if (caller.kind === 'oauth') return caller.clientId;
  if (caller.kind === 'api-token' && caller.apiTokenId !== undefined) return repository.oauthClientOf(caller.apiTokenId);
  return null;
}
