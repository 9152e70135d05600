import createClient, { type Client } from 'openapi-fetch';
import type { components, operations, paths } from './api.js';
import { deprecationWarnings } from './deprecation.js';
import { cookieRefresh, cookieRequest } from './cookie-refresh.js';
import { firstPartyRefresh } from './first-party-refresh.js';
import { createOAuthFlow, type AuthorizationParams, type ExchangeParams, type OAuthFlow, type OAuthOptions } from './oauth.js';
import type { TaskApiError } from './errors.js';
import { failure, settle, settleRead, succeeded, type NotModified, type ReadResult, type Result } from './result.js';
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

export type { NotModified, ReadResult, Result };

export interface TaskClientOptions extends Tokens {
  baseUrl: string;
  /**
   * Makes the client an OAuth app: tokens are refreshed at the discovered token endpoint (not
   * `/auth/refresh`), and `createAuthorization`/`exchangeCode` run the code flow with PKCE.
   */
  oauth?: OAuthOptions | undefined;
  /** Called with every token pair the client obtains (refresh, login, registration, code exchange): store them here. */
  onTokens?: ((tokens: IssuedTokens) => void) | undefined;
  /**
   * Opt-in: wait and retry on 429 (Retry-After, 60 s when absent) and on 503 with Retry-After, and
   * after a network error for idempotent requests; with jitter and a cap (see RetryOptions).
   */
  retry?: RetryOptions | boolean | undefined;
  /** Default for every call's `timeoutMs`. */
  timeoutMs?: number | undefined;
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * `'cookie'`: the first-party web app's session, for a page on the service's own origin. Sign-in
   * asks for it, the access token stays in memory only, and the refresh token is the service's
   * HttpOnly cookie (never seen by script): `resumeSession()` after a reload, `logout()` to end it.
   */
  session?: 'cookie' | undefined;
}

type SessionChoice = { session?: 'cookie' };

/** Every method's last argument. */
export interface CallOptions {
  /** Aborts the call (waits for a retry or a shared refresh included); it rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Gives up after this many milliseconds, retries and their waits included; it rejects with a TimeoutError. */
  timeoutMs?: number | undefined;
}

function callInit(call: CallOptions, defaultTimeoutMs: number | undefined): { signal?: AbortSignal } {
  const timeoutMs = call.timeoutMs ?? defaultTimeoutMs;
  const signals = [call.signal, timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs)].filter(
    (signal): signal is AbortSignal => signal !== undefined,
  );
  if (signals.length === 0) return {};
  return { signal: signals.length === 1 ? signals[0]! : AbortSignal.any(signals) };
}

/** A first-party sign-in's pair in the token mode: the refresh token comes in the body. */
type IssuedPair = Schemas['TokenPair'] & { refreshToken: string };

/** A typed client for the Task Service: one method per operation, results as `{ data } | { error }`. */
export function createTaskClient(options: TaskClientOptions & { session: 'cookie' }): CookieTaskClient;
export function createTaskClient(options: TaskClientOptions): TaskClient;
export function createTaskClient(options: TaskClientOptions): TaskClient | CookieTaskClient {
  return buildTaskClient(options);
}

function buildTaskClient(options: TaskClientOptions) {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const transport = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const retrying = options.retry ? withRetry(transport, options.retry === true ? {} : options.retry) : transport;
  // The OAuth flow keeps what it exchanges in the session, which refreshes through the flow: built in that order.
  const oauth = options.oauth ? createOAuthFlow(baseUrl, options.oauth, retrying, (issued) => tokens.adopt(issued)) : undefined;
  const cookie = options.session === 'cookie';
  if (cookie && options.oauth) throw new Error('A cookie session is the service\'s own sign-in: it does not combine with oauth.');
  const grant = cookie ? cookieRefresh(baseUrl, retrying) : (oauth?.refreshGrant ?? firstPartyRefresh(baseUrl, retrying));
  const tokens = new Session(baseUrl, options, options.onTokens, retrying, grant, cookie);
  /** What sign-in sends: the credentials, and in cookie mode the ask for a cookie session. */
  const signIn = <T extends object>(body: T): T => (cookie ? ({ ...body, session: 'cookie' } as T & SessionChoice) : body);
  const api: Client<paths> = createClient<paths>({ baseUrl, fetch: (request) => tokens.fetch(request) });
  api.use(deprecationWarnings);
  const init = (call: CallOptions = {}) => callInit(call, options.timeoutMs);
  const oauthFlow = (): OAuthFlow => {
    if (!oauth) throw new Error('createTaskClient({ oauth: { clientId } }) is needed for the OAuth code flow.');
    return oauth;
  };
  /** Keeps the pair a sign-in returned, as a browser keeps its session. */
  const keep = <T extends Schemas['TokenPair']>(result: Result<T>): Result<T & IssuedPair> => {
    if (result.data) tokens.adopt(result.data as IssuedTokens);
    return result as Result<T & IssuedPair>;
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
    createAuthorization: (params: AuthorizationParams, call?: CallOptions) => oauthFlow().createAuthorization(params, init(call).signal),
    /** OAuth: checks the callback (state, iss), exchanges its code, and keeps the tokens. */
    exchangeCode: (params: ExchangeParams, call?: CallOptions) => oauthFlow().exchangeCode(params, init(call).signal),

    /** Creates the account and keeps its tokens: the client is signed in as it. */
    registerAccount: async (body: Schemas['RegisterRequest'], call?: CallOptions) =>
      keep(await settle(api.POST('/auth/register', { body: signIn(body), ...init(call) }))),
    /** Signs in and keeps the tokens. */
    login: async (body: Schemas['LoginRequest'], call?: CallOptions) =>
      keep(await settle(api.POST('/auth/login', { body: signIn(body), ...init(call) }))),
    /**
     * Cookie sessions: after a page load, exchanges the session cookie (if any) for an access token.
     * `{ signedIn: true }`, `{ signedIn: false }` (no live session: sign in), or the refusal (a 429, a 5xx).
     */
    resumeSession: async (): Promise<{ signedIn: boolean; error?: TaskApiError }> => {
      if (!cookie) throw new Error("resumeSession() is for createTaskClient({ session: 'cookie' }).");
      const outcome = await tokens.resume();
      if (outcome.kind === 'failed') {
        const failed = await failure(new Response(outcome.body, { status: outcome.status, headers: outcome.headers }));
        return { signedIn: false, error: failed.error };
      }
      return { signedIn: outcome.kind === 'refreshed' };
    },
    /** An explicit refresh; when it spends the client's own refresh token, the client keeps the new pair. */
    refreshTokens: async (body: Schemas['RefreshRequest'], call?: CallOptions) => {
      const own = body.refreshToken === tokens.refreshToken;
      // A refresh token sent in the body comes back rotated in the body.
      const result = (await settle(api.POST('/auth/refresh', { body, ...init(call) }))) as Result<IssuedPair>;
      return own ? keep(result) : result;
    },
    /** Ends a session; ending the client's own forgets its tokens. In cookie mode, without a body, ends the cookie's session. */
    logout: async (body?: Schemas['RefreshRequest'], call?: CallOptions): Promise<Result<undefined>> => {
      if (!body) {
        if (!cookie) throw new Error("logout() without a refresh token is for createTaskClient({ session: 'cookie' }).");
        const response = await retrying(cookieRequest(`${baseUrl}/auth/logout`, init(call).signal));
        // The session is over here whatever the answer: a failed logout leaves a cookie that only refreshes.
        tokens.end();
        if (!response.ok) return failure(response);
        await response.body?.cancel();
        return succeeded(undefined, response);
      }
      const result = await settle(api.POST('/auth/logout', { body, ...init(call) }));
      if (!result.error && body.refreshToken === tokens.refreshToken) tokens.setTokens({});
      return result as Result<undefined>;
    },
    getMe: (call?: CallOptions) => settle(api.GET('/me', init(call))),
    /** Closes the account for good (a first-party session and the password); the client is signed out. */
    deleteAccount: async (body: Schemas['DeleteAccountRequest'], call?: CallOptions) => {
      const result = await settle(api.DELETE('/me', { body, ...init(call) }));
      if (!result.error) {
        if (cookie) tokens.end();
        else tokens.setTokens({});
      }
      return result;
    },
    getUsage: (call?: CallOptions) => settle(api.GET('/me/usage', init(call))),

    listApiTokens: (call?: CallOptions) => settle(api.GET('/api-tokens', init(call))),
    createApiToken: (body: Schemas['CreateApiTokenRequest'], call?: CallOptions) => settle(api.POST('/api-tokens', { body, ...init(call) })),
    revokeApiToken: (tokenId: string, call?: CallOptions) =>
      settle(api.DELETE('/api-tokens/{tokenId}', { params: { path: { tokenId } }, ...init(call) })),

    /** One page of tasks: `q`, `label`, `priority`, `dueAfter`, `dueBefore`, `hasDue` and `status` filter, `sort` orders (`taskMatches`, `compareTasks`). */
    listTasks: (query: Loose<Query<'listTasks'>> = {}, call?: CallOptions) =>
      settle(api.GET('/tasks', { params: { query: defined(query) }, ...init(call) })),
    /** The account's labels with how many open tasks carry each, the most used first. */
    listLabels: (call?: CallOptions) => settle(api.GET('/labels', init(call))),
    /** With an `idempotencyKey` a repeated create (and a retried one) makes one task. */
    createTask: (body: Schemas['TaskCreate'], call: CallOptions & { idempotencyKey?: string | undefined } = {}) =>
      settle(api.POST('/tasks', { body, params: { header: defined({ 'Idempotency-Key': call.idempotencyKey }) }, ...init(call) })),
    getTask: ((taskId: string, call: CallOptions & ConditionalRead = {}) =>
      settleRead(
        api.GET('/tasks/{taskId}', { params: { path: { taskId }, header: entityTagHeader('If-None-Match', call.ifNoneMatch) }, ...init(call) }),
      )) as GetTask,
    /** With `ifMatch` (an `etag`, or a task's `version`) the change applies only to that version: else 412 PRECONDITION_FAILED. */
    updateTask: (taskId: string, body: Schemas['TaskUpdate'], call: CallOptions & Conditional = {}) =>
      settle(api.PATCH('/tasks/{taskId}', { params: { path: { taskId }, header: entityTagHeader('If-Match', call.ifMatch) }, body, ...init(call) })),
    /** With `ifMatch` (an `etag`, or a task's `version`) only that version is deleted: else 412 PRECONDITION_FAILED. */
    deleteTask: (taskId: string, call: CallOptions & Conditional = {}) =>
      settle(api.DELETE('/tasks/{taskId}', { params: { path: { taskId }, header: entityTagHeader('If-Match', call.ifMatch) }, ...init(call) })),
    /** One page of the change feed: without `cursor` an initial sync, else the changes since that `nextCursor`. */
    listTaskChanges: (query: Loose<Query<'listTaskChanges'>> = {}, call?: CallOptions) =>
      settle(api.GET('/tasks/changes', { params: { query: defined(query) }, ...init(call) })),

    listConnectors: (call?: CallOptions) => settle(api.GET('/connectors', init(call))),
    connectAccount: (type: Schemas['ConnectorType'], body: Schemas['ConnectAccountRequest'], call?: CallOptions) =>
      settle(api.POST('/connectors/{type}/accounts', { params: { path: { type } }, body, ...init(call) })),
    listConnectorAccounts: (call?: CallOptions) => settle(api.GET('/connector-accounts', init(call))),
    getConnectorAccount: (accountId: string, call?: CallOptions) =>
      settle(api.GET('/connector-accounts/{accountId}', { params: { path: { accountId } }, ...init(call) })),
    disconnectAccount: (accountId: string, call?: CallOptions) =>
      settle(api.DELETE('/connector-accounts/{accountId}', { params: { path: { accountId } }, ...init(call) })),
    startSync: (accountId: string, call?: CallOptions) =>
      settle(api.POST('/connector-accounts/{accountId}/sync', { params: { path: { accountId } }, ...init(call) })),
    listSyncJobs: (accountId: string, call?: CallOptions) =>
      settle(api.GET('/connector-accounts/{accountId}/sync-jobs', { params: { path: { accountId } }, ...init(call) })),
    getSyncJob: (jobId: string, call?: CallOptions) =>
      settle(api.GET('/sync-jobs/{jobId}', { params: { path: { jobId } }, ...init(call) })),

    listWebhooks: (call?: CallOptions) => settle(api.GET('/webhooks', init(call))),
    /** The answer carries the signing secret, shown this once. */
    createWebhook: (body: Schemas['WebhookCreate'], call?: CallOptions) => settle(api.POST('/webhooks', { body, ...init(call) })),
    getWebhook: (webhookId: string, call?: CallOptions) =>
      settle(api.GET('/webhooks/{webhookId}', { params: { path: { webhookId } }, ...init(call) })),
    updateWebhook: (webhookId: string, body: Schemas['WebhookUpdate'], call?: CallOptions) =>
      settle(api.PATCH('/webhooks/{webhookId}', { params: { path: { webhookId } }, body, ...init(call) })),
    deleteWebhook: (webhookId: string, call?: CallOptions) =>
      settle(api.DELETE('/webhooks/{webhookId}', { params: { path: { webhookId } }, ...init(call) })),
    /** A new secret, shown this once; the old one signs beside it for 24 hours. */
    rotateWebhookSecret: (webhookId: string, call?: CallOptions) =>
      settle(api.POST('/webhooks/{webhookId}/secret', { params: { path: { webhookId } }, ...init(call) })),
    pingWebhook: (webhookId: string, call?: CallOptions) =>
      settle(api.POST('/webhooks/{webhookId}/ping', { params: { path: { webhookId } }, ...init(call) })),
    listWebhookDeliveries: (webhookId: string, query: Loose<Query<'listWebhookDeliveries'>> = {}, call?: CallOptions) =>
      settle(api.GET('/webhooks/{webhookId}/deliveries', { params: { path: { webhookId }, query: defined(query) }, ...init(call) })),
    redeliverWebhookDelivery: (webhookId: string, deliveryId: string, call?: CallOptions) =>
      settle(api.POST('/webhooks/{webhookId}/deliveries/{deliveryId}/redeliver', { params: { path: { webhookId, deliveryId } }, ...init(call) })),

    listAuthorizations: (call?: CallOptions) => settle(api.GET('/oauth/authorizations', init(call))),
    revokeAuthorization: (clientId: string, call?: CallOptions) =>
      settle(api.DELETE('/oauth/authorizations/{clientId}', { params: { path: { clientId } }, ...init(call) })),
    getAuthorizationServerMetadata: (call?: CallOptions) => settle(api.GET('/.well-known/oauth-authorization-server', init(call))),
    getProtectedResourceMetadata: (call?: CallOptions) => settle(api.GET('/.well-known/oauth-protected-resource', init(call))),
    getHealth: (call?: CallOptions) => settle(api.GET('/healthz', init(call))),
    getReadiness: (call?: CallOptions) => settle(api.GET('/readyz', init(call))),

    /**
     * Follows the change feed from `cursor` (from the start, an initial sync, without one) until
     * `hasMore` is false, one page at a time: apply each page's `changes`, then keep its `cursor`; the
     * last page's is the one to come back with. Throws TaskApiError if a page fails (410
     * CURSOR_EXPIRED: start again without a cursor).
     */
    async *followTaskChanges(
      cursor?: string,
      query: Omit<Loose<Query<'listTaskChanges'>>, 'cursor'> = {},
      call?: CallOptions,
    ): AsyncGenerator<{ changes: Schemas['TaskChange'][]; cursor: string }, string> {
      let at = cursor;
      for (;;) {
        const page = await client.listTaskChanges({ ...query, cursor: at }, call);
        if (page.error) throw page.error;
        at = page.data.nextCursor;
        yield { changes: page.data.changes, cursor: at };
        if (!page.data.hasMore) return at;
      }
    },

    /** Walks every page of `listTasks`; throws TaskApiError if a page fails. */
    async *listAllTasks(query: Omit<Loose<Query<'listTasks'>>, 'cursor'> = {}, call?: CallOptions): AsyncGenerator<Schemas['Task']> {
      let cursor: string | undefined;
      do {
        const page = await client.listTasks({ ...query, cursor }, call);
        if (page.error) throw page.error;
        yield* page.data.items;
        cursor = page.data.nextCursor ?? undefined;
      } while (cursor);
    },
  };
  return client;
}

export type TaskClient = ReturnType<typeof buildTaskClient>;

/** The client of `createTaskClient({ session: 'cookie' })`: sign-in answers carry no refresh token (it is the HttpOnly cookie). */
export type CookieTaskClient = Omit<TaskClient, 'login' | 'registerAccount' | 'refreshTokens' | 'refreshToken'> & {
  login: (body: Schemas['LoginRequest'], call?: CallOptions) => Promise<Result<Omit<Schemas['TokenPair'], 'refreshToken'>>>;
  registerAccount: (body: Schemas['RegisterRequest'], call?: CallOptions) => Promise<Result<Omit<Schemas['TokenPair'], 'refreshToken'>>>;
};

/**
 * One task. With `ifNoneMatch` (the `etag` of the copy held, or its `version`) a task still at that
 * version answers `{ notModified: true }` (a 304, no body: keep the copy); else the task, as without it.
 */
export interface GetTask {
  (taskId: string, call?: CallOptions & { ifNoneMatch?: undefined }): Promise<Result<Schemas['Task']>>;
  (taskId: string, call: CallOptions & ConditionalRead): Promise<ReadResult<Schemas['Task']>>;
}

/** A conditional read's option. */
export interface ConditionalRead {
  /** The `etag` of the copy the caller holds, as an answer gave it (`"3"`), or its `version` (3). */
  ifNoneMatch?: string | number | undefined;
}

/** A conditional write's option. */
export interface Conditional {
  /** The task's `etag` as an answer gave it (`"3"`), or its `version` (3). */
  ifMatch?: string | number | undefined;
}

/** An `etag` as given, or a `version` as the strong tag the server sends for it (`"3"`). */
function entityTagHeader<Name extends 'If-Match' | 'If-None-Match'>(name: Name, tag: string | number | undefined): { [N in Name]?: string } {
  if (tag === undefined) return {};
  return { [name]: typeof tag === 'number' ? `"${tag}"` : tag } as { [N in Name]?: string };
}
