import { describe, expect, it } from 'vitest';
import { createTaskClient } from './client.js';

const BASE = 'http://api.test';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const ME = { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' };

interface Seen {
  path: string;
  authorization: string | null;
  contentType: string | null;
  credentials: RequestCredentials;
  body: string;
}

/** A service that keeps the session in a cookie jar of one: the pair's refresh token never goes into a body. */
function cookieServer() {
  const seen: Seen[] = [];
  let session: number | undefined;
  let generation = 0;
  const pair = () => ({ accessToken: `access-${generation}`, tokenType: 'Bearer', expiresIn: 120, refreshExpiresIn: 2_592_000 });
  const send = async (request: Request): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const body = await request.text();
    seen.push({ path, authorization: request.headers.get('authorization'), contentType: request.headers.get('content-type'), credentials: request.credentials, body });
    if (path === '/auth/login') {
      if ((JSON.parse(body) as { session?: string }).session !== 'cookie') return json(400, { code: 'VALIDATION_FAILED', message: 'No.' });
      generation += 1;
      session = generation;
      return json(200, pair());
    }
    if (path === '/auth/refresh') {
      if (session === undefined || body !== '{}') return json(401, { code: 'UNAUTHENTICATED', message: 'No session.' });
      generation += 1;
      session = generation;
      return json(200, pair());
    }
    if (path === '/auth/logout') {
      session = undefined;
      return new Response(null, { status: 204 });
    }
    const token = /^Bearer access-(\d+)$/.exec(request.headers.get('authorization') ?? '')?.[1];
    if (!token) return json(401, { code: 'UNAUTHENTICATED', message: 'Sign in first.' });
    if (Number(token) !== generation) return json(401, { code: 'TOKEN_EXPIRED', message: 'Expired.' });
    return json(200, ME);
  };
  return { send, seen, expire: () => (generation += 1), signedIn: () => session !== undefined };
}

describe('the SDK cookie session', () => {
  it('asks for a cookie session at sign-in and keeps only the access token', async () => {
    const server = cookieServer();
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, session: 'cookie' });
    const login = await client.login({ email: 'ada@example.com', password: 'correct horse' });
    expect(login.error).toBeUndefined();
    expect(JSON.parse(server.seen[0]!.body)).toMatchObject({ session: 'cookie' });
    expect(client.accessToken).toBe('access-1');
    expect(client.refreshToken).toBeUndefined();
    expect((await client.getMe()).data).toEqual(ME);
  });

  it('refreshes through the cookie with an empty JSON body when the access token expires', async () => {
    const server = cookieServer();
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, session: 'cookie' });
    await client.login({ email: 'ada@example.com', password: 'correct horse' });
    server.expire();
    expect((await client.getMe()).data).toEqual(ME);
    const refresh = server.seen.find((request) => request.path === '/auth/refresh')!;
    expect(refresh).toMatchObject({ body: '{}', contentType: 'application/json', credentials: 'same-origin', authorization: null });
  });

  it('resumes a session after a reload, and reports none when the cookie holds none', async () => {
    const server = cookieServer();
    await createTaskClient({ baseUrl: BASE, fetch: server.send, session: 'cookie' }).login({ email: 'ada@example.com', password: 'x' });
    const reloaded = createTaskClient({ baseUrl: BASE, fetch: server.send, session: 'cookie' });
    expect(await reloaded.resumeSession()).toEqual({ signedIn: true });
    expect((await reloaded.getMe()).data).toEqual(ME);

    const stranger = createTaskClient({ baseUrl: BASE, fetch: cookieServer().send, session: 'cookie' });
    expect(await stranger.resumeSession()).toEqual({ signedIn: false });
  });

  it('logs out through the cookie, then stops trying it until the next sign-in', async () => {
    const server = cookieServer();
    const client = createTaskClient({ baseUrl: BASE, fetch: server.send, session: 'cookie' });
    await client.login({ email: 'ada@example.com', password: 'x' });
    expect((await client.logout()).error).toBeUndefined();
    expect(server.seen.at(-1)).toMatchObject({ path: '/auth/logout', body: '{}', contentType: 'application/json' });
    expect(client.accessToken).toBeUndefined();
    const before = server.seen.length;
    expect((await client.getMe()).error?.code).toBe('UNAUTHENTICATED');
    expect(server.seen.slice(before).map((request) => request.path)).toEqual(['/me']);
  });

  it('a 429 on the refresh comes back as the refusal, not as signed out', async () => {
    const send = async () => new Response(JSON.stringify({ code: 'RATE_LIMITED', message: 'Slow down.' }), { status: 429, headers: { 'retry-after': '7', 'content-type': 'application/json' } });
    const client = createTaskClient({ baseUrl: BASE, fetch: send, session: 'cookie' });
    const resumed = await client.resumeSession();
    expect(resumed.signedIn).toBe(false);
    expect(resumed.error).toMatchObject({ isRateLimited: true, retryAfterSeconds: 7, message: 'Slow down.' });
  });
});
