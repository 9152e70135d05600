import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const decodeJwtPart = (token: string, index: 0 | 1) =>
  JSON.parse(Buffer.from(token.split('.')[index]!, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('registering', () => {
  it('creates the account and signs it in with a token pair for the web client', async () => {
    const email = uniqueEmail('register');
    const response = await server.client().registerAccount({ email, password: PASSWORD, name: 'Ada Lovelace' });
    expect(response.response.status).toBe(201);
    expect(response.response.headers.get('cache-control')).toBe('no-store');
    const pair = dataOf(response);
    expect(pair).toMatchObject({ tokenType: 'Bearer', expiresIn: 120, refreshExpiresIn: 2_592_000 });
    expect(pair.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const me = await server.client({ accessToken: pair.accessToken }).getMe();
    expect(me.data).toMatchObject({ email, name: 'Ada Lovelace' });
    expect(Date.parse(dataOf(me).createdAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('issues an HS256 at+jwt access token with the documented claims', async () => {
    const { tokens, client } = await signedInClient(server);
    const me = dataOf(await client.getMe());
    expect(decodeJwtPart(tokens.accessToken, 0)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    const claims = decodeJwtPart(tokens.accessToken, 1);
    expect(claims).toMatchObject({
      sub: me.id,
      cid: 'web',
      scope: 'tasks:read tasks:write connectors:read connectors:write tokens:manage webhooks:manage',
      iss: 'task-service',
      aud: 'task-service-api',
    });
    expect(claims.sid).toEqual(expect.any(String));
    expect(claims.jti).toEqual(expect.any(String));
    // exp - iat is exactly the expiresIn the pair announces (JWT_ACCESS_EXPIRES, 120 by default).
    expect((claims.exp as number) - (claims.iat as number)).toBe(tokens.expiresIn);
    expect(tokens.expiresIn).toBe(120);
  });

  it('stores the email trimmed and lower-cased, and refuses the same email in other case with 409 EMAIL_IN_USE', async () => {
    const email = uniqueEmail('Case');
    const mixed = email.replace('case', 'CaSe').replace('example.com', 'Example.COM');
    const first = await server.client().registerAccount({ email: `  ${mixed}\t`, password: PASSWORD });
    expect(first.response.status).toBe(201);
    const me = await server.client({ accessToken: dataOf(first).accessToken }).getMe();
    expect(dataOf(me).email).toBe(mixed.toLowerCase());

    const again = await server.client().registerAccount({ email: mixed.toLowerCase(), password: 'another password' });
    expect(again.response.status).toBe(409);
    expect(again.error!.body).toMatchObject({ statusCode: 409, code: 'EMAIL_IN_USE' });
  });

  it('stores the password as an argon2id hash with the OWASP parameters, never in clear', async () => {
    const email = uniqueEmail('hash');
    await signedInClient(server, email);
    const row = await server.database.knex()('accounts').where({ email }).first();
    expect(row.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });
});

describe('logging in', () => {
  it('returns a working token pair for the right password, whatever the case of the email', async () => {
    const email = uniqueEmail('login');
    await signedInClient(server, email);
    const login = await server.client().login({ email: `  ${email.toUpperCase()} `, password: PASSWORD });
    expect(login.response.status).toBe(200);
    expect(login.response.headers.get('cache-control')).toBe('no-store');
    const me = await server.client({ accessToken: dataOf(login).accessToken }).getMe();
    expect(dataOf(me).email).toBe(email);
  });

  it('answers a wrong password and an unknown email with the same 401 INVALID_CREDENTIALS body', async () => {
    const email = uniqueEmail('wrong');
    await signedInClient(server, email);
    const wrongPassword = await server.client().login({ email, password: 'not the password' });
    const unknownEmail = await server.client().login({ email: uniqueEmail('nobody'), password: PASSWORD });
    expect(wrongPassword.response.status).toBe(401);
    expect(unknownEmail.response.status).toBe(401);
    expect(wrongPassword.error!.body).toEqual({ statusCode: 401, code: 'INVALID_CREDENTIALS', message: expect.any(String) });
    expect(unknownEmail.error!.body).toEqual(wrongPassword.error!.body);
    expect(wrongPassword.response.headers.get('www-authenticate')).toBe(unknownEmail.response.headers.get('www-authenticate'));
  });
});

describe('GET /me', () => {
  it('answers 401 UNAUTHENTICATED without a token, with a challenge naming no error (RFC 6750 §3.1)', async () => {
    const me = await server.client().getMe();
    expect(me.response.status).toBe(401);
    expect(me.error!.code).toBe('UNAUTHENTICATED');
    expect(me.response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="[^"]+"$/);
  });
});

describe('refreshing', () => {
  it('rotates the refresh token: the new pair works and the old access token keeps working until it expires', async () => {
    const { tokens, client } = await signedInClient(server);
    const refreshed = await server.client().refreshTokens({ refreshToken: tokens.refreshToken });
    expect(refreshed.response.status).toBe(200);
    expect(refreshed.response.headers.get('cache-control')).toBe('no-store');
    const pair = dataOf(refreshed);
    expect(pair.refreshToken).not.toBe(tokens.refreshToken);
    expect(pair.accessToken).not.toBe(tokens.accessToken);
    expect(decodeJwtPart(pair.accessToken, 1).sid).toBe(decodeJwtPart(tokens.accessToken, 1).sid);
    expect((await server.client({ accessToken: pair.accessToken }).getMe()).response.status).toBe(200);
    expect((await client.getMe()).response.status).toBe(200);
    expect((await server.client().refreshTokens({ refreshToken: pair.refreshToken })).response.status).toBe(200);
  });

  it('answers a rotated token presented again with 401 REFRESH_TOKEN_REUSED and revokes the whole family', async () => {
    const { tokens } = await signedInClient(server);
    const anonymous = server.client();
    const rotated = dataOf(await anonymous.refreshTokens({ refreshToken: tokens.refreshToken }));

    const replay = await anonymous.refreshTokens({ refreshToken: tokens.refreshToken });
    expect(replay.response.status).toBe(401);
    expect(replay.error!.body).toMatchObject({ statusCode: 401, code: 'REFRESH_TOKEN_REUSED' });

    const successor = await anonymous.refreshTokens({ refreshToken: rotated.refreshToken });
    expect(successor.response.status).toBe(401);
    expect(successor.error!.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it('gives exactly one success when the same refresh token is presented in parallel', async () => {
    const { tokens } = await signedInClient(server);
    const attempts = await Promise.all(
      Array.from({ length: 8 }, () => server.client().refreshTokens({ refreshToken: tokens.refreshToken })),
    );
    const statuses = attempts.map((attempt) => attempt.response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 401)).toHaveLength(7);
    for (const attempt of attempts.filter((a) => a.error)) expect(attempt.error!.code).toBe('REFRESH_TOKEN_REUSED');
  });

  it('refuses an unknown refresh token with 401 INVALID_REFRESH_TOKEN', async () => {
    const response = await server.client().refreshTokens({ refreshToken: 'no-such-token' });
    expect(response.response.status).toBe(401);
    expect(response.error!.body).toMatchObject({ statusCode: 401, code: 'INVALID_REFRESH_TOKEN' });
  });

  it('refuses an expired refresh token with 401 INVALID_REFRESH_TOKEN', async () => {
    const { tokens } = await signedInClient(server);
    await server.database
      .knex()('refresh_tokens')
      .where({ token_hash: sha256(tokens.refreshToken) })
      .update({ expires_at: Date.now() - 1000 });
    const response = await server.client().refreshTokens({ refreshToken: tokens.refreshToken });
    expect(response.error!.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it('stores refresh tokens only as SHA-256 hashes, expiring after JWT_REFRESH_EXPIRES', async () => {
    const { tokens } = await signedInClient(server);
    const rows = await server.database.knex()('refresh_tokens').where({ token_hash: sha256(tokens.refreshToken) });
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(tokens.refreshToken);
    expect(Number(rows[0].expires_at) - Number(rows[0].created_at)).toBe(2_592_000_000);
  });
});

describe('logging out', () => {
  it('answers 204 and revokes the session: neither its refresh token nor its successors refresh again', async () => {
    const { tokens } = await signedInClient(server);
    const anonymous = server.client();
    const rotated = dataOf(await anonymous.refreshTokens({ refreshToken: tokens.refreshToken }));
    const next = dataOf(await anonymous.refreshTokens({ refreshToken: rotated.refreshToken }));

    const logout = await anonymous.logout({ refreshToken: rotated.refreshToken });
    expect(logout.response.status).toBe(204);
    const afterLogout = await anonymous.refreshTokens({ refreshToken: next.refreshToken });
    expect(afterLogout.error!.code).toBe('INVALID_REFRESH_TOKEN');
  });

  it('leaves the account’s other sessions signed in', async () => {
    const { email, tokens } = await signedInClient(server);
    const other = dataOf(await server.client().login({ email, password: PASSWORD }));
    await server.client().logout({ refreshToken: tokens.refreshToken });
    expect((await server.client().refreshTokens({ refreshToken: other.refreshToken })).response.status).toBe(200);
  });

  it('answers 204 for an unknown or already revoked token, so a retry is safe', async () => {
    const { tokens } = await signedInClient(server);
    expect((await server.client().logout({ refreshToken: tokens.refreshToken })).response.status).toBe(204);
    expect((await server.client().logout({ refreshToken: tokens.refreshToken })).response.status).toBe(204);
    expect((await server.client().logout({ refreshToken: 'never-issued' })).response.status).toBe(204);
  });
});
