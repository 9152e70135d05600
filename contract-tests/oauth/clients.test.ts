import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_REDIRECT,
  TASKCTL_REDIRECT,
  authorizedCode,
  bearer,
  exchangeCode,
  expectOAuthError,
  oauthTokens,
  refresh,
  registerClient,
  registeredApp,
} from '../support/oauth.js';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const ALL = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write'];

describe('metadata documents', () => {
  it('the authorisation server metadata (RFC 8414) names our endpoints and only what we support', async () => {
    const response = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`);
    expect(response.status).toBe(200);
    const issuer = server.baseUrl;
    expect(await response.json()).toMatchObject({
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      registration_endpoint: `${issuer}/oauth/register`,
      scopes_supported: [...ALL, 'tokens:manage', 'webhooks:manage'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code'],
      device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
      token_endpoint_auth_methods_supported: ['none'],
      code_challenge_methods_supported: ['S256'],
    });
  });

  it('the protected resource metadata (RFC 9728) is where every 401 points', async () => {
    const unauthenticated = await fetch(`${server.baseUrl}/tasks`);
    expect(unauthenticated.status).toBe(401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(unauthenticated.headers.get('www-authenticate')!)![1]!;
    const response = await fetch(metadataUrl);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      resource: server.baseUrl,
      authorization_servers: [server.baseUrl],
      scopes_supported: [...ALL, 'tokens:manage', 'webhooks:manage'],
      bearer_methods_supported: ['header'],
    });
  });

  it('with PUBLIC_URL set, the issuer and endpoints use it', async () => {
    const behindProxy = await startServer({ env: { PUBLIC_URL: 'https://tasks.example.com' } });
    try {
      const metadata = (await (await fetch(`${behindProxy.baseUrl}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
      expect(metadata.issuer).toBe('https://tasks.example.com');
      expect(metadata.token_endpoint).toBe('https://tasks.example.com/oauth/token');
      // Over https the consent form's cookie is Secure.
      const page = await fetch(
        `${behindProxy.baseUrl}/oauth/authorize?response_type=code&client_id=taskctl&redirect_uri=${encodeURIComponent(TASKCTL_REDIRECT)}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256`,
      );
      expect(page.headers.get('set-cookie')).toContain('; Secure');
    } finally {
      await behindProxy.stop();
    }
  });
});

describe('dynamic client registration (RFC 7591)', () => {
  it('registers a public client and answers its metadata', async () => {
    const { response, body } = await registerClient(server, { client_name: 'Notes app', redirect_uris: [APP_REDIRECT], scope: 'tasks:read' });
    expect(response.status).toBe(201);
    expect(body).toEqual({
      client_id: expect.any(String),
      client_id_issued_at: expect.any(Number),
      client_name: 'Notes app',
      redirect_uris: [APP_REDIRECT],
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      scope: 'tasks:read',
      application_type: 'web',
    });
    expect(body).not.toHaveProperty('client_secret');
  });

  it('accepts https, loopback http on any host form, and private-use schemes', async () => {
    const uris = ['https://app.example.com/cb', 'http://127.0.0.1/cb', 'http://[::1]:9000/cb', 'http://localhost:8080/cb', 'com.example.tasks:/oauth2redirect'];
    const { response, body } = await registerClient(server, { redirect_uris: uris });
    expect(response.status).toBe(201);
    expect(body.redirect_uris).toEqual(uris);
  });

  it('refuses other redirect URIs with invalid_redirect_uri', async () => {
    for (const uri of [
      'http://app.example.com/cb',
      'javascript:alert(1)',
      'data:text/html,hi',
      'file:///etc/passwd',
      'https://app.example.com/cb#fragment',
      'https://user:pass@app.example.com/cb',
      'myapp:/cb',
      '/relative',
    ]) {
      const answer = await registerClient(server, { redirect_uris: [uri] });
      expectOAuthError(answer, 400, 'invalid_redirect_uri');
    }
    expectOAuthError(await registerClient(server, { redirect_uris: [] }), 400, 'invalid_redirect_uri');
    expectOAuthError(await registerClient(server, { client_name: 'no uris' }), 400, 'invalid_redirect_uri');
  });

  it('refuses confidential clients, other grants and unknown scopes with invalid_client_metadata', async () => {
    for (const extra of [
      { token_endpoint_auth_method: 'client_secret_basic' },
      { token_endpoint_auth_method: 'client_secret_post' },
      { grant_types: ['authorization_code', 'client_credentials'] },
      { grant_types: ['implicit'] },
      { response_types: ['token'] },
      { scope: 'tasks:read admin' },
    ]) {
      expectOAuthError(await registerClient(server, { redirect_uris: [APP_REDIRECT], ...extra }), 400, 'invalid_client_metadata');
    }
  });
});

describe('token revocation (RFC 7009)', () => {
  const revoke = (form: Record<string, string>) =>
    fetch(`${server.baseUrl}/oauth/revoke`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form) });

  it('a revoked refresh token, and the tokens rotated from it, no longer refresh', async () => {
    const { refreshToken } = await oauthTokens(server, 'taskctl', TASKCTL_REDIRECT);
    const rotated = await refresh(server, 'taskctl', refreshToken);
    expect((await revoke({ token: rotated.body.refresh_token as string, token_type_hint: 'refresh_token', client_id: 'taskctl' })).status).toBe(200);
    expectOAuthError(await refresh(server, 'taskctl', rotated.body.refresh_token as string), 400, 'invalid_grant');
  });

  it("revoking an access token revokes its session's refresh token", async () => {
    const { accessToken, refreshToken } = await oauthTokens(server, 'taskctl', TASKCTL_REDIRECT);
    expect((await revoke({ token: accessToken })).status).toBe(200);
    expectOAuthError(await refresh(server, 'taskctl', refreshToken), 400, 'invalid_grant');
  });

  it("a client naming itself cannot revoke another client's token", async () => {
    const { refreshToken } = await oauthTokens(server, 'taskctl', TASKCTL_REDIRECT);
    expect((await revoke({ token: refreshToken, client_id: await registeredApp(server) })).status).toBe(200);
    expect((await refresh(server, 'taskctl', refreshToken)).response.status).toBe(200);
  });

  it('unknown tokens answer 200; a missing token is invalid_request', async () => {
    expect((await revoke({ token: 'never-issued' })).status).toBe(200);
    const missing = await revoke({});
    expectOAuthError({ response: missing, body: (await missing.json()) as Record<string, unknown> }, 400, 'invalid_request');
  });
});

describe('the apps an account has authorised', () => {
  it('lists each app with its scopes and time, and revoking one kills its tokens and leaves the others', async () => {
    const { email, tokens: web } = await signedInClient(server);
    const appId = await registeredApp(server, { client_name: 'Planner' });
    const before = Date.now();
    const app = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, scope: 'tasks:read', email });
    const appTokens = await exchangeCode(server, appId, APP_REDIRECT, app.code, app.verifier);
    // A second consent adds a scope to the same authorisation.
    await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, scope: 'tasks:write', email });
    // A code issued but not yet exchanged when the app is revoked.
    const pending = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, scope: 'tasks:read', email });
    const cli = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT, email });
    const cliTokens = await exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, cli.code, cli.verifier);

    const listed = await fetch(`${server.baseUrl}/oauth/authorizations`, { headers: bearer(web.accessToken) });
    expect(listed.status).toBe(200);
    const { items } = (await listed.json()) as { items: { clientId: string; clientName: string; scopes: string[]; authorizedAt: string }[] };
    expect(items.map((item) => item.clientId)).toEqual(['taskctl', appId]);
    expect(items[0]).toMatchObject({ clientName: 'taskctl (command line)', scopes: expect.arrayContaining(ALL) });
    expect(items[1]).toMatchObject({ clientName: 'Planner' });
    expect([...items[1]!.scopes].sort()).toEqual(['tasks:read', 'tasks:write']);
    expect(Date.parse(items[1]!.authorizedAt)).toBeGreaterThanOrEqual(before - 1000);

    const removed = await fetch(`${server.baseUrl}/oauth/authorizations/${appId}`, { method: 'DELETE', headers: bearer(web.accessToken) });
    expect(removed.status).toBe(204);
    expectOAuthError(await refresh(server, appId, appTokens.body.refresh_token as string), 400, 'invalid_grant');
    expectOAuthError(await exchangeCode(server, appId, APP_REDIRECT, pending.code, pending.verifier), 400, 'invalid_grant');
    expect((await refresh(server, 'taskctl', cliTokens.body.refresh_token as string)).response.status).toBe(200);

    const again = await fetch(`${server.baseUrl}/oauth/authorizations/${appId}`, { method: 'DELETE', headers: bearer(web.accessToken) });
    expect(again.status).toBe(404);
    const after = (await (await fetch(`${server.baseUrl}/oauth/authorizations`, { headers: bearer(web.accessToken) })).json()) as { items: unknown[] };
    expect(after.items).toHaveLength(1);
  });

  it('revoking an app also revokes the API tokens it minted, and those its tokens minted, but not the account’s own', async () => {
    const { email, tokens, client: web } = await signedInClient(server);
    const appId = await registeredApp(server);
    const app = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, scope: 'tasks:read tokens:manage', email });
    const appAccessToken = (await exchangeCode(server, appId, APP_REDIRECT, app.code, app.verifier)).body.access_token as string;
    const minted = await server.client({ accessToken: appAccessToken }).createApiToken({ name: 'minted by the app', scopes: ['tasks:read', 'tokens:manage'] });
    expect(minted.response.status).toBe(201);
    expect(dataOf(minted).scopes).toEqual(['tasks:read', 'tokens:manage']);
    const appToken = server.client({ accessToken: dataOf(minted).token });
    const chained = await appToken.createApiToken({ name: 'minted by the app’s token' });
    expect(chained.response.status).toBe(201);
    const chainedToken = server.client({ accessToken: dataOf(chained).token });
    const own = await web.createApiToken({ name: 'the account’s own' });
    const ownToken = server.client({ accessToken: dataOf(own).token });
    expect((await appToken.listTasks()).response.status).toBe(200);
    expect((await chainedToken.listTasks()).response.status).toBe(200);

    const removed = await fetch(`${server.baseUrl}/oauth/authorizations/${appId}`, { method: 'DELETE', headers: bearer(tokens.accessToken) });
    expect(removed.status).toBe(204);

    for (const revoked of [appToken, chainedToken]) {
      const refused = await revoked.listTasks();
      expect(refused.response.status).toBe(401);
      expect(refused.error!.code).toBe('UNAUTHENTICATED');
    }
    expect((await ownToken.listTasks()).response.status).toBe(200);
    expect(dataOf(await web.listApiTokens()).items.map((item) => item.id)).toEqual([dataOf(own).id]);
  });

  /** A signed-in account, an app it authorised for tasks:read and tokens:manage (signed in as the app), and the withdrawal. */
  async function accountWithApp() {
    const { email, tokens, client: web } = await signedInClient(server);
    const appId = await registeredApp(server);
    const app = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, scope: 'tasks:read tokens:manage', email });
    const appClient = server.client({ accessToken: (await exchangeCode(server, appId, APP_REDIRECT, app.code, app.verifier)).body.access_token as string });
    const withdraw = () => fetch(`${server.baseUrl}/oauth/authorizations/${appId}`, { method: 'DELETE', headers: bearer(tokens.accessToken) });
    return { web, appClient, withdraw };
  }

  it('an app whose authorisation was withdrawn cannot mint an API token with the access token it still holds', async () => {
    const { web, appClient, withdraw } = await accountWithApp();
    expect((await appClient.listTasks()).response.status).toBe(200);
    expect((await withdraw()).status).toBe(204);

    // The access token is a JWT and lives out its exp, but it cannot leave a credential behind.
    const minted = await appClient.createApiToken({ name: 'a way back in' });
    expect(minted.response.status).toBe(401);
    expect(minted.error!.code).toBe('UNAUTHENTICATED');
    expect(dataOf(await web.listApiTokens()).items).toEqual([]);
  });

  it('API tokens an app mints while it is being withdrawn do not outlive the withdrawal', async () => {
    const { web, appClient, withdraw } = await accountWithApp();

    const [, ...mints] = await Promise.all([
      withdraw(),
      ...Array.from({ length: 8 }, (_, i) => appClient.createApiToken({ name: `racing ${i}` })),
    ]);
    for (const minted of mints) {
      if (minted.response.status !== 201) {
        expect(minted.error!.code).toBe('UNAUTHENTICATED');
        continue;
      }
      expect((await server.client({ accessToken: dataOf(minted).token }).listTasks()).response.status).toBe(401);
    }
    expect(dataOf(await web.listApiTokens()).items).toEqual([]);
  });

  it("API tokens minted from an app's API token while the app is being withdrawn do not outlive it", async () => {
    const { web, appClient, withdraw } = await accountWithApp();
    const parent = server.client({ accessToken: dataOf(await appClient.createApiToken({ name: 'parent', scopes: ['tasks:read', 'tokens:manage'] })).token });

    const [, ...mints] = await Promise.all([
      withdraw(),
      ...Array.from({ length: 8 }, (_, i) => parent.createApiToken({ name: `child ${i}` })),
    ]);
    for (const minted of mints) {
      if (minted.response.status !== 201) continue;
      expect((await server.client({ accessToken: dataOf(minted).token }).listTasks()).response.status).toBe(401);
    }
    expect(dataOf(await web.listApiTokens()).items).toEqual([]);
  });

  it("an app's own token sees only its own authorisation, and cannot revoke another app's", async () => {
    const { email } = await signedInClient(server);
    const appId = await registeredApp(server);
    const app = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, scope: 'tasks:read tokens:manage', email });
    const appToken = (await exchangeCode(server, appId, APP_REDIRECT, app.code, app.verifier)).body.access_token as string;
    await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT, email });

    const listed = (await (await fetch(`${server.baseUrl}/oauth/authorizations`, { headers: bearer(appToken) })).json()) as { items: { clientId: string }[] };
    expect(listed.items.map((item) => item.clientId)).toEqual([appId]);
    const other = await fetch(`${server.baseUrl}/oauth/authorizations/taskctl`, { method: 'DELETE', headers: bearer(appToken) });
    expect(other.status).toBe(404);
  });

  it("another account's authorisations are neither listed nor revocable", async () => {
    const { email } = await signedInClient(server);
    await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT, email });
    const { tokens: stranger } = await signedInClient(server);
    const listed = (await (await fetch(`${server.baseUrl}/oauth/authorizations`, { headers: bearer(stranger.accessToken) })).json()) as { items: unknown[] };
    expect(listed.items).toEqual([]);
    expect((await fetch(`${server.baseUrl}/oauth/authorizations/taskctl`, { method: 'DELETE', headers: bearer(stranger.accessToken) })).status).toBe(404);
  });

  it('needs a signed-in caller', async () => {
    expect((await fetch(`${server.baseUrl}/oauth/authorizations`)).status).toBe(401);
  });
});
