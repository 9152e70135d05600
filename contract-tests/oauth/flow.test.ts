import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_REDIRECT,
  TASKCTL_REDIRECT,
  authorizedCode,
  bearer,
  exchangeCode,
  expectOAuthError,
  oauthTokens,
  openConsentPage,
  pkcePair,
  redirectParams,
  refresh,
  registeredApp,
  submitConsent,
  tokenRequest,
} from '../support/oauth.js';
import { PASSWORD, signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const jwtPayload = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const tasks = (accessToken: string, init: RequestInit = {}) =>
  fetch(`${server.baseUrl}/tasks`, { ...init, headers: { ...bearer(accessToken), 'content-type': 'application/json', ...init.headers } });

describe('the authorization code flow with PKCE', () => {
  it('registers an app, signs in and consents on the page, exchanges the code, and the token works within its scope', async () => {
    const clientId = await registeredApp(server);
    const { email } = await signedInClient(server);
    const { verifier, challenge } = pkcePair();

    const page = await openConsentPage(server, {
      client_id: clientId,
      redirect_uri: APP_REDIRECT,
      code_challenge: challenge,
      state: 'state-123',
      scope: 'tasks:read',
    });
    expect(page.response.status).toBe(200);
    expect(page.response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toContain('Test app');
    expect(page.fields.csrf_token).toMatch(/^\d+\.[\w-]{43}$/);

    const consent = await submitConsent(server, page, { email, password: PASSWORD, decision: 'allow' });
    expect(consent.status).toBe(303);
    const returned = redirectParams(consent, APP_REDIRECT);
    expect(returned).toEqual({ code: expect.any(String), state: 'state-123', iss: server.baseUrl });

    const { response, body } = await exchangeCode(server, clientId, APP_REDIRECT, returned.code!, verifier);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 120,
      refresh_token: expect.any(String),
      scope: 'tasks:read',
    });
    expect(jwtPayload(body.access_token as string)).toMatchObject({ cid: clientId, scope: 'tasks:read' });

    const listed = await tasks(body.access_token as string);
    expect(listed.status).toBe(200);
    // The app has its own fence inside the account budget.
    expect(listed.headers.get('x-ratelimit-limit-client')).not.toBeNull();
    const created = await tasks(body.access_token as string, { method: 'POST', body: JSON.stringify({ title: 'not allowed' }) });
    expect(created.status).toBe(403);
    expect(await created.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:write' });
  });

  it('the built-in CLI client taskctl may come back to a loopback redirect on any port', async () => {
    for (const port of [53682, 8765]) {
      const redirectUri = `http://127.0.0.1:${port}/callback`;
      const { code, verifier } = await authorizedCode(server, { clientId: 'taskctl', redirectUri });
      const { response, body } = await exchangeCode(server, 'taskctl', redirectUri, code, verifier);
      expect(response.status).toBe(200);
      expect(body.scope).toBe('tasks:read tasks:write connectors:read connectors:write');
    }
  });

  it('without a scope, the app gets what it registered', async () => {
    const clientId = await registeredApp(server, { scope: 'tasks:read connectors:read' });
    const { scope, accessToken } = await oauthTokens(server, clientId, APP_REDIRECT);
    expect(scope).toBe('tasks:read connectors:read');
    expect((await fetch(`${server.baseUrl}/connector-accounts`, { headers: bearer(accessToken) })).status).toBe(200);
  });
});

describe('PKCE is mandatory', () => {
  const pkceRedirect = async (params: Record<string, string>) => {
    const response = await fetch(
      `${server.baseUrl}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, state: 's1', ...params })}`,
      { redirect: 'manual' },
    );
    expect(response.status).toBe(302);
    return redirectParams(response, TASKCTL_REDIRECT);
  };

  it('an authorisation request without a code_challenge is sent back with invalid_request and its state', async () => {
    expect(await pkceRedirect({})).toMatchObject({ error: 'invalid_request', state: 's1', iss: server.baseUrl });
  });

  it('the plain method is refused, and so is a challenge without a method (which would mean plain)', async () => {
    const { verifier } = pkcePair();
    expect(await pkceRedirect({ code_challenge: verifier, code_challenge_method: 'plain' })).toMatchObject({ error: 'invalid_request', state: 's1' });
    expect(await pkceRedirect({ code_challenge: verifier })).toMatchObject({ error: 'invalid_request', state: 's1' });
  });

  it('a wrong code_verifier is refused and uses the code up: the right one afterwards is refused too', async () => {
    const { code, verifier } = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT });
    expectOAuthError(await exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, code, pkcePair().verifier), 400, 'invalid_grant');
    expectOAuthError(await exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, code, verifier), 400, 'invalid_grant');
  });

  it('a token request without code_verifier is refused and leaves the code usable', async () => {
    const { code, verifier } = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT });
    const answer = await tokenRequest(server, { grant_type: 'authorization_code', client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, code });
    expectOAuthError(answer, 400, 'invalid_request');
    expect(answer.body.error_description).toContain('code_verifier');
    expect((await exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, code, verifier)).response.status).toBe(200);
  });
});

describe('authorization codes work once, for 60 seconds', () => {
  it('a replayed code is refused and revokes the tokens its first exchange issued', async () => {
    const { code, verifier } = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT });
    const first = await exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, code, verifier);
    expect(first.response.status).toBe(200);
    expectOAuthError(await exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, code, verifier), 400, 'invalid_grant');
    expectOAuthError(await refresh(server, 'taskctl', first.body.refresh_token as string), 400, 'invalid_grant');
  });

  it('when one code is exchanged 6 times in parallel, at most one gets tokens and those are revoked', async () => {
    const { code, verifier } = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT });
    const answers = await Promise.all(Array.from({ length: 6 }, () => exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, code, verifier)));
    const issued = answers.filter((answer) => answer.response.status === 200);
    expect(issued.length).toBeLessThanOrEqual(1);
    for (const answer of answers) if (answer.response.status !== 200) expectOAuthError(answer, 400, 'invalid_grant');
    for (const answer of issued) expectOAuthError(await refresh(server, 'taskctl', answer.body.refresh_token as string), 400, 'invalid_grant');
  });

  it('an expired code is refused', async () => {
    const { code, verifier } = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT });
    const row = await server.database.knex()('oauth_authorization_codes').orderBy('created_at', 'desc').first();
    const lifetime = Number(row.expires_at) - Number(row.created_at);
    expect(lifetime).toBeGreaterThan(59_000);
    expect(lifetime).toBeLessThanOrEqual(60_000);
    await server.database.knex()('oauth_authorization_codes').where({ code_hash: row.code_hash }).update({ expires_at: Date.now() - 1 });
    expectOAuthError(await exchangeCode(server, 'taskctl', TASKCTL_REDIRECT, code, verifier), 400, 'invalid_grant');
  });

  it('a code is only good with the redirect_uri and the client it was issued for', async () => {
    const { code, verifier } = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT });
    const otherApp = await registeredApp(server);
    expectOAuthError(await exchangeCode(server, otherApp, TASKCTL_REDIRECT, code, verifier), 400, 'invalid_grant');
    // The wrong client used that code up (security-token-management.test.ts); a fresh one for the redirect_uri check.
    const fresh = await authorizedCode(server, { clientId: 'taskctl', redirectUri: TASKCTL_REDIRECT });
    expectOAuthError(await exchangeCode(server, 'taskctl', 'http://127.0.0.1:1/elsewhere', fresh.code, fresh.verifier), 400, 'invalid_request');
  });
});

describe('refresh tokens rotate with reuse detection', () => {
  it('each refresh gives a new pair; presenting a rotated token again revokes the whole family', async () => {
    const { refreshToken } = await oauthTokens(server, 'taskctl', TASKCTL_REDIRECT);
    const second = await refresh(server, 'taskctl', refreshToken);
    expect(second.response.status).toBe(200);
    expect(second.body).toMatchObject({ token_type: 'Bearer', expires_in: 120, scope: 'tasks:read tasks:write connectors:read connectors:write' });
    expect(second.body.refresh_token).not.toBe(refreshToken);
    expect((await tasks(second.body.access_token as string)).status).toBe(200);

    const reused = await refresh(server, 'taskctl', refreshToken);
    expectOAuthError(reused, 400, 'invalid_grant');
    expect(reused.body.error_description).toContain('already used');
    expectOAuthError(await refresh(server, 'taskctl', second.body.refresh_token as string), 400, 'invalid_grant');
  });

  it('when one refresh token is used 5 times in parallel, exactly one rotation succeeds', async () => {
    const { refreshToken } = await oauthTokens(server, 'taskctl', TASKCTL_REDIRECT);
    const answers = await Promise.all(Array.from({ length: 5 }, () => refresh(server, 'taskctl', refreshToken)));
    expect(answers.filter((answer) => answer.response.status === 200)).toHaveLength(1);
  });

  it('a refresh may narrow the access token but not widen it; a refused widening rotates nothing', async () => {
    const clientId = await registeredApp(server);
    const { refreshToken } = await oauthTokens(server, clientId, APP_REDIRECT, 'tasks:read tasks:write');
    expectOAuthError(await refresh(server, clientId, refreshToken, 'tasks:read connectors:read'), 400, 'invalid_scope');
    const narrowed = await refresh(server, clientId, refreshToken, 'tasks:read');
    expect(narrowed.response.status).toBe(200);
    expect(narrowed.body.scope).toBe('tasks:read');
    expect(jwtPayload(narrowed.body.access_token as string).scope).toBe('tasks:read');
    const full = await refresh(server, clientId, narrowed.body.refresh_token as string);
    expect(full.body.scope).toBe('tasks:read tasks:write');
  });

  it('a refresh token is refused to another client and to the web refresh endpoint', async () => {
    const { refreshToken } = await oauthTokens(server, 'taskctl', TASKCTL_REDIRECT);
    expectOAuthError(await refresh(server, await registeredApp(server), refreshToken), 400, 'invalid_grant');
    const web = await server.client().refreshTokens({ refreshToken });
    expect(web.response.status).toBe(401);
    expect((await refresh(server, 'taskctl', refreshToken)).response.status).toBe(200);
  });
});

describe('the token endpoint speaks RFC 6749 errors', () => {
  it('password, client_credentials and implicit-style grants are unsupported_grant_type', async () => {
    const { email } = await signedInClient(server);
    for (const form of [
      { grant_type: 'password', username: email, password: PASSWORD, client_id: 'taskctl' },
      { grant_type: 'client_credentials', client_id: 'taskctl' },
      { grant_type: 'token', client_id: 'taskctl' },
    ] as Record<string, string>[]) {
      expectOAuthError(await tokenRequest(server, form), 400, 'unsupported_grant_type');
    }
  });

  it('missing parameters are invalid_request, an unknown client or a client secret is invalid_client (401)', async () => {
    expectOAuthError(await tokenRequest(server, {}), 400, 'invalid_request');
    expectOAuthError(await tokenRequest(server, { grant_type: 'refresh_token', client_id: 'taskctl' }), 400, 'invalid_request');
    expectOAuthError(await refresh(server, 'no-such-client', 'whatever'), 401, 'invalid_client');
    expectOAuthError(await tokenRequest(server, { grant_type: 'refresh_token', client_id: 'taskctl', client_secret: 's', refresh_token: 'x' }), 401, 'invalid_client');
  });

  it('a client that tries HTTP Basic is refused with 401 invalid_client and a Basic challenge (RFC 6749 §5.2)', async () => {
    const response = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${Buffer.from('taskctl:secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }),
    });
    expectOAuthError({ response, body: (await response.json()) as Record<string, unknown> }, 401, 'invalid_client');
    expect(response.headers.get('www-authenticate')).toBe('Basic realm="task-service"');

    // Only the scheme is echoed, never the credentials after it, whatever separates them.
    const tabbed = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic\t${Buffer.from('taskctl:secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x' }),
    });
    expect(tabbed.status).toBe(401);
    expect(tabbed.headers.get('www-authenticate')).toBe('Basic realm="task-service"');
  });

  it('revocation takes any token_type_hint as a hint only (RFC 7009 §2.1)', async () => {
    const response = await fetch(`${server.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'never-issued', token_type_hint: 'id_token' }),
    });
    expect(response.status).toBe(200);
  });
});
