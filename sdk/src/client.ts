import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './api.js';
import { TaskApiError } from './errors.js';
import { withRetry, type RetryOptions } from './retry.js';
import { Session, type Tokens } from './session.js';

type Schemas = components['schemas'];
type Query<Op extends keyof operations> = operations[Op]['parameters'] extends { query?: infer Q } ? NonNullable<Q> : never;

export type Result<T> =
  | { data: T; error?: undefined; response: Response }
  | { data?: undefined; error: TaskApiError; response: Response };

export interface TaskClientOptions extends Tokens {
  baseUrl: string;
  /** Called with every new token pair the client obtains by refreshing. */
  onTokens?: (tokens: Schemas['TokenPair']) => void;
  /** Opt-in: wait and retry on 429 (Retry-After, 60 s when absent, with jitter and a cap). */
  retry?: RetryOptions | boolean;
  fetch?: (request: Request) => Promise<Response>;
}

async function settle<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Result<T>> {
  const { data, error, response } = await call;
  if (response.ok) return { data: data as T, response };
  return { error: new TaskApiError(response.status, error, response.headers), response };
}

/** A typed client for the Task Service: one method per operation, results as `{ data } | { error }`. */
export function createTaskClient(options: TaskClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retrying = options.retry ? withRetry(transport, options.retry === true ? {} : options.retry) : transport;
  const session = new Session(baseUrl, options, options.onTokens, retrying);
  const api: Client<paths> = createClient<paths>({ baseUrl, fetch: (request) => session.fetch(request) });

  const client = {
    /** The underlying openapi-fetch client, for anything the methods below do not cover. */
    api,
    setTokens: (tokens: Tokens) => session.setTokens(tokens),
    get accessToken() {
      return session.accessToken;
    },

    registerAccount: (body: Schemas['RegisterRequest']) => settle(api.POST('/auth/register', { body })),
    login: (body: Schemas['LoginRequest']) => settle(api.POST('/auth/login', { body })),
    refreshTokens: (body: Schemas['RefreshRequest']) => settle(api.POST('/auth/refresh', { body })),
    logout: (body: Schemas['RefreshRequest']) => settle(api.POST('/auth/logout', { body })),
    getMe: () => settle(api.GET('/me')),
    getUsage: () => settle(api.GET('/me/usage')),

    listApiTokens: () => settle(api.GET('/api-tokens')),
    createApiToken: (body: Schemas['CreateApiTokenRequest']) => settle(api.POST('/api-tokens', { body })),
    revokeApiToken: (tokenId: string) => settle(api.DELETE('/api-tokens/{tokenId}', { params: { path: { tokenId } } })),

    listTasks: (query: Query<'listTasks'> = {}) => settle(api.GET('/tasks', { params: { query } })),
    createTask: (body: Schemas['TaskCreate'], opts: { idempotencyKey?: string } = {}) =>
      settle(api.POST('/tasks', { body, params: { header: { 'Idempotency-Key': opts.idempotencyKey } } })),
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
    async *listAllTasks(query: Omit<Query<'listTasks'>, 'cursor'> = {}): AsyncGenerator<Schemas['Task']> {
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
