import type { components } from './api.js';
import { codeChallengeS256, createCodeVerifier, randomToken } from './pkce.js';
import { failure, succeeded, type Result } from './result.js';
import { abortable, failedRefresh, type IssuedTokens, type RefreshAnswer, type RefreshGrant } from './session.js';

type Metadata = components['schemas']['AuthorizationServerMetadata'];
type TokenResponse = components['schemas']['OAuthTokenResponse'];

/** `createTaskClient({ oauth })`: the app is an OAuth client of the service (a public client, PKCE). */
export interface OAuthOptions {
  /** From `POST /oauth/register` (or `taskctl` for the built-in CLI client). */
  clientId: string;
  /** The authorisation server's issuer; the API's `baseUrl` when absent. */
  issuer?: string | undefined;
  /** RFC 8707 resource indicator, sent with the authorisation request and every token request. */
  resource?: string | undefined;
}

export interface AuthorizationParams {
  /** Exactly as registered; the callback comes back here. */
  redirectUri: string;
  /** Space-separated scopes; the client's registered scopes when absent. */
  scope?: string | undefined;
  resource?: string | undefined;
}

/** Send the user to `url`; keep `state` and `codeVerifier` (e.g. in sessionStorage) for `exchangeCode`. */
export interface AuthorizationRequest {
  url: string;
  state: string;
  codeVerifier: string;
}

export interface ExchangeParams {
  /** The URL the authorisation server redirected back to, with its query. */
  callbackUrl: string | URL;
  /** The `state` and `codeVerifier` that `createAuthorization` returned for this sign-in. */
  state: string;
  codeVerifier: string;
  /** The redirect URI of the authorisation request; the callback URL without its query when absent. */
  redirectUri?: string | undefined;
  resource?: string | undefined;
}

/** Why a sign-in callback or the server's metadata could not be trusted, or the user said no (`access_denied`). */
export class OAuthFlowError extends Error {
  constructor(
    /** `state_mismatch`, `issuer_mismatch`, `issuer_missing`, `invalid_callback`, `invalid_metadata`, or the callback's `error`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OAuthFlowError';
  }
}

type Send = (request: Request) => Promise<Response>;
type Discovery = { ok: true; metadata: Metadata } | { ok: false; response: Response };

/** The OAuth side of a client: discovery (cached), the code flow with PKCE, and the refresh grant. */
export function createOAuthFlow(baseUrl: string, options: OAuthOptions, send: Send, adopt: (tokens: IssuedTokens) => void) {
  const issuer = (options.issuer ?? baseUrl).replace(/\/+$/, '');
  let discovered: Promise<Discovery> | undefined;
  /** The resource the current tokens were issued for: a refresh asks for the same. */
  let resource = options.resource;
  const pending = new Map<string, { redirectUri: string; resource: string | undefined }>();

  const discover = async (): Promise<Discovery> => {
    const response = await send(new Request(metadataUrl(issuer), { headers: { accept: 'application/json' } }));
    if (!response.ok) return { ok: false, response };
    const metadata = (await response.json()) as Metadata;
    // RFC 8414 §3.3: metadata naming another issuer is not this server's.
    if (metadata.issuer !== issuer) throw new OAuthFlowError('invalid_metadata', `The metadata names issuer ${metadata.issuer}, not ${issuer}.`);
    return { ok: true, metadata };
  };
  const metadata = async (): Promise<Discovery> => {
    discovered ??= discover();
    const outcome = await discovered.catch((err: unknown) => {
      discovered = undefined;
      throw err;
    });
    // A failed look-up (503, 429) is not kept: the next call asks again.
    if (!outcome.ok && discovered) discovered = undefined;
    return outcome;
  };

  const tokenRequest = (endpoint: string, form: Record<string, string | undefined>, signal?: AbortSignal) =>
    send(
      new Request(endpoint, {
        method: 'POST',
        ...(signal ? { signal } : {}),
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body: new URLSearchParams(Object.entries(form).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      }),
    );

  const refreshGrant: RefreshGrant = async (refreshToken): Promise<RefreshAnswer> => {
    const found = await metadata();
    if (!found.ok) return failedRefresh(found.response);
    const response = await tokenRequest(found.metadata.token_endpoint, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: options.clientId,
      resource,
    });
    if (response.ok) return { kind: 'refreshed', tokens: issuedTokens((await response.json()) as TokenResponse) };
    // Only invalid_grant says the refresh token itself is dead; anything else may pass (429, 5xx, a misconfigured client).
    const answer = await failedRefresh(response);
    return response.status === 400 && oauthErrorCode(answer.kind === 'failed' ? answer.body : '') === 'invalid_grant'
      ? { kind: 'signed-out' }
      : answer;
  };

  return {
    refreshGrant,

    /** Starts a sign-in: the authorisation URL with a fresh PKCE verifier (S256) and state. */
    async createAuthorization(params: AuthorizationParams, signal?: AbortSignal): Promise<AuthorizationRequest> {
      const found = await abortable(metadata(), signal);
      if (!found.ok) throw (await failure(found.response)).error;
      const state = randomToken(24);
      const codeVerifier = createCodeVerifier();
      const url = new URL(found.metadata.authorization_endpoint);
      const query: Record<string, string | undefined> = {
        response_type: 'code',
        client_id: options.clientId,
        redirect_uri: params.redirectUri,
        code_challenge: await codeChallengeS256(codeVerifier),
        code_challenge_method: 'S256',
        state,
        scope: params.scope,
        resource: params.resource ?? options.resource,
      };
      for (const [name, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(name, value);
      pending.set(state, { redirectUri: params.redirectUri, resource: query.resource });
      return { url: url.toString(), state, codeVerifier };
    },

    /**
     * Finishes a sign-in: checks the callback's `state` and `iss` (RFC 9207), exchanges the code,
     * keeps the tokens and reports them through `onTokens`. A callback that fails a check, or
     * carries `error` (the user denied), throws OAuthFlowError; a refused exchange is a Result error.
     */
    async exchangeCode(params: ExchangeParams, signal?: AbortSignal): Promise<Result<IssuedTokens>> {
      const callback = new URL(params.callbackUrl);
      const query = callback.searchParams;
      if (query.get('state') !== params.state) throw new OAuthFlowError('state_mismatch', 'The callback does not carry the state of this sign-in.');
      const found = await abortable(metadata(), signal);
      if (!found.ok) return failure(found.response);
      const iss = query.get('iss');
      if (iss !== null && iss !== found.metadata.issuer) {
        throw new OAuthFlowError('issuer_mismatch', `The callback comes from issuer ${iss}, not ${found.metadata.issuer}.`);
      }
      if (iss === null && found.metadata.authorization_response_iss_parameter_supported) {
        throw new OAuthFlowError('issuer_missing', 'The callback carries no iss, though the server says it always sends one.');
      }
      const error = query.get('error');
      if (error !== null) throw new OAuthFlowError(error, query.get('error_description') ?? `The authorisation server answered ${error}.`);
      const code = query.get('code');
      if (!code) throw new OAuthFlowError('invalid_callback', 'The callback carries neither a code nor an error.');

      const started = pending.get(params.state);
      const requested = params.resource ?? started?.resource ?? options.resource;
      const response = await tokenRequest(found.metadata.token_endpoint, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: params.redirectUri ?? started?.redirectUri ?? `${callback.origin}${callback.pathname}`,
        client_id: options.clientId,
        code_verifier: params.codeVerifier,
        resource: requested,
      }, signal);
      if (!response.ok) return failure(response);
      pending.delete(params.state);
      const tokens = issuedTokens((await response.json()) as TokenResponse);
      resource = requested;
      adopt(tokens);
      return succeeded(tokens, response);
    },
  };
}

export type OAuthFlow = ReturnType<typeof createOAuthFlow>;

/** RFC 8414 §3.1: the well-known segment goes between the host and the issuer's path. */
function metadataUrl(issuer: string): string {
  const url = new URL(issuer);
  const path = url.pathname === '/' ? '' : url.pathname;
  return `${url.origin}/.well-known/oauth-authorization-server${path}`;
}

function issuedTokens(body: TokenResponse): IssuedTokens {
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    tokenType: body.token_type,
    expiresIn: body.expires_in,
    scope: body.scope,
  };
}

function oauthErrorCode(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : undefined;
  } catch {
    return undefined;
  }
}
