import { randomUUID } from 'node:crypto';
import OAuth2Server from '@node-oauth/oauth2-server';
import type { components } from '../../generated/api.js';
import { parseScopes, randomSecret, sha256Hex, type AccessTokens, type TokenPair, type TokenPairs } from '../auth/auth.component.js';
import type { Scope } from '../http/caller.js';
import { AppError } from '../platform/errors.js';
import type { AuthorizationCodesRepository } from './authorization-codes.repository.js';
import type { AuthorizationRequest } from './authorization-request.js';
import type { OAuthClient } from './clients.service.js';
import { matchesRegisteredRedirectUri } from './redirect-uris.js';
import { INVALID_TARGET_DESCRIPTION, resolveResource } from './resources.js';
import { resolveScopes, splitScope } from './scopes.js';
import { GRANTS, precheckTokenRequest, type TokenRefusal } from './token-request.js';

/*
 * The one file that knows @node-oauth/oauth2-server. The library parses token requests, finds the
 * client, runs the authorization_code grant against our model (code lookup, expiry, one-time use,
 * PKCE check, redirect_uri check) and issues codes for consented requests. Where it leaves open what
 * our rules close, we close it here:
 * - PKCE is optional in the library (it checks a verifier only when the code has a challenge): the
 *   authorisation endpoint refuses requests without an S256 challenge, codes without one are never
 *   handed to the library, and a token request without `code_verifier` is refused before any lookup.
 * - Its refresh_token grant reads the token, revokes it and saves a successor in three separate
 *   model calls: a reuse detected between them would miss the successor. Our grant below hands the
 *   whole rotation to the auth component's TokenPairs.rotate (claim and successor in one transaction,
 *   reuse revokes the family), the same rotation /auth/refresh uses.
 * - Its built-in password and client_credentials grants would answer `unauthorized_client`: we
 *   answer `unsupported_grant_type` for every grant but ours before the library sees the request.
 * - Its error messages are not ours to show: errors it raises get our own descriptions, and its
 *   server errors go to the application's error handler (500 or 503 in the common body).
 * - A replayed code must revoke what it issued, even when the replay races the first redemption:
 *   the replay marks the code revoked before revoking its family, and the redemption checks the mark
 *   after saving its tokens (one of the two always sees the other).
 */

const { Request, Response, AbstractGrantType, OAuthError, InvalidGrantError, InvalidScopeError } = OAuth2Server;

type Schemas = components['schemas'];
export type OAuthTokenResponse = Schemas['OAuthTokenResponse'];
export type TokenOutcome = { ok: true; body: OAuthTokenResponse } | TokenRefusal;

export interface IncomingTokenRequest {
  headers: Record<string, string | string[] | undefined>;
  method: string;
  body: Record<string, string | undefined>;
  /** The issuer's base URL, against which an RFC 8707 `resource` is resolved. */
  baseUrl: string;
}

export interface OAuthLibraryAdapter {
  /** Runs POST /oauth/token: tokens, or an RFC 6749 §5.2 error. Unexpected failures are thrown. */
  token: (request: IncomingTokenRequest) => Promise<TokenOutcome>;
  /** Issues a one-time code for a checked request the account consented to. */
  issueCode: (request: AuthorizationRequest, accountId: string) => Promise<string>;
}

export interface AdapterDeps {
  findClient: (clientId: string) => Promise<OAuthClient | undefined>;
  codes: AuthorizationCodesRepository;
  tokenPairs: TokenPairs;
  accessTokens: AccessTokens;
  refreshLifetimeSeconds: number;
}

export const CODE_LIFETIME_SECONDS = 60;

/** What the library carries as `user` between our model calls. */
interface GrantUser {
  id: string;
  familyId?: string;
  codeHash?: string;
  /** RFC 8707: the MCP server's URL when the grant is for it; null or absent for the REST API. */
  resource?: string | null;
}
type LibraryClient = OAuth2Server.Client & { scopes: readonly Scope[] };

export function createOAuthLibraryAdapter(deps: AdapterDeps): OAuthLibraryAdapter {
  const { findClient, codes, tokenPairs, accessTokens, refreshLifetimeSeconds } = deps;

  const replayed = async (codeHash: string, familyId: string) => {
    await codes.markRevoked(codeHash, Date.now());
    await tokenPairs.revokeFamily(familyId);
  };

  const model: OAuth2Server.AuthorizationCodeModel = {
    getClient: async (clientId, clientSecret) => {
      // Public clients only: a secret we never issued cannot be right.
      if (clientSecret) return undefined;
      const client = await findClient(clientId);
      return client && ({ id: client.id, grants: GRANTS, redirectUris: [...client.redirectUris], scopes: client.scopes } satisfies LibraryClient);
    },

    validateRedirectUri: async (redirectUri, client) => matchesRegisteredRedirectUri(redirectUri, (client as LibraryClient).redirectUris as string[]),

    validateScope: async (_user, client, scope) => {
      const resolved = resolveScopes(scope?.join(' '), (client as LibraryClient).scopes);
      return resolved.ok && resolved.scopes.length > 0 ? resolved.scopes : false;
    },

    generateAuthorizationCode: async () => randomSecret(32),

    saveAuthorizationCode: async (code, client, user) => {
      if (!code.codeChallenge || code.codeChallengeMethod !== 'S256') throw new Error('refusing to store a code without an S256 challenge');
      const now = Date.now();
      await codes.insert({
        code_hash: sha256Hex(code.authorizationCode),
        client_id: client.id,
        account_id: (user as GrantUser).id,
        redirect_uri: code.redirectUri,
        scope: (code.scope ?? []).join(' '),
        code_challenge: code.codeChallenge,
        family_id: randomUUID(),
        created_at: now,
        expires_at: code.expiresAt.getTime(),
        used_at: null,
        revoked_at: null,
        resource: (user as GrantUser).resource ?? null,
      });
      return { ...code, client, user };
    },

    getAuthorizationCode: async (code) => {
      const codeHash = sha256Hex(code);
      const row = await codes.find(codeHash);
      if (!row) return undefined;
      if (row.used_at !== null) {
        await replayed(codeHash, row.family_id);
        return undefined;
      }
      if (row.revoked_at !== null || !row.code_challenge) return undefined;
      const user: GrantUser = { id: row.account_id, familyId: row.family_id, codeHash, resource: row.resource };
      return {
        authorizationCode: code,
        expiresAt: new Date(Number(row.expires_at)),
        redirectUri: row.redirect_uri,
        scope: parseScopes(row.scope),
        client: { id: row.client_id, grants: GRANTS },
        user,
        codeChallenge: row.code_challenge,
        codeChallengeMethod: 'S256',
      };
    },

    revokeAuthorizationCode: async (code) => {
      const { codeHash, familyId } = code.user as GrantUser;
      const claimed = await codes.claim(codeHash!, Date.now());
      // Lost to a parallel redemption of the same code: that is a replay too.
      if (!claimed) await replayed(codeHash!, familyId!);
      return claimed;
    },

    saveToken: async (token, client, user) => {
      const { id: accountId, familyId, codeHash, resource } = user as GrantUser;
      const scopes = (token.scope ?? []) as Scope[];
      const pair = await tokenPairs.issue({ accountId, clientId: client.id, scopes, ...(resource ? { audience: resource } : {}) }, { familyId });
      if (await codes.isRevoked(codeHash!)) {
        await tokenPairs.revokeFamily(familyId!);
        throw ours(InvalidGrantError, 'The authorization code was used more than once; every token it issued is revoked.');
      }
      return grantResult(pair, scopes, client, user);
    },

    // Bearer tokens are checked by identifyCaller (our JWTs), never by the library's authenticate().
    getAccessToken: async () => undefined,
  };

  const grantResult = (pair: TokenPair, scopes: readonly Scope[], client: OAuth2Server.Client, user: OAuth2Server.User): OAuth2Server.Token => ({
    accessToken: pair.accessToken,
    accessTokenExpiresAt: new Date(Date.now() + pair.expiresIn * 1000),
    refreshToken: pair.refreshToken,
    refreshTokenExpiresAt: new Date(Date.now() + pair.refreshExpiresIn * 1000),
    scope: [...scopes],
    client,
    user,
  });

  class RotatingRefreshTokenGrant extends AbstractGrantType {
    async handle(request: OAuth2Server.Request, client: OAuth2Server.Client): Promise<OAuth2Server.Token> {
      const refreshToken = String(request.body.refresh_token);
      const accessScopes = await requestedRefreshScopes(refreshToken, client.id, request.body.scope as string | undefined);
      let pair: TokenPair;
      try {
        pair = await tokenPairs.rotate(refreshToken, client.id, accessScopes);
      } catch (err) {
        if (err instanceof AppError && err.code === 'REFRESH_TOKEN_REUSED') {
          throw ours(InvalidGrantError, 'This refresh token was already used; every token of this grant is revoked. Authorise again.');
        }
        if (err instanceof AppError && err.code === 'INVALID_REFRESH_TOKEN') {
          throw ours(InvalidGrantError, 'The refresh token is unknown, expired, revoked, or was issued to another client.');
        }
        throw err;
      }
      const caller = accessTokens.readIgnoringExpiry(pair.accessToken)!;
      return grantResult(pair, caller.scopes, client, { id: caller.accountId });
    }
  }

  /** RFC 6749 §6: a refresh may narrow the access token's scope, never widen it (nothing rotates when refused). */
  const requestedRefreshScopes = async (refreshToken: string, clientId: string, scope: string | undefined) => {
    const names = splitScope(scope);
    if (names.length === 0) return undefined;
    const session = await tokenPairs.sessionOf(refreshToken);
    // Unknown tokens and other clients' tokens fail in the rotation itself, with the same answer as always.
    if (!session || session.clientId !== clientId) return undefined;
    const granted = resolveScopes(names.join(' '), session.scopes);
    if (!granted.ok) throw ours(InvalidScopeError, `The grant does not include: ${[...granted.unknown, ...granted.beyond].join(' ')}.`);
    return granted.scopes;
  };

  /**
   * RFC 8707 §2.2: a `resource` on the token request must be the one the grant is for (a grant is bound to
   * one resource); checked before the library runs, so a refused request uses up no code and rotates nothing.
   */
  const wrongTarget = async (body: Record<string, string | undefined>, baseUrl: string): Promise<TokenRefusal | undefined> => {
    if (body.resource === undefined) return undefined;
    const requested = resolveResource(body.resource, baseUrl);
    const refusal: TokenRefusal = { ok: false, status: 400, body: { error: 'invalid_target', error_description: INVALID_TARGET_DESCRIPTION } };
    if (!requested.ok) return refusal;
    let granted: string | null | undefined;
    if (body.grant_type === 'authorization_code' && body.code) granted = (await codes.find(sha256Hex(body.code)))?.resource;
    if (body.grant_type === 'refresh_token' && body.refresh_token) {
      const session = await tokenPairs.sessionOf(body.refresh_token);
      granted = session && (session.audience ?? null);
    }
    // Unknown codes and tokens fail in the grant itself, with the answer they always had.
    return granted !== undefined && granted !== requested.audience ? refusal : undefined;
  };

  /** The library refuses a code presented by another client without touching it: it is used up here, as any failed exchange. */
  const useUpCodeOfAnotherClient = async (body: Record<string, unknown>) => {
    if (body.grant_type !== 'authorization_code' || typeof body.code !== 'string' || typeof body.client_id !== 'string') return;
    const codeHash = sha256Hex(body.code);
    const row = await codes.find(codeHash);
    if (row && row.client_id !== body.client_id) await codes.claim(codeHash, Date.now());
  };

  const server = new OAuth2Server({ model });
  const tokenOptions = {
    accessTokenLifetime: accessTokens.lifetimeSeconds,
    refreshTokenLifetime: refreshLifetimeSeconds,
    requireClientAuthentication: { authorization_code: false, refresh_token: false },
    extendedGrantTypes: { refresh_token: RotatingRefreshTokenGrant },
  };

  return {
    token: async ({ headers, method, body, baseUrl }) => {
      const refused = precheckTokenRequest(body, headers.authorization !== undefined) ?? (await wrongTarget(body, baseUrl));
      if (refused) return refused;
      const request = new Request({ headers: headers as Record<string, string>, method, query: {}, body });
      try {
        const token = await server.token(request, new Response(), tokenOptions);
        return {
          ok: true,
          body: {
            access_token: token.accessToken,
            token_type: 'Bearer',
            expires_in: accessTokens.lifetimeSeconds,
            refresh_token: token.refreshToken!,
            scope: (token.scope ?? []).join(' '),
          },
        };
      } catch (err) {
        await useUpCodeOfAnotherClient(body);
        return protocolError(err);
      }
    },

    issueCode: async (authorization, accountId) => {
      const request = new Request({
        headers: {},
        method: 'POST',
        query: {},
        body: {
          response_type: 'code',
          client_id: authorization.client.id,
          redirect_uri: authorization.redirectUri,
          code_challenge: authorization.codeChallenge,
          code_challenge_method: 'S256',
          state: authorization.state,
          scope: authorization.scopes.join(' '),
        },
      });
      try {
        const code = await server.authorize(request, new Response(), {
          authenticateHandler: { handle: () => ({ id: accountId, resource: authorization.resource }) satisfies GrantUser },
          allowEmptyState: true,
          authorizationCodeLifetime: CODE_LIFETIME_SECONDS,
        });
        return code.authorizationCode;
      } catch (err) {
        // The request was checked before: anything the library refuses now is our fault, not the client's.
        throw innerError(err);
      }
    },
  };
}

/** Our descriptions of the library's refusals: its own messages name its internals. */
const DESCRIPTIONS: Record<string, string> = {
  invalid_request: 'The request is malformed or its redirect_uri does not match the authorisation request.',
  invalid_client: 'Unknown client, or a client secret was sent: clients here are public and send only client_id.',
  invalid_grant: 'The authorization code is invalid, expired, already used or issued to another client, or the code_verifier does not match.',
  invalid_scope: 'The requested scope is not part of the grant.',
  unauthorized_client: 'This client may not use this grant type.',
  unsupported_grant_type: 'Only the authorization_code, refresh_token and urn:ietf:params:oauth:grant-type:device_code grants are supported.',
};

function protocolError(err: unknown): TokenOutcome {
  if (!(err instanceof OAuthError) || err.name === 'server_error' || !(err.name in DESCRIPTIONS)) throw innerError(err);
  const description = (err as { ours?: boolean }).ours ? err.message : DESCRIPTIONS[err.name]!;
  return { ok: false, status: err.name === 'invalid_client' ? 401 : 400, body: { error: err.name, error_description: description } };
}

/** The error the library wrapped (a database outage stays recognisable to the error handler). */
function innerError(err: unknown): unknown {
  const inner = (err as { inner?: unknown } | null)?.inner;
  return inner ?? err;
}

function ours(ErrorType: typeof InvalidGrantError | typeof InvalidScopeError, description: string): Error {
  return new ErrorType(description, { ours: true });
}
