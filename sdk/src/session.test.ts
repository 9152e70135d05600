import { describe, expect, it } from 'vitest';
import type { components } from './api.js';
import { createTaskClient } from './client.js';

type TokenPair = components['schemas']['TokenPair'];

const BASE = 'http://api.test';
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const expired = () => json(401, { statusCode: 401, code: 'TOKEN_EXPIRED', message: 'The access token has expired.' });
const pairFor = (n: number): TokenPair => ({
  accessToken: `access-${n}`,
  refreshToken: `refresh-${n}`,
  tokenType: 'Bearer',
  expiresIn: 120,
  refreshExpiresIn: 2_592_000,
});

interface Seen {
  method: string;
  path: string;
  authorization: string | null;
  body: string;
}

/**
 * A fake Task Service that speaks the real wire format: access tokens `access-N` are valid from
 * `validFrom` on, `/auth/refresh` rotates `refresh-N` to pair N+1 (or answers what `refreshAnswer` says).
 */
function fakeServer(options: { validFrom?: number; refreshAnswer?: () => Response | undefined; refreshDelayMs?: number } = {}) {
  const seen: Seen[] = [];
  let generation = 1;
  const send = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const body = await request.text();
    seen.push({ method: request.method, path, authorization: request.headers.get('authorization'), body });
    if (path === '/auth/refresh') {
      if (options.refreshDelayMs) await new Promise((resolve) => setTimeout(resolve, options.refreshDelayMs));
      const answer = options.refreshAnswer?.();
      if (answer) return answer;
      const { refreshToken } = JSON.parse(body) as { refreshToken: string };
      if (refreshToken !== `refresh-${generation}`) return json(401, { statusCode: 401, code: 'REFRESH_TOKEN_REUSED', message: 'Reused.' });
      generation += 1;
      return json(200, pairFor(generation));
    }
    if (path === '/auth/login') return json(401, { statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'Wrong.' });
    const token = /^Bearer access-(\d+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!token) return json(401, { statusCode: 401, code: 'UNAUTHENTICATED', message: 'Sign in first.' });
    if (Number(token) < (options.validFrom ?? 2)) return expired();
    return json(200, { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' });
  };
  const refreshes = () => seen.filter((request) => request.path === '/auth/refresh');
  return { send, seen, refreshes };
}

describe('the SDK session', () => {
  it('on TOKEN_EXPIRED, refreshes once, retries the call with the new token and reports the new pair', async () => {
    const server = fakeServer();
    const reported: TokenPair[] = [];
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, ...pairFor(1), onTokens: (pair) => reported.push(pair) });

    const me = await client.getMe();

    expect(me.response.status).toBe(200);
    expect(server.seen.map((request) => [request.path, request.authorization])).toEqual([
      ['/me', 'Bearer access-1'],
      ['/auth/refresh', null],
      ['/me', 'Bearer access-2'],
    ]);
    expect(JSON.parse(server.refreshes()[0]!.body)).toEqual({ refreshToken: 'refresh-1' });
    expect(reported).toEqual([pairFor(2)]);
    expect(client.accessToken).toBe('access-2');
  });

  it('shares one refresh among parallel calls that all see the expiry', async () => {
    const server = fakeServer({ refreshDelayMs: 20 });
    const reported: TokenPair[] = [];
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, ...pairFor(1), onTokens: (pair) => reported.push(pair) });

    const results = await Promise.all(Array.from({ length: 6 }, () => client.getMe()));

    expect(results.map((result) => result.response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(server.refreshes()).toHaveLength(1);
    expect(reported).toHaveLength(1);
  });

  it('a call that sees the expiry after another call refreshed uses the new token without refreshing again', async () => {
    const server = fakeServer();
    let first = true;
    // The first call's expiry answer is slow: it arrives after the second call has refreshed.
    const send = async (request: Request) => {
      if (first && new URL(request.url).pathname === '/me') {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return server.send(request);
    };
    const client = createTaskClient({ baseUrl: BASE, fetch: send, ...pairFor(1) });
    const slow = client.getMe();
    expect((await client.getMe()).response.status).toBe(200);
    expect((await slow).response.status).toBe(200);
    expect(server.refreshes()).toHaveLength(1);
    expect(server.seen.filter((request) => request.path === '/me').map((request) => request.authorization)).toEqual([
      'Bearer access-1',
      'Bearer access-2',
      'Bearer access-1',
      'Bearer access-2',
    ]);
  });

  it('retries a request with its body intact', async () => {
    const seenBodies: string[] = [];
    const server = fakeServer();
    const send = async (request: Request) => {
      if (new URL(request.url).pathname === '/api-tokens') {
        seenBodies.push(await request.clone().text());
        if (request.headers.get('authorization') === 'Bearer access-1') return expired();
        return json(201, { id: '00000000-0000-4000-8000-000000000002', name: 'ci', prefix: 'tsk_abcdefgh', scopes: [], createdAt: '2026-01-01T00:00:00.000Z', expiresAt: null, lastUsedAt: null, token: 'tsk_x' });
      }
      return server.send(request);
    };
    const client = createTaskClient({ baseUrl: BASE, fetch: send, ...pairFor(1) });
    const created = await client.createApiToken({ name: 'ci' });
    expect(created.response.status).toBe(201);
    expect(seenBodies).toEqual(['{"name":"ci"}', '{"name":"ci"}']);
  });

  it('does not refresh on other 401s, nor on the sign-in endpoints', async () => {
    const server = fakeServer();
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, accessToken: 'garbage', refreshToken: 'refresh-1' });
    expect((await client.getMe()).error?.code).toBe('UNAUTHENTICATED');
    expect((await client.login({ email: 'ada@example.com', password: 'wrong' })).error?.code).toBe('INVALID_CREDENTIALS');
    expect(server.refreshes()).toHaveLength(0);
  });

  it('without a refresh token, hands TOKEN_EXPIRED back to the caller', async () => {
    const server = fakeServer();
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, accessToken: 'access-1' });
    expect((await client.getMe()).error?.code).toBe('TOKEN_EXPIRED');
    expect(server.refreshes()).toHaveLength(0);
  });

  it('retries only once: a retried call that is expired again is handed back', async () => {
    const server = fakeServer({ validFrom: 99 });
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, ...pairFor(1) });
    expect((await client.getMe()).error?.code).toBe('TOKEN_EXPIRED');
    expect(server.seen.map((request) => request.path)).toEqual(['/me', '/auth/refresh', '/me']);
  });

  it('when the refresh token is refused, hands back TOKEN_EXPIRED and forgets the dead tokens', async () => {
    const server = fakeServer({ refreshAnswer: () => json(401, { statusCode: 401, code: 'REFRESH_TOKEN_REUSED', message: 'Reused.' }) });
    const reported: TokenPair[] = [];
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, ...pairFor(1), onTokens: (pair) => reported.push(pair) });
    expect((await client.getMe()).error?.code).toBe('TOKEN_EXPIRED');
    expect(client.accessToken).toBeUndefined();
    expect((await client.getMe()).error?.code).toBe('UNAUTHENTICATED');
    expect(server.refreshes()).toHaveLength(1);
    expect(reported).toEqual([]);
  });

  it('when the refresh token is refused, a call whose expiry arrives later gets TOKEN_EXPIRED too, not a retry without a token', async () => {
    const server = fakeServer({ refreshAnswer: () => json(401, { statusCode: 401, code: 'INVALID_REFRESH_TOKEN', message: 'Sign in again.' }) });
    let first = true;
    const send = async (request: Request) => {
      if (first && new URL(request.url).pathname === '/me') {
        first = false;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return server.send(request);
    };
    const client = createTaskClient({ baseUrl: BASE, fetch: send, ...pairFor(1) });
    const slow = client.getMe();
    expect((await client.getMe()).error?.code).toBe('TOKEN_EXPIRED');
    expect((await slow).error?.code).toBe('TOKEN_EXPIRED');
    expect(server.seen.map((request) => request.path)).toEqual(['/me', '/auth/refresh', '/me']);
  });

  it('when the refresh is rate limited, every waiting call gets that 429 with its Retry-After, not an exception', async () => {
    const server = fakeServer({
      refreshDelayMs: 10,
      refreshAnswer: () =>
        json(429, { statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: 'Slow down.', retryAfterSeconds: 12, window: 'refresh-burst' }, { 'retry-after': '12' }),
    });
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, ...pairFor(1) });
    const results = await Promise.all([client.getMe(), client.getMe(), client.getMe()]);
    for (const result of results) {
      expect(result.error?.isRateLimited).toBe(true);
      expect(result.error?.retryAfterSeconds).toBe(12);
      expect(result.error?.code).toBe('RATE_LIMIT_EXCEEDED');
    }
    expect(server.refreshes()).toHaveLength(1);
    expect(client.accessToken).toBe('access-1');
  });

  it('given only a refresh token, obtains an access token before the first call', async () => {
    const server = fakeServer();
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, refreshToken: 'refresh-1' });
    expect((await client.getMe()).response.status).toBe(200);
    expect(server.seen.map((request) => [request.path, request.authorization])).toEqual([
      ['/auth/refresh', null],
      ['/me', 'Bearer access-2'],
    ]);
  });

  it('keeps tokens set during a refresh instead of the refreshed pair of the replaced session', async () => {
    const server = fakeServer({ refreshDelayMs: 20, validFrom: 2 });
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, ...pairFor(1) });
    const pending = client.getMe();
    await new Promise((resolve) => setTimeout(resolve, 5));
    client.setTokens({ accessToken: 'access-7', refreshToken: 'refresh-7' });
    expect((await pending).response.status).toBe(200);
    expect(client.accessToken).toBe('access-7');
  });
});
