// OAuth clients (oauth4webapi, openid-client) read `error` from every refusal: a body of another content
// type than the endpoint takes is a 400 in the OAuth body (RFC 6749 section 5.2, RFC 7591 section 3.2.2),
// never the common body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOAuthError } from '../support/oauth.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const post = async (path: string, contentType: string, body: string) => {
  const response = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });
  return { response, body: (await response.json()) as Record<string, unknown> };
};

describe('a body of the wrong content type at the OAuth endpoints', () => {
  it.each([
    ['/oauth/token', JSON.stringify({ grant_type: 'refresh_token', refresh_token: 'x', client_id: 'taskctl' })],
    ['/oauth/revoke', JSON.stringify({ token: 'never-issued' })],
    ['/oauth/device_authorization', JSON.stringify({ client_id: 'taskctl' })],
  ])('POST %s with a JSON body is 400 invalid_request, saying which type to send', async (path, json) => {
    const answer = await post(path, 'application/json', json);
    expectOAuthError(answer, 400, 'invalid_request');
    expect(answer.body.error_description).toContain('application/x-www-form-urlencoded');
    expect(answer.response.headers.get('cache-control')).toBe('no-store');
  });

  it('POST /oauth/token with a plain-text body is 400 invalid_request as well', async () => {
    expectOAuthError(await post('/oauth/token', 'text/plain', 'grant_type=refresh_token'), 400, 'invalid_request');
  });

  it('POST /oauth/register with a form body is 400 invalid_client_metadata, saying to send JSON', async () => {
    const answer = await post('/oauth/register', 'application/x-www-form-urlencoded', 'redirect_uris=http%3A%2F%2F127.0.0.1%2Fcb');
    expectOAuthError(answer, 400, 'invalid_client_metadata');
    expect(answer.body.error_description).toContain('application/json');
  });

  it('the form (and JSON for registration) are still taken', async () => {
    const token = await post('/oauth/token', 'application/x-www-form-urlencoded', 'grant_type=refresh_token&refresh_token=nope&client_id=taskctl');
    expectOAuthError(token, 400, 'invalid_grant');
    const registered = await post('/oauth/register', 'application/json', JSON.stringify({ redirect_uris: ['http://127.0.0.1/cb'] }));
    expect(registered.response.status).toBe(201);
  });
});
