import type { IssuedTokens } from '@task-service/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

// Tokens live 1 s and at most 2 s (exp is rounded up to the next whole second): waiting longer expires them.
const PAST_EXPIRY_MS = 2_200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { JWT_ACCESS_EXPIRES: '1' } });
});
afterAll(async () => {
  await server?.stop();
});

describe('access token expiry (JWT_ACCESS_EXPIRES=1)', () => {
  it('a token is refused with 401 TOKEN_EXPIRED and WWW-Authenticate once JWT_ACCESS_EXPIRES has passed; a refresh gives a working one', async () => {
    const { tokens } = await signedInClient(server);
    expect(tokens.expiresIn).toBe(1);
    const plain = server.client({ accessToken: tokens.accessToken });
    expect((await plain.getMe()).response.status).toBe(200);

    await sleep(PAST_EXPIRY_MS);
    const expired = await plain.getMe();
    expect(expired.response.status).toBe(401);
    expect(expired.error!.body).toEqual({ statusCode: 401, code: 'TOKEN_EXPIRED', message: expect.any(String) });
    expect(expired.response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);

    const refreshed = dataOf(await server.client().refreshTokens({ refreshToken: tokens.refreshToken }));
    expect((await server.client({ accessToken: refreshed.accessToken }).getMe()).response.status).toBe(200);
  });

  it('an SDK client with an expired token refreshes transparently, once for parallel calls, and reports the new pair', async () => {
    const { tokens } = await signedInClient(server);
    const refreshRequests: string[] = [];
    const reported: IssuedTokens[] = [];
    const client = server.client({
      accessToken: tokens.accessToken,
      refreshToken: tokens.refreshToken,
      onTokens: (pair) => reported.push(pair),
      fetch: (request) => {
        if (new URL(request.url).pathname === '/auth/refresh') refreshRequests.push(request.method);
        return globalThis.fetch(request);
      },
    });
    await sleep(PAST_EXPIRY_MS);

    const results = await Promise.all(Array.from({ length: 5 }, () => client.getMe()));

    expect(results.map((result) => result.response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(refreshRequests).toEqual(['POST']);
    expect(reported).toHaveLength(1);
    expect(client.accessToken).toBe(reported[0]!.accessToken);
    // The reported refresh token is the live one: the rotated original would now be a reuse.
    expect((await server.client().refreshTokens({ refreshToken: reported[0]!.refreshToken })).response.status).toBe(200);
  });
});
