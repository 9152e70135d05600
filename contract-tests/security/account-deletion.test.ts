import { randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyTodos, startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { APP_REDIRECT, authorizedCode, bearer, exchangeCode, refresh, registeredApp } from '../support/oauth.js';
import { PASSWORD, signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

const SECRET = 'contract-tests-secret-0123456789-abcdefghijklmnop';

let server: TestServer;
let second: TestServer;
let feeds: FakeIcalFeeds;
beforeAll(async () => {
  [server, feeds] = await Promise.all([startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } }), startFakeIcalFeeds()]);
  // A second instance on the same database: a deletion on one must be seen by the other at once.
  second = await startServer({ database: server.database, env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } });
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
  await feeds?.close();
});

const call = async (target: TestServer, method: string, path: string, accessToken: string, body?: unknown) => {
  const response = await fetch(`${target.baseUrl}${path}`, {
    method,
    headers: { ...bearer(accessToken), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
};

const deleteMe = (accessToken: string, password: string | undefined, target = server) =>
  call(target, 'DELETE', '/me', accessToken, password === undefined ? {} : { password });

const forged = (sub: string) =>
  jwt.sign(
    { sub, cid: 'web', sid: randomUUID(), scope: 'tasks:read tasks:write connectors:read connectors:write tokens:manage', iss: 'task-service', aud: 'task-service-api' },
    SECRET,
    { algorithm: 'HS256', header: { alg: 'HS256', typ: 'at+jwt' }, expiresIn: 60 },
  );

describe('closing an account', () => {
  it('DELETE /me with the password removes the account and everything of it; every token it had answers 401, on every instance', async () => {
    const { email, tokens, client } = await signedInClient(server);
    await client.createTask({ title: 'mine', priority: 2 });
    const apiToken = dataOf(await client.createApiToken({ name: 'script' }));
    const appId = await registeredApp(server);
    const code = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, scope: 'tasks:read', email });
    const app = (await exchangeCode(server, appId, APP_REDIRECT, code.code, code.verifier)).body;
    feeds.setFeed('/close.ics', manyTodos(3));
    const connected = await client.connectAccount('ical', { url: feeds.url('/close.ics') });
    expect(connected.response.status).toBe(201);
    // Every token has been verified (and cached) on both instances before the deletion.
    for (const target of [server, second]) {
      for (const token of [tokens.accessToken, apiToken.token, app.access_token as string]) expect((await call(target, 'GET', '/me', token)).status).toBe(200);
    }

    expect((await deleteMe(tokens.accessToken, PASSWORD)).status).toBe(204);

    const knex = server.database.knex();
    const me = (await knex('accounts').where({ email }).first()) as undefined;
    expect(me).toBeUndefined();
    for (const table of ['tasks', 'api_tokens', 'refresh_tokens', 'connector_accounts', 'oauth_authorizations']) {
      expect(await knex(table).where({ account_id: accountIdOf(tokens.accessToken) }), table).toEqual([]);
    }
    for (const target of [server, second]) {
      for (const token of [tokens.accessToken, apiToken.token, app.access_token as string]) {
        for (const [method, path, body] of [['GET', '/tasks'], ['POST', '/tasks', { title: 'x', priority: 1 }], ['POST', '/api-tokens', { name: 'again' }]] as const) {
          const answer = await call(target, method, path, token, body);
          expect(answer.status, `${method} ${path} on a deleted account`).toBe(401);
          expect(answer.body).toMatchObject({ code: 'UNAUTHENTICATED' });
        }
      }
    }
    expect((await client.refreshTokens({ refreshToken: tokens.refreshToken })).response.status).toBe(401);
    expect((await refresh(server, appId, app.refresh_token as string)).response.status).toBe(400);
    // The email is free again.
    expect((await server.client().registerAccount({ email, password: PASSWORD })).response.status).toBe(201);
  });

  it('needs the right password (401 INVALID_CREDENTIALS, through the login lockout) and a web session (403 WEB_SESSION_REQUIRED)', async () => {
    const { tokens, client } = await signedInClient(server);
    const wrong = await deleteMe(tokens.accessToken, 'not the password');
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect((await deleteMe(tokens.accessToken, undefined)).status).toBe(400);
    const apiToken = dataOf(await client.createApiToken({ name: 'script', scopes: ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write', 'tokens:manage'] }));
    const byToken = await deleteMe(apiToken.token, PASSWORD);
    expect(byToken.status).toBe(403);
    expect(byToken.body).toMatchObject({ code: 'WEB_SESSION_REQUIRED' });
    expect((await client.getMe()).response.status).toBe(200);
  });

  it('does not upset a sync job of the account that is running when it is deleted', async () => {
    const { tokens, client } = await signedInClient(server);
    feeds.setFeed('/closing-sync.ics', manyTodos(2000));
    const connected = dataOf(await client.connectAccount('ical', { url: feeds.url('/closing-sync.ics') }));
    expect((await client.startSync(connected.id)).response.status).toBe(202);
    expect((await deleteMe(tokens.accessToken, PASSWORD)).status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
    expect(server.logs.filter((line) => line.includes('crashed'))).toEqual([]);
  });
});

describe('a token whose account does not exist', () => {
  it('answers 401 UNAUTHENTICATED everywhere, never a 200, a misleading 403 or a 500', async () => {
    const token = forged(randomUUID());
    for (const [method, path, body] of [['GET', '/tasks'], ['POST', '/tasks', { title: 'x', priority: 1 }], ['POST', '/api-tokens', { name: 'x' }], ['GET', '/me/usage']] as const) {
      const answer = await call(server, method, path, token, body);
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });
});

function accountIdOf(accessToken: string): string {
  return (jwt.decode(accessToken) as { sub: string }).sub;
}

describe('an access token must say when it was issued and when it expires', () => {
  it('a genuinely signed token without exp, or without iat, is refused with 401', async () => {
    const { tokens } = await signedInClient(server);
    const sub = accountIdOf(tokens.accessToken);
    const claims = { sub, cid: 'web', sid: randomUUID(), scope: 'tasks:read', iss: 'task-service', aud: 'task-service-api' };
    const options = { algorithm: 'HS256', header: { alg: 'HS256', typ: 'at+jwt' } } as const;
    const withBoth = jwt.sign(claims, SECRET, { ...options, expiresIn: 60 });
    const noExp = jwt.sign(claims, SECRET, options);
    const noIat = jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) + 60 }, SECRET, { ...options, noTimestamp: true });
    expect((await call(server, 'GET', '/tasks', withBoth)).status).toBe(200);
    for (const token of [noExp, noIat]) {
      const answer = await call(server, 'GET', '/tasks', token);
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
  });
});
