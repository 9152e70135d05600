import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_REDIRECT, authorizedCode, bearer, exchangeCode, expectOAuthError, oauthTokens, registeredApp } from '../support/oauth.js';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const DATA_SCOPES = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write'];

async function call(method: string, path: string, accessToken: string, body?: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...bearer(accessToken), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: response.status === 204 ? undefined : ((await response.json()) as Record<string, unknown>) };
}

const expectTokenManagementRefused = (answer: { status: number; body?: Record<string, unknown> }) => {
  expect(answer.status).toBe(403);
  expect(answer.body).toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'tokens:manage' });
  expect(answer.body!.message).toMatch(/tokens:manage/);
};

describe('managing API tokens and authorised apps needs tokens:manage', () => {
  it('a tasks:read API token cannot list, mint or revoke API tokens, nor see or withdraw apps; the full token keeps working', async () => {
    const { client } = await signedInClient(server);
    const full = dataOf(await client.createApiToken({ name: 'full' }));
    const reader = dataOf(await client.createApiToken({ name: 'reader', scopes: ['tasks:read'] }));

    expectTokenManagementRefused(await call('DELETE', `/api-tokens/${full.id}`, reader.token));
    expectTokenManagementRefused(await call('GET', '/api-tokens', reader.token));
    expectTokenManagementRefused(await call('POST', '/api-tokens', reader.token, { name: 'child' }));
    expectTokenManagementRefused(await call('GET', '/oauth/authorizations', reader.token));
    expectTokenManagementRefused(await call('DELETE', '/oauth/authorizations/taskctl', reader.token));

    expect((await call('GET', '/me', full.token)).status).toBe(200);
  });

  it('an app granted tasks:read cannot list, mint or revoke the user’s API tokens', async () => {
    const clientId = await registeredApp(server);
    const app = await oauthTokens(server, clientId, APP_REDIRECT, 'tasks:read');
    expectTokenManagementRefused(await call('GET', '/api-tokens', app.accessToken));
    expectTokenManagementRefused(await call('POST', '/api-tokens', app.accessToken, { name: 'backdoor' }));
    expectTokenManagementRefused(await call('DELETE', '/api-tokens/00000000-0000-4000-8000-000000000000', app.accessToken));
    expectTokenManagementRefused(await call('GET', '/oauth/authorizations', app.accessToken));
  });

  it('an app that names no scope is not granted tokens:manage; one that asks for it, and is allowed, is', async () => {
    const clientId = await registeredApp(server);
    const byDefault = await oauthTokens(server, clientId, APP_REDIRECT);
    expect(byDefault.scope.split(' ').sort()).toEqual([...DATA_SCOPES].sort());
    expectTokenManagementRefused(await call('GET', '/api-tokens', byDefault.accessToken));

    const asked = await oauthTokens(server, clientId, APP_REDIRECT, 'tasks:read tokens:manage');
    expect(asked.scope).toBe('tasks:read tokens:manage');
    expect((await call('GET', '/api-tokens', asked.accessToken)).status).toBe(200);
  });

  it('a web session manages tokens; a token it makes without scopes gets the data scopes only, one given tokens:manage can manage', async () => {
    const { client } = await signedInClient(server);
    const plain = dataOf(await client.createApiToken({ name: 'plain' }));
    expect(plain.scopes).toEqual(DATA_SCOPES);
    expectTokenManagementRefused(await call('GET', '/api-tokens', plain.token));

    const manager = dataOf(await client.createApiToken({ name: 'manager', scopes: ['tokens:manage'] }));
    expect(manager.scopes).toEqual(['tokens:manage']);
    expect((await call('GET', '/api-tokens', manager.token)).status).toBe(200);
    expect((await call('DELETE', `/api-tokens/${plain.id}`, manager.token)).status).toBe(204);
    // It still cannot mint a token stronger than itself.
    const stronger = await call('POST', '/api-tokens', manager.token, { name: 'data', scopes: ['tasks:read'] });
    expect(stronger.status).toBe(403);
    expect(stronger.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:read' });
  });
});

describe('an authorization code', () => {
  it('presented by the wrong client is used up: the rightful client cannot redeem it afterwards', async () => {
    const appId = await registeredApp(server);
    const code = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT });
    expectOAuthError(await exchangeCode(server, 'taskctl', APP_REDIRECT, code.code, code.verifier), 400, 'invalid_grant');
    expectOAuthError(await exchangeCode(server, appId, APP_REDIRECT, code.code, code.verifier), 400, 'invalid_grant');
  });
});
