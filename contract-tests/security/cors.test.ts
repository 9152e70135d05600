import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd } from '../support/limits.js';
import { APP_REDIRECT, pkcePair, registeredApp } from '../support/oauth.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

const APP_ORIGIN = 'https://app.example.com';
const REQUIRED_EXPOSED = ['retry-after', 'location', 'www-authenticate', 'etag', 'deprecation', 'sunset', 'link'];

const exposed = (response: Response) =>
  (response.headers.get('access-control-expose-headers') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter(Boolean);
/** X-RateLimit-* and the standard RateLimit-Policy and RateLimit (decisions §17). */
const rateLimitHeadersOf = (response: Response) => [...response.headers.keys()].filter((name) => /^(x-)?ratelimit(-|$)/.test(name));

function preflight(server: TestServer, path: string, method: string, origin = APP_ORIGIN, requestHeaders = 'authorization, content-type') {
  return fetch(`${server.baseUrl}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': requestHeaders },
  });
}

describe('CORS with the default CORS_ALLOWED_ORIGINS (*)', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_BURST_PER_MINUTE: '50' } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers a preflight for an API operation with 204 and the allowed method and headers, no credentials mode', async () => {
    const response = await preflight(server, '/tasks', 'POST', APP_ORIGIN, 'authorization, content-type, idempotency-key');
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('idempotency-key');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(rateLimitHeadersOf(response)).toEqual([]);
  });

  it('preflights spend no budget: 60 of them leave the 50-a-minute anonymous budget of this address where it was', async () => {
    // A browser never sends credentials on a preflight: were it counted, it would be as anonymous, by IP.
    const anonymous = () => fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`, { headers: { origin: APP_ORIGIN } });
    await awayFromMinuteEnd();
    const before = Number((await anonymous()).headers.get('x-ratelimit-remaining'));
    const preflights = await Promise.all(Array.from({ length: 60 }, () => preflight(server, '/tasks', 'GET')));
    expect(new Set(preflights.map((response) => response.status))).toEqual(new Set([204]));
    const after = await anonymous();
    expect(after.status).toBe(200);
    expect(Number(after.headers.get('x-ratelimit-remaining'))).toBe(before - 1);
  });

  it('an API answer carries Allow-Origin and exposes Retry-After, Location, WWW-Authenticate, ETag, Deprecation, Sunset, Link and every rate-limit header it sends', async () => {
    const { tokens } = await signedInClient(server);
    const response = await fetch(`${server.baseUrl}/tasks`, { headers: { authorization: `Bearer ${tokens.accessToken}`, origin: APP_ORIGIN } });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const sent = rateLimitHeadersOf(response);
    expect(sent).toEqual(expect.arrayContaining(['x-ratelimit-remaining', 'x-ratelimit-remaining-client', 'ratelimit-policy', 'ratelimit']));
    expect(exposed(response)).toEqual(expect.arrayContaining([...REQUIRED_EXPOSED, ...sent]));

    // An error answer too: a browser app must read the challenge of a 401.
    const refused = await fetch(`${server.baseUrl}/tasks`, { headers: { origin: APP_ORIGIN } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('www-authenticate')).not.toBeNull();
  });

  it('a call without an Origin carries the same Allow-Origin and exposed headers as one with it', async () => {
    const { tokens } = await signedInClient(server);
    const headers = { authorization: `Bearer ${tokens.accessToken}` };
    const withOrigin = await fetch(`${server.baseUrl}/tasks`, { headers: { ...headers, origin: APP_ORIGIN } });
    const without = await fetch(`${server.baseUrl}/tasks`, { headers });
    expect(without.headers.get('access-control-allow-origin')).toBe(withOrigin.headers.get('access-control-allow-origin'));
    expect(exposed(without)).toEqual(exposed(withOrigin));
  });

  it('the token, revocation and registration endpoints, the well-known documents and /mcp answer CORS', async () => {
    for (const [path, method] of [
      ['/oauth/token', 'POST'],
      ['/oauth/revoke', 'POST'],
      ['/oauth/register', 'POST'],
      ['/.well-known/oauth-authorization-server', 'GET'],
      ['/.well-known/oauth-protected-resource', 'GET'],
      ['/mcp', 'POST'],
    ] as const) {
      const response = await preflight(server, path, method);
      expect({ path, status: response.status, origin: response.headers.get('access-control-allow-origin') }).toEqual({ path, status: 204, origin: '*' });
    }
    const metadata = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`, { headers: { origin: APP_ORIGIN } });
    expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
    const token = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { origin: APP_ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'nope', client_id: 'taskctl' }),
    });
    expect(token.status).toBe(400);
    expect(token.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('the sign-in and consent pages never answer CORS and are never framed', async () => {
    const clientId = await registeredApp(server);
    const { challenge } = pkcePair();
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: APP_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256', state: 's' });
    for (const path of [`/oauth/authorize?${query}`, '/oauth/device', '/OAuth/Authorize/']) {
      const page = await fetch(`${server.baseUrl}${path}`, { headers: { origin: APP_ORIGIN }, redirect: 'manual' });
      expect({ path, origin: page.headers.get('access-control-allow-origin') }).toEqual({ path, origin: null });
      expect(page.headers.get('x-frame-options')).toBe('DENY');
      expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    }
    for (const path of ['/oauth/authorize', '/oauth/device']) {
      const response = await preflight(server, path, 'POST');
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
    }
  });
});

describe('CORS with a list of allowed origins', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { CORS_ALLOWED_ORIGINS: `${APP_ORIGIN}, http://127.0.0.1:5555` } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('reflects an allowed origin (with Vary: Origin) and gives another origin nothing to read', async () => {
    for (const origin of [APP_ORIGIN, 'http://127.0.0.1:5555']) {
      const response = await preflight(server, '/tasks', 'GET', origin);
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(origin);
      expect(response.headers.get('vary')?.toLowerCase()).toContain('origin');
    }
    const foreign = await preflight(server, '/tasks', 'GET', 'https://evil.example.com');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`, { headers: { origin: 'https://evil.example.com' } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
  });
});
