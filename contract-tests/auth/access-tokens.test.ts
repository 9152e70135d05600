import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

const SECRET = 'access-token-tests-secret-0123456789-abcdefgh';

let server: TestServer;
let accountId: string;
let sessionId: string;
beforeAll(async () => {
  server = await startServer({ env: { JWT_SECRET: SECRET } });
  const { tokens, client } = await signedInClient(server);
  accountId = dataOf(await client.getMe()).id;
  sessionId = (jwt.decode(tokens.accessToken) as { sid: string }).sid;
});
afterAll(async () => {
  await server?.stop();
});

const validClaims = () => ({
  sub: accountId,
  cid: 'web',
  sid: sessionId,
  scope: 'tasks:read tasks:write connectors:read connectors:write',
  iss: 'task-service',
  aud: 'task-service-api',
  exp: Math.floor(Date.now() / 1000) + 60,
});

const sign = (claims: object = validClaims(), options: jwt.SignOptions = {}, secret: string = SECRET) =>
  jwt.sign(claims, secret, { algorithm: 'HS256', header: { alg: 'HS256', typ: 'at+jwt' }, ...options });

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

async function getMe(authorization: string) {
  const response = await fetch(`${server.baseUrl}/me`, { headers: { authorization } });
  return { status: response.status, wwwAuthenticate: response.headers.get('www-authenticate'), body: await response.json() };
}

async function expectRefused(authorization: string, code: 'UNAUTHENTICATED' | 'TOKEN_EXPIRED' = 'UNAUTHENTICATED') {
  const answer = await getMe(authorization);
  expect(answer.status).toBe(401);
  expect(answer.body).toEqual({ statusCode: 401, code, message: expect.any(String) });
  expect(answer.wwwAuthenticate).toMatch(/^Bearer error="invalid_token", resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/);
}

describe('access tokens', () => {
  it('accepts a token signed as the server signs them (the control for the cases below)', async () => {
    const answer = await getMe(`Bearer ${sign()}`);
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(accountId);
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const [header, , signature] = sign().split('.');
    const forged = base64url({ ...validClaims(), sub: '00000000-0000-4000-8000-000000000000' });
    await expectRefused(`Bearer ${header}.${forged}.${signature}`);
  });

  it('refuses a token with a tampered signature', async () => {
    const token = sign();
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    await expectRefused(`Bearer ${flipped}`);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const unsigned = `${base64url({ alg: 'none', typ: 'at+jwt' })}.${base64url(validClaims())}.`;
    await expectRefused(`Bearer ${unsigned}`);
  });

  it('refuses a token signed with another algorithm than HS256, even with the right key', async () => {
    await expectRefused(`Bearer ${sign(validClaims(), { algorithm: 'HS512', header: { alg: 'HS512', typ: 'at+jwt' } })}`);
  });

  it('refuses a token signed with another key', async () => {
    await expectRefused(`Bearer ${sign(validClaims(), {}, 'some-other-secret-0123456789-abcdefghijkl')}`);
  });

  it('refuses a JWT that is not an access token (typ other than at+jwt, or none)', async () => {
    await expectRefused(`Bearer ${sign(validClaims(), { header: { alg: 'HS256', typ: 'JWT' } })}`);
    await expectRefused(`Bearer ${sign(validClaims(), { header: { alg: 'HS256' } })}`);
  });

  it('refuses a token of another issuer or for another audience', async () => {
    await expectRefused(`Bearer ${sign({ ...validClaims(), iss: 'someone-else' })}`);
    await expectRefused(`Bearer ${sign({ ...validClaims(), aud: 'another-api' })}`);
  });

  it('refuses a token without the claims that say whose it is', async () => {
    const { sub: _sub, ...withoutSubject } = validClaims();
    await expectRefused(`Bearer ${sign(withoutSubject)}`);
    const { cid: _cid, ...withoutClient } = validClaims();
    await expectRefused(`Bearer ${sign(withoutClient)}`);
  });

  it('answers a genuine token past its exp with TOKEN_EXPIRED, but a forged expired one with UNAUTHENTICATED', async () => {
    const past = Math.floor(Date.now() / 1000) - 5;
    await expectRefused(`Bearer ${sign({ ...validClaims(), exp: past })}`, 'TOKEN_EXPIRED');
    await expectRefused(`Bearer ${sign({ ...validClaims(), exp: past, aud: 'another-api' })}`);
    await expectRefused(`Bearer ${sign({ ...validClaims(), exp: past }, {}, 'some-other-secret-0123456789-abcdefghijkl')}`);
  });

  it('refuses a malformed Authorization header, an unknown API token and an empty bearer', async () => {
    await expectRefused(`Basic ${Buffer.from('ada:pw').toString('base64')}`);
    await expectRefused('Bearer not-a-jwt');
    await expectRefused(`Bearer tsk_${'A'.repeat(43)}`);
    await expectRefused('Bearer ');
  });

  it('grants only the scopes in the token: a token without tasks:write gets 403 INSUFFICIENT_SCOPE on POST /tasks', async () => {
    const readOnly = sign({ ...validClaims(), scope: 'tasks:read' });
    const response = await fetch(`${server.baseUrl}/tasks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${readOnly}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'not allowed' }),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:write' });
  });
});

describe('the signing secret without JWT_SECRET (development)', () => {
  it('is generated once into the data folder (mode 0600), so access tokens survive a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'task-service-jwt-'));
    const dev = await startServer({ env: { JWT_SECRET: '', NODE_ENV: 'development', DATA_DIR: dataDir } });
    try {
      const { client } = await signedInClient(dev);
      expect((await client.getMe()).response.status).toBe(200);
      expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
      await dev.restart();
      const afterRestart = dev.client({ accessToken: client.accessToken });
      expect((await afterRestart.getMe()).response.status).toBe(200);
    } finally {
      await dev.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
