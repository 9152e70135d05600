import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './api.js';
import { firstPartyRefresh } from './first-party-refresh.js';
import { createOAuthFlow, type AuthorizationParams, type ExchangeParams, type OAuthFlow, type OAuthOptions } from './oauth.js';
import { settle, type Result } from './result.js';
import { withRetry, type RetryOptions } from './retry.js';
import { Session, type IssuedTokens, type Tokens } from './session.js';

type Schemas = components['schemas'];
type Query<Op extends keyof operations> = operations[Op]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;
/** Optional fields also take `undefined`, so callers under `exactOptionalPropertyTypes` can pass what they have. */
type Loose<T> = { [K in keyof T]: T[K] | undefined };

/** Drops the fields set to `undefined`: openapi-fetch would send them as the text "undefined". */
function defined<T extends object>(value: Loose<T>): T {
  return Object.fromEntries(Object.entries(value).filter((entry) => entry[1] !== undefined)) as T;
}

export type { Result };

export interface TaskClientOptions extends Tokens {
  baseUrl: string;
  /**
   * Makes the client an OAuth app: tokens are refreshed at the discovered token endpoint (not
   * `/auth/refresh`), and `createAuthorization`/`exchangeCode` run the code flow with PKCE.
   */
  oauth?: OAuthOptions | undefined;
  /** Called with every token pair the client obtains (refresh, login, registration, code exchange): store them here. */
  onTokens?: ((tokens: IssuedTokens) => void) | undefined;
  /** Opt-in: wait and retry on 429 (Retry-After, 60 s when absent, with jitter and a cap). */
  retry?: RetryOptions | boolean | undefined;
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

/** A typed client for the Task Service: one method per operation, results as `{ data } | { error }`. */
export function createTaskClient(options: TaskClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retrying = options.retry ? withRetry(transport, options.retry === true ? {} : options.retry) : transport;
  // The OAuth flow keeps what it exchanges in the session, which refreshes through the flow: built in that order.
  const oauth = options.oauth ? createOAuthFlow(baseUrl, options.oauth, retrying, (issued) => tokens.adopt(issued)) : undefined;
  const tokens = new Session(baseUrl, options, options.onTokens, retrying, oauth?.refreshGrant ?? firstPartyRefresh(baseUrl, retrying));
  const api: Client<paths> = createClient<paths>({ baseUrl, fetch: (request) => tokens.fetch(request) });
  const oauthFlow = (): OAuthFlow => {
    if (!oauth) throw new Error('createTaskClient({ oauth: { clientId } }) is needed for the OAuth code flow.');
    return oauth;
  };
  /** Keeps the pair a sign-in returned, as a browser keeps its session. */
  const keep = <T extends Schemas['TokenPair']>(result: Result<T>): Result<T> => {
    if (result.data) tokens.adopt(result.data);
    return result;
  };

  const client = {
    /** The underlying openapi-fetch client, for anything the methods below do not cover. */
    api,
    setTokens: (next: Tokens) => tokens.setTokens(next),
    get accessToken() {
      return tokens.accessToken;
    },
    get refreshToken() {
      return tokens.refreshToken;
    },

    /** OAuth: the URL to send the user to, with the state and PKCE verifier to keep until the callback. */
    createAuthorization: (params: AuthorizationParams) => oauthFlow().createAuthorization(params),
    /** OAuth: checks the callback (state, iss), exchanges its code, and keeps the tokens. */
    exchangeCode: (params: ExchangeParams) => oauthFlow().exchangeCode(params),

    /** Creates the account and keeps its tokens: the client is signed in as it. */
    registerAccount: async (body: Schemas['RegisterRequest']) => keep(await settle(api.POST('/auth/register', { body }))),
    /** Signs in and keeps the tokens. */
    login: async (body: Schemas['LoginRequest']) => keep(await settle(api.POST('/auth/login', { body }))),
    /** An explicit refresh; when it spends the client's own refresh token, the client keeps the new pair. */
    refreshTokens: async (body: Schemas['RefreshRequest']) => {
      const own = body.refreshToken === tokens.refreshToken;
      const result = await settle(api.POST('/auth/refresh', { body }));
      return own ? keep(result) : result;
    },
    /** Ends a session; ending the client's own forgets its tokens. */
    logout: async (body: Schemas['RefreshRequest']) => {
      const result = await settle(api.POST('/auth/logout', { body }));
      if (!result.error && body.refreshToken === tokens.refreshToken) tokens.setTokens({});
      return result;
    },
    getMe: () => settle(api.GET('/me')),
    getUsage: () => settle(api.GET('/me/usage')),

    listApiTokens: () => settle(api.GET('/api-tokens')),
    createApiToken: (body: Schemas['CreateApiTokenRequest']) => settle(api.POST('/api-tokens', { body })),
    revokeApiToken: (tokenId: string) => settle(api.DELETE('/api-tokens/{tokenId}', { params: { path: { tokenId } } })),

    listTasks: (query: Loose<Query<'listTasks'>> = {}) => settle(api.GET('/tasks', { params: { query: defined(query) } })),
    createTask: (body: Schemas['TaskCreate'], opts: { idempotencyKey?: string | undefined } = {}) =>
      settle(api.POST('/tasks', { body, params: { header: defined({ 'Idempotency-Key': opts.idempotencyKey }) } })),
    getTask: (taskId: string) => settle(api.GET('/tasks/{taskId}', { params: { path: { taskId } } })),
    updateTask: (taskId: string, body: Schemas['TaskUpdate']) =>
      settle(api.PATCH('/tasks/{taskId}', { params: { path: { taskId } }, body })),
    deleteTask: (taskId: string) => settle(api.DELETE('/tasks/{taskId}', { params: { path: { taskId } } })),

    listConnectors: () => settle(api.GET('/connectors')),
    connectAccount: (type: Schemas['ConnectorType'], body: Schemas['ConnectAccountRequest']) =>
      settle(api.POST('/connectors/{type}/accounts', { params: { path: { type } }, body })),
    listConnectorAccounts: () => settle(api.GET('/connector-accounts')),
    getConnectorAccount: (accountId: string) =>
      settle(api.GET('/connector-accounts/{accountId}', { params: { path: { accountId } } })),
    disconnectAccount: (accountId: string) =>
      settle(api.DELETE('/connector-accounts/{accountId}', { params: { path: { accountId } } })),
    startSync: (accountId: string) =>
      settle(api.POST('/connector-accounts/{accountId}/sync', { params: { path: { accountId } } })),
    listSyncJobs: (accountId: string) =>
      settle(api.GET('/connector-accounts/{accountId}/sync-jobs', { params: { path: { accountId } } })),
    getSyncJob: (jobId: string) => settle(api.GET('/sync-jobs/{jobId}', { params: { path: { jobId } } })),

    listAuthorizations: () => settle(api.GET('/oauth/authorizations')),
    revokeAuthorization: (clientId: string) =>
      settle(api.DELETE('/oauth/authorizations/{clientId}', { params: { path: { clientId } } })),
    getAuthorizationServerMetadata: () => settle(api.GET('/.well-known/oauth-authorization-server')),
    getProtectedResourceMetadata: () => settle(api.GET('/.well-known/oauth-protected-resource')),
    getHealth: () => settle(api.GET('/healthz')),
    getReadiness: () => settle(api.GET('/readyz')),

    /** Walks every page of `listTasks`; throws TaskApiError if a page fails. */
    async *listAllTasks(query: Omit<Loose<Query<'listTasks'>>, 'cursor'> = {}): AsyncGenerator<Schemas['Task']> {
      let cursor: string | undefined;
      do {
        const page = await client.listTasks({ ...query, cursor });
        if (page.error) throw page.error;
        yield* page.data.items;
        cursor = page.data.nextCursor ?? undefined;
      } while (cursor);
    },
  };
  return client;
}

export type TaskClient = ReturnType<typeof createTaskClient>;
