import { createTaskClient } from '@task-service/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders } from '../support/limits.js';
import { PASSWORD, startServer, uniqueEmail, type TestServer } from '../support/server.js';

// The cookie session of the first-party web app (docs/signing-in.md#cookie-session), spoken in raw
// HTTP: the cookie's attributes and the Origin and Content-Type checks are what is under test.

const PUBLIC_ORIGIN = 'https://tasks.example.test';
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

interface Sent {
  body?: unknown;
  origin?: string | null;
  contentType?: string;
  cookie?: string;
  bearer?: string;
}

/** A POST as a page would send it: JSON, from the server's own origin unless told otherwise. */
async function post(server: TestServer, path: string, ownOrigin: string, { body = {}, origin = ownOrigin, contentType = 'application/json', cookie }: Sent = {}) {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (origin !== null) headers.origin = origin;
  if (cookie !== undefined) headers.cookie = cookie;
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, setCookies: response.headers.getSetCookie(), json: text ? (JSON.parse(text) as Record<string, unknown>) : undefined };
}

/** The cookie a Set-Cookie value sets, as a browser would send it back. */
const cookieOf = (setCookie: string) => setCookie.split(';', 1)[0]!;
const tokenOf = (setCookie: string) => cookieOf(setCookie).split('=')[1]!;

async function getMe(server: TestServer, accessToken: unknown) {
  const response = await fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${String(accessToken)}` } });
  return response;
}

describe('a cookie session over plain http (no PUBLIC_URL: the origin the request came to)', () => {
  let server: TestServer;
  let origin: string;
  beforeAll(async () => {
    server = await startServer();
    origin = server.baseUrl;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const signUp = async () => {
    const answer = await post(server, '/auth/register', origin, { body: { email: uniqueEmail('cookie'), password: PASSWORD, session: 'cookie' } });
    expect(answer.status).toBe(201);
    return answer;
  };

  it('registers with the refresh token only in an HttpOnly, SameSite=Strict cookie `refresh` on Path=/auth, not in the body', async () => {
    const answer = await signUp();
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.json).not.toHaveProperty('refreshToken');
    expect(answer.json).toMatchObject({ tokenType: 'Bearer', expiresIn: 120, refreshExpiresIn: 2_592_000 });
    expect(answer.setCookies).toHaveLength(1);
    const [setCookie] = answer.setCookies as [string];
    expect(setCookie).toMatch(/^refresh=[A-Za-z0-9_-]{43}; /);
    const attributes = setCookie.split('; ').slice(1).sort();
    expect(attributes).toEqual(['HttpOnly', 'Max-Age=2592000', 'Path=/auth', 'SameSite=Strict']);
    expect((await getMe(server, answer.json!.accessToken)).status).toBe(200);
  });

  it('a token-mode sign-in is as before: the pair in the body and no cookie', async () => {
    const email = uniqueEmail('token');
    await post(server, '/auth/register', origin, { body: { email, password: PASSWORD } });
    const answer = await post(server, '/auth/login', origin, { body: { email, password: PASSWORD, session: 'token' } });
    expect(answer.status).toBe(200);
    expect(answer.json!.refreshToken).toMatch(TOKEN);
    expect(answer.setCookies).toEqual([]);
  });

  it('refreshes through the cookie: a new access token in the body, the next refresh token as the cookie, and the old one stops working', async () => {
    const first = (await signUp()).setCookies[0]!;
    const refreshed = await post(server, '/auth/refresh', origin, { cookie: cookieOf(first) });
    expect(refreshed.status).toBe(200);
    expect(refreshed.headers.get('cache-control')).toBe('no-store');
    expect(refreshed.json).not.toHaveProperty('refreshToken');
    expect((await getMe(server, refreshed.json!.accessToken)).status).toBe(200);
    const second = refreshed.setCookies[0]!;
    expect(second).toMatch(/^refresh=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/auth; HttpOnly; SameSite=Strict$/);
    expect(tokenOf(second)).not.toBe(tokenOf(first));

    const again = await post(server, '/auth/refresh', origin, { cookie: cookieOf(second) });
    expect(again.status).toBe(200);
    expect(tokenOf(again.setCookies[0]!)).toMatch(TOKEN);
  });

  it('a rotated cookie presented again revokes the whole session and clears the cookie', async () => {
    const first = (await signUp()).setCookies[0]!;
    const next = (await post(server, '/auth/refresh', origin, { cookie: cookieOf(first) })).setCookies[0]!;

    const replay = await post(server, '/auth/refresh', origin, { cookie: cookieOf(first) });
    expect(replay.status).toBe(401);
    expect(replay.json).toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    expect(replay.setCookies).toEqual(['refresh=; Max-Age=0; Path=/auth; HttpOnly; SameSite=Strict']);

    const rightful = await post(server, '/auth/refresh', origin, { cookie: cookieOf(next) });
    expect(rightful.status).toBe(401);
    expect(rightful.json).toMatchObject({ code: 'INVALID_REFRESH_TOKEN' });
  });

  it.each([
    ['from the page’s own origin', {}],
    ['from a plain JSON client (no Origin)', { origin: null }],
    ['from another origin', { origin: 'https://evil.example' }],
  ])('answers a refresh with neither a body token nor a cookie, %s, 400 VALIDATION_FAILED on /body/refreshToken', async (_case, sent: Sent) => {
    const answer = await post(server, '/auth/refresh', origin, sent);
    expect(answer.status).toBe(400);
    expect(answer.json).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/body/refreshToken' }] });
    expect(String(answer.json!.message)).toMatch(/no refresh cookie/);
    expect(answer.setCookies).toEqual([]);
  });

  it('a page with no cookie resumes no session through the SDK, without an error to show', async () => {
    const page = createTaskClient({ baseUrl: server.baseUrl, session: 'cookie' });
    expect(await page.resumeSession()).toEqual({ signedIn: false });
  });

  it.each([
    ['another site’s Origin', { origin: 'https://evil.example' }],
    ['no Origin', { origin: null }],
    ['the same host on another port', { origin: 'http://127.0.0.1:1' }],
  ])('refuses the cookie with %s: 403 ORIGIN_NOT_ALLOWED, and the token is not spent', async (_case, sent: Sent) => {
    const cookie = cookieOf((await signUp()).setCookies[0]!);
    for (const path of ['/auth/refresh', '/auth/logout']) {
      const refused = await post(server, path, origin, { ...sent, cookie });
      expect(refused.status, path).toBe(403);
      expect(refused.json, path).toMatchObject({ statusCode: 403, code: 'ORIGIN_NOT_ALLOWED' });
      expect(String(refused.json!.message)).toContain(origin);
      expect(refused.setCookies, path).toEqual([]);
    }
    expect((await post(server, '/auth/refresh', origin, { cookie })).status).toBe(200);
  });

  it.each([
    ['a form', 'application/x-www-form-urlencoded', ''],
    ['plain text', 'text/plain', '{}'],
  ])('refuses a refresh or sign-out posted as %s, which another site could send without asking, and the token is not spent', async (_case, contentType, body) => {
    const cookie = cookieOf((await signUp()).setCookies[0]!);
    for (const path of ['/auth/refresh', '/auth/logout']) {
      const refused = await post(server, path, origin, { contentType, body, cookie });
      expect(refused.status, path).toBe(415);
      expect(refused.json, path).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
      expect(refused.setCookies, path).toEqual([]);
    }
    expect((await post(server, '/auth/refresh', origin, { cookie })).status).toBe(200);
  });

  it('sets no cookie and creates no account for a cookie sign-in from another origin', async () => {
    const email = uniqueEmail('foreign');
    const refused = await post(server, '/auth/register', origin, { origin: 'https://evil.example', body: { email, password: PASSWORD, session: 'cookie' } });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect(refused.setCookies).toEqual([]);
    // Nothing was created: the same email registers now.
    expect((await post(server, '/auth/register', origin, { body: { email, password: PASSWORD, session: 'cookie' } })).status).toBe(201);
    const login = await post(server, '/auth/login', origin, { origin: 'https://evil.example', body: { email, password: PASSWORD, session: 'cookie' } });
    expect(login.status).toBe(403);
    expect(login.setCookies).toEqual([]);
  });

  it('signs out through the cookie: the session is revoked and the cookie cleared', async () => {
    const cookie = cookieOf((await signUp()).setCookies[0]!);
    const out = await post(server, '/auth/logout', origin, { cookie });
    expect(out.status).toBe(204);
    expect(out.setCookies).toEqual(['refresh=; Max-Age=0; Path=/auth; HttpOnly; SameSite=Strict']);
    const after = await post(server, '/auth/refresh', origin, { cookie });
    expect(after.status).toBe(401);
    expect(after.json).toMatchObject({ code: 'INVALID_REFRESH_TOKEN' });
    // Signing out again (no cookie left) is still a 204 that clears it.
    const again = await post(server, '/auth/logout', origin);
    expect(again.status).toBe(204);
    expect(again.setCookies).toEqual(['refresh=; Max-Age=0; Path=/auth; HttpOnly; SameSite=Strict']);
  });

  it('takes the body’s refresh token over a cookie, with no Origin needed (the token is the credential)', async () => {
    const email = uniqueEmail('body');
    const pair = (await post(server, '/auth/register', origin, { body: { email, password: PASSWORD } })).json!;
    const cookie = cookieOf((await signUp()).setCookies[0]!);
    const answer = await post(server, '/auth/refresh', origin, { origin: null, body: { refreshToken: pair.refreshToken }, cookie });
    expect(answer.status).toBe(200);
    expect(answer.json!.refreshToken).toMatch(TOKEN);
    expect(answer.setCookies).toEqual([]);
    // The cookie's token was not touched.
    expect((await post(server, '/auth/refresh', origin, { cookie })).status).toBe(200);
  });
});

describe('a cookie session behind https (PUBLIC_URL)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { PUBLIC_URL: PUBLIC_ORIGIN } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sets `__Host-refresh` with Secure and Path=/ (the prefix requires both), and reads only that name', async () => {
    const email = uniqueEmail('https');
    const answer = await post(server, '/auth/register', PUBLIC_ORIGIN, { body: { email, password: PASSWORD, session: 'cookie' } });
    expect(answer.status).toBe(201);
    const [setCookie] = answer.setCookies as [string];
    expect(setCookie).toMatch(/^__Host-refresh=[A-Za-z0-9_-]{43}; /);
    expect(setCookie.split('; ').slice(1).sort()).toEqual(['HttpOnly', 'Max-Age=2592000', 'Path=/', 'SameSite=Strict', 'Secure']);

    const underPlainName = await post(server, '/auth/refresh', PUBLIC_ORIGIN, { cookie: `refresh=${tokenOf(setCookie)}` });
    // Not read under the plain name: to the service the request carries no refresh cookie.
    expect(underPlainName.status).toBe(400);
    const refreshed = await post(server, '/auth/refresh', PUBLIC_ORIGIN, { cookie: cookieOf(setCookie) });
    expect(refreshed.status).toBe(200);
    expect(refreshed.setCookies[0]).toMatch(/^__Host-refresh=[A-Za-z0-9_-]{43}; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Strict$/);

    const out = await post(server, '/auth/logout', PUBLIC_ORIGIN, { cookie: cookieOf(refreshed.setCookies[0]!) });
    expect(out.status).toBe(204);
    expect(out.setCookies).toEqual(['__Host-refresh=; Max-Age=0; Path=/; HttpOnly; Secure; SameSite=Strict']);
  });

  it('takes the Origin of PUBLIC_URL only, not the address the request came to', async () => {
    const email = uniqueEmail('https');
    const refused = await post(server, '/auth/login', server.baseUrl, { body: { email, password: PASSWORD, session: 'cookie' } });
    expect(refused.status).toBe(403);
    expect(String(refused.json!.message)).toContain(PUBLIC_ORIGIN);
  });
});

describe('the fence of a cookie session', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '4', RATE_LIMIT_BURST_PER_MINUTE: '100' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is the `web` client’s: it shares the fence with a token-mode session of the account, not with an API token', async () => {
    await awayFromMinuteEnd();
    const origin = server.baseUrl;
    const email = uniqueEmail('fence');
    const cookieSession = (await post(server, '/auth/register', origin, { body: { email, password: PASSWORD, session: 'cookie' } })).json!;
    const tokenSession = (await post(server, '/auth/login', origin, { body: { email, password: PASSWORD } })).json!;
    const created = await fetch(`${server.baseUrl}/api-tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${String(tokenSession.accessToken)}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'script' }),
    });
    const apiToken = ((await created.json()) as { token: string }).token;

    // The token's creation was the web client's first request of the minute (of 4).
    expect(limitHeaders(await getMe(server, cookieSession.accessToken))['remaining-client']).toBe(2);
    expect(limitHeaders(await getMe(server, tokenSession.accessToken))['remaining-client']).toBe(1);
    expect(limitHeaders(await getMe(server, cookieSession.accessToken))['remaining-client']).toBe(0);
    const fenced = await getMe(server, cookieSession.accessToken);
    expect(fenced.status).toBe(429);
    expect(((await fenced.json()) as { window: string }).window).toBe('client-burst');
    // Another client of the same account has a fence of its own.
    const other = await getMe(server, apiToken);
    expect(other.status).toBe(200);
    expect(limitHeaders(other)['remaining-client']).toBe(3);
  });
});

describe('the refresh budget of a cookie session', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_REFRESH_BURST_PER_MINUTE: '5' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('is keyed by the account of the cookie’s token, as a body token’s is, not by the client’s address', async () => {
    await awayFromMinuteEnd();
    const origin = server.baseUrl;
    const cookieOfNewAccount = async () =>
      cookieOf((await post(server, '/auth/register', origin, { body: { email: uniqueEmail('budget'), password: PASSWORD, session: 'cookie' } })).setCookies[0]!);
    const first = await cookieOfNewAccount();
    const second = await cookieOfNewAccount();
    const remaining = async (cookie: string) => {
      const answer = await post(server, '/auth/refresh', origin, { cookie });
      expect(answer.status).toBe(200);
      return { remaining: Number(answer.headers.get('x-ratelimit-remaining')), next: cookieOf(answer.setCookies[0]!) };
    };
    const a1 = await remaining(first);
    const a2 = await remaining(a1.next);
    expect([a1.remaining, a2.remaining]).toEqual([4, 3]);
    // Another account from the same address starts its own count.
    expect((await remaining(second)).remaining).toBe(4);
  });
});
