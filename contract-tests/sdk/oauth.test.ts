import { createHash } from 'node:crypto';
import { OAuthFlowError, type IssuedTokens, type TaskClientOptions } from '@task-service/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd } from '../support/limits.js';
import { APP_REDIRECT, readPage, registeredApp } from '../support/oauth.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy.js';
import { PASSWORD, signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

// Access tokens live 2 s (exp rounded up to the next whole second): waiting longer expires them.
const PAST_EXPIRY_MS = 3_200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: TestServer;
let proxy: FaultProxy;
let clientId: string;
beforeAll(async () => {
  server = await startServer({ env: { JWT_ACCESS_EXPIRES: '2' } });
  // Every SDK call goes through a transparent loopback proxy that can fail on cue (503, dropped connection).
  proxy = await startFaultProxy(() => server.port);
  clientId = await registeredApp(server);
});
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

interface Sent {
  method: string;
  path: string;
  contentType: string | null;
  form: Record<string, string>;
}

/** An OAuth app's SDK client (through the proxy) that records what it sends and the tokens it reports. */
function oauthApp(options: Partial<TaskClientOptions> = {}) {
  const sent: Sent[] = [];
  const reported: IssuedTokens[] = [];
  const client = server.client({
    baseUrl: proxy.baseUrl,
    oauth: { clientId },
    onTokens: (tokens) => reported.push(tokens),
    fetch: async (request) => {
      const body = request.method === 'POST' ? await request.clone().text() : '';
      const contentType = request.headers.get('content-type');
      const form = contentType?.startsWith('application/x-www-form-urlencoded') ? Object.fromEntries(new URLSearchParams(body)) : {};
      sent.push({ method: request.method, path: new URL(request.url).pathname, contentType, form });
      return globalThis.fetch(request);
    },
    ...options,
  });
  const tokenRequests = () => sent.filter((request) => request.path === '/oauth/token');
  return { client, sent, reported, tokenRequests };
}

/** What a browser does between the two helpers: opens the page, signs in, allows; returns the callback URL. */
async function consent(authorizationUrl: string, email: string): Promise<string> {
  const page = await readPage(await fetch(authorizationUrl, { redirect: 'manual' }));
  expect(page.response.status).toBe(200);
  const answer = await fetch(`${new URL(authorizationUrl).origin}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(page.cookie ? { cookie: page.cookie } : {}) },
    body: new URLSearchParams({ ...page.fields, email, password: PASSWORD, decision: 'allow' }),
  });
  expect(answer.status).toBe(303);
  return answer.headers.get('location')!;
}

/** A signed-in OAuth app: the code flow through the SDK helpers. */
async function signedInApp(options: Partial<TaskClientOptions> = {}, authorization: { scope?: string; resource?: string } = {}) {
  const app = oauthApp(options);
  const { email } = await signedInClient(server);
  const started = await app.client.createAuthorization({ redirectUri: APP_REDIRECT, scope: 'tasks:read tasks:write', ...authorization });
  const callbackUrl = await consent(started.url, email);
  const exchanged = await app.client.exchangeCode({ callbackUrl, state: started.state, codeVerifier: started.codeVerifier });
  expect(exchanged.error).toBeUndefined();
  return { ...app, email, started, tokens: dataOf(exchanged) };
}

describe('the SDK as an OAuth client: the code flow', () => {
  it('createAuthorization builds a PKCE S256 request from the discovered endpoint; exchangeCode checks the callback, keeps and reports the tokens', async () => {
    const app = oauthApp();
    const { email } = await signedInClient(server);

    const started = await app.client.createAuthorization({ redirectUri: APP_REDIRECT, scope: 'tasks:read' });

    const url = new URL(started.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${proxy.baseUrl}/oauth/authorize`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: APP_REDIRECT,
      code_challenge: createHash('sha256').update(started.codeVerifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: started.state,
      scope: 'tasks:read',
    });
    expect(started.codeVerifier).toMatch(/^[\w-]{43,128}$/);
    expect(started.state).toMatch(/^[\w-]{32}$/);

    const callbackUrl = await consent(started.url, email);
    expect(new URL(callbackUrl).searchParams.get('iss')).toBe(proxy.baseUrl);
    const exchanged = await app.client.exchangeCode({ callbackUrl, state: started.state, codeVerifier: started.codeVerifier });

    expect(exchanged.data).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String), tokenType: 'Bearer', expiresIn: 2, scope: 'tasks:read' });
    expect(app.reported).toEqual([exchanged.data]);
    expect(app.client.accessToken).toBe(dataOf(exchanged).accessToken);
    expect(app.tokenRequests()).toEqual([
      {
        method: 'POST',
        path: '/oauth/token',
        contentType: 'application/x-www-form-urlencoded',
        form: { grant_type: 'authorization_code', code: expect.any(String), redirect_uri: APP_REDIRECT, client_id: clientId, code_verifier: started.codeVerifier },
      },
    ]);
    expect((await app.client.getMe()).data?.email).toBe(email);
    // Discovery is asked once per client, however many helpers use it.
    expect(app.sent.filter((request) => request.path === '/.well-known/oauth-authorization-server')).toHaveLength(1);
  });

  it('exchangeCode refuses a callback with another state, another issuer, or no iss where the server promises one', async () => {
    const app = oauthApp();
    const { email } = await signedInClient(server);
    const started = await app.client.createAuthorization({ redirectUri: APP_REDIRECT });
    const callbackUrl = new URL(await consent(started.url, email));
    const variant = (change: (query: URLSearchParams) => void) => {
      const copy = new URL(callbackUrl);
      change(copy.searchParams);
      return copy;
    };
    const refused = async (url: URL, state = started.state) => {
      const error = await app.client.exchangeCode({ callbackUrl: url, state, codeVerifier: started.codeVerifier }).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(OAuthFlowError);
      return (error as OAuthFlowError).code;
    };

    expect(await refused(callbackUrl, 'another-state')).toBe('state_mismatch');
    expect(await refused(variant((query) => query.set('iss', 'https://evil.example.com')))).toBe('issuer_mismatch');
    expect(await refused(variant((query) => query.delete('iss')))).toBe('issuer_missing');
    expect(app.tokenRequests()).toEqual([]);
    // The real callback still works: nothing was spent by the refusals.
    const exchanged = await app.client.exchangeCode({ callbackUrl, state: started.state, codeVerifier: started.codeVerifier });
    expect(exchanged.data?.accessToken).toEqual(expect.any(String));
  });

  it('accepts a callback without iss from a server whose metadata does not promise one, and still refuses a wrong one', async () => {
    proxy.setRewrite((path, body) => {
      if (path !== '/.well-known/oauth-authorization-server') return body;
      const { authorization_response_iss_parameter_supported: _dropped, ...older } = body;
      return older;
    });
    try {
      const app = oauthApp();
      const { email } = await signedInClient(server);
      const started = await app.client.createAuthorization({ redirectUri: APP_REDIRECT });
      const callbackUrl = new URL(await consent(started.url, email));
      const wrong = new URL(callbackUrl);
      wrong.searchParams.set('iss', 'https://evil.example.com');
      await expect(app.client.exchangeCode({ callbackUrl: wrong, state: started.state, codeVerifier: started.codeVerifier })).rejects.toMatchObject({
        code: 'issuer_mismatch',
      });
      callbackUrl.searchParams.delete('iss');
      const exchanged = await app.client.exchangeCode({ callbackUrl, state: started.state, codeVerifier: started.codeVerifier });
      expect(exchanged.data?.accessToken).toEqual(expect.any(String));
    } finally {
      proxy.setRewrite(undefined);
    }
  });

  it('a denied consent comes back as OAuthFlowError access_denied; a replayed code as a Result error, not an exception', async () => {
    const app = oauthApp();
    const { email } = await signedInClient(server);
    const started = await app.client.createAuthorization({ redirectUri: APP_REDIRECT });
    const page = await readPage(await fetch(started.url, { redirect: 'manual' }));
    const denied = await fetch(`${proxy.baseUrl}/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(page.cookie ? { cookie: page.cookie } : {}) },
      body: new URLSearchParams({ ...page.fields, email, password: PASSWORD, decision: 'deny' }),
    });
    await expect(
      app.client.exchangeCode({ callbackUrl: denied.headers.get('location')!, state: started.state, codeVerifier: started.codeVerifier }),
    ).rejects.toMatchObject({ name: 'OAuthFlowError', code: 'access_denied' });

    const again = await app.client.createAuthorization({ redirectUri: APP_REDIRECT });
    const callbackUrl = await consent(again.url, email);
    expect((await app.client.exchangeCode({ callbackUrl, state: again.state, codeVerifier: again.codeVerifier })).error).toBeUndefined();
    const replayed = await app.client.exchangeCode({ callbackUrl, state: again.state, codeVerifier: again.codeVerifier });
    expect(replayed.error).toMatchObject({ status: 400, oauthError: 'invalid_grant' });
  });
});

describe('the SDK as an OAuth client: refresh (JWT_ACCESS_EXPIRES=2)', () => {
  it('when the access token expires, parallel calls share one refresh at /oauth/token (form-encoded, rotated, reported) and succeed', async () => {
    const app = await signedInApp();
    const first = app.tokens;
    await sleep(PAST_EXPIRY_MS);

    const results = await Promise.all(Array.from({ length: 5 }, () => app.client.listTasks()));

    expect(results.map((result) => result.response.status)).toEqual([200, 200, 200, 200, 200]);
    const refreshes = app.tokenRequests().slice(1);
    expect(refreshes).toEqual([
      {
        method: 'POST',
        path: '/oauth/token',
        contentType: 'application/x-www-form-urlencoded',
        form: { grant_type: 'refresh_token', refresh_token: first.refreshToken, client_id: clientId },
      },
    ]);
    expect(app.sent.some((request) => request.path === '/auth/refresh')).toBe(false);
    expect(app.reported).toHaveLength(2);
    const rotated = app.reported[1]!;
    expect(rotated.refreshToken).not.toBe(first.refreshToken);
    expect(rotated.scope).toBe('tasks:read tasks:write');
    expect(app.client.accessToken).toBe(rotated.accessToken);
    expect(app.client.refreshToken).toBe(rotated.refreshToken);
  });

  it('keeps sending the resource indicator the tokens were issued for', async () => {
    const app = await signedInApp({}, { resource: proxy.baseUrl });
    expect(new URL(app.started.url).searchParams.get('resource')).toBe(proxy.baseUrl);
    expect(app.tokenRequests()[0]!.form.resource).toBe(proxy.baseUrl);
    app.client.setTokens({ refreshToken: app.client.refreshToken });

    expect((await app.client.getMe()).response.status).toBe(200);

    expect(app.tokenRequests()[1]!.form).toMatchObject({ grant_type: 'refresh_token', resource: proxy.baseUrl });
  });

  it('a 503 from the token endpoint during the refresh keeps the tokens and hands the 503 back; the next call refreshes with them', async () => {
    const app = await signedInApp();
    await sleep(PAST_EXPIRY_MS);
    proxy.setFault((req) =>
      req.url === '/oauth/token' ? { kind: 'answer', status: 503, headers: { 'retry-after': '7' }, body: '{"error":"temporarily_unavailable"}' } : { kind: 'pass' },
    );
    let failed;
    try {
      failed = await app.client.getMe();
    } finally {
      proxy.setFault(undefined);
    }

    expect(failed.error).toMatchObject({ status: 503, retryAfterSeconds: 7, oauthError: 'temporarily_unavailable' });
    expect(app.client.refreshToken).toBe(app.tokens.refreshToken);
    expect(app.client.accessToken).toBe(app.tokens.accessToken);
    expect(app.reported).toHaveLength(1);

    expect((await app.client.getMe()).response.status).toBe(200);
    expect(app.reported).toHaveLength(2);
  });

  it('a dropped connection during the refresh rejects the call and keeps the tokens; the next call refreshes with them', async () => {
    const app = await signedInApp();
    app.client.setTokens({ refreshToken: app.tokens.refreshToken });
    proxy.setFault((req) => (req.url === '/oauth/token' ? { kind: 'drop' } : { kind: 'pass' }));
    try {
      await expect(app.client.getMe()).rejects.toThrow();
    } finally {
      proxy.setFault(undefined);
    }
    expect(app.client.refreshToken).toBe(app.tokens.refreshToken);

    expect((await app.client.getMe()).response.status).toBe(200);
  });

  it('a dead refresh token (invalid_grant) signs the client out: the call gets TOKEN_EXPIRED and the tokens are forgotten', async () => {
    const app = await signedInApp();
    const revoked = await fetch(`${server.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: app.tokens.refreshToken, client_id: clientId }),
    });
    expect(revoked.status).toBe(200);
    await sleep(PAST_EXPIRY_MS);

    const result = await app.client.getMe();

    expect(result.error?.code).toBe('TOKEN_EXPIRED');
    expect(app.client.refreshToken).toBeUndefined();
    expect(app.client.accessToken).toBeUndefined();
  });
});

describe('the SDK as an OAuth client: a rate-limited refresh', () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ env: { RATE_LIMIT_STRICT_BURST_PER_MINUTE: '2' } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  it('a 429 from the token endpoint keeps the tokens and comes back with its Retry-After', async () => {
    // The three token requests must share one UTC minute's window.
    await awayFromMinuteEnd(20);
    const limitedClientId = await registeredApp(limited);
    const reported: IssuedTokens[] = [];
    const client = limited.client({ oauth: { clientId: limitedClientId }, onTokens: (tokens) => reported.push(tokens) });
    const { email } = await signedInClient(limited);
    const started = await client.createAuthorization({ redirectUri: APP_REDIRECT });
    const callbackUrl = await consent(started.url, email);
    expect((await client.exchangeCode({ callbackUrl, state: started.state, codeVerifier: started.codeVerifier })).error).toBeUndefined();
    const tokens = reported[0]!;

    // Two token requests a minute: the exchange spent one, this refresh the other, the next is refused.
    client.setTokens({ refreshToken: tokens.refreshToken });
    expect((await client.getMe()).response.status).toBe(200);
    const kept = client.refreshToken!;
    client.setTokens({ refreshToken: kept });
    const result = await client.getMe();

    expect(result.error).toMatchObject({ status: 429, isRateLimited: true });
    expect(result.error!.retryAfterSeconds).toBeGreaterThan(0);
    expect(client.refreshToken).toBe(kept);
    expect(reported).toHaveLength(2);
  });
});
