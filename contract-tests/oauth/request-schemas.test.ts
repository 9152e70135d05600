// The rules the OAuth operations' request schemas state (openapi/openapi.yaml: OAuthClientRegistrationRequest,
// OAuthTokenRequest, OAuthRevokeRequest, DeviceAuthorizationRequest, DeviceVerificationForm): refused
// before the handler runs, in the operation's own error body, with the error code the server's own check
// gave before the schema said it; the rules with an error code of their own stay the server's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_REDIRECT, expectOAuthError, registerClient, tokenRequest } from '../support/oauth.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const form = async (path: string, fields: Record<string, string>) => {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
};

describe('client registration (RFC 7591) refuses metadata the schema rules out with invalid_client_metadata', () => {
  it.each([
    ['application_type "desktop"', { application_type: 'desktop' }],
    ['an empty application_type', { application_type: '' }],
    ['grant_types without authorization_code', { grant_types: ['refresh_token'] }],
    ['no grant_types at all', { grant_types: [] }],
    ['no response_types at all', { response_types: [] }],
    ['a client_name over 200 characters', { client_name: 'n'.repeat(201) }],
    ['an empty scope', { scope: '' }],
    ['a scope of spaces only', { scope: '   ' }],
    ['a scope naming an unknown scope', { scope: 'tasks:read tasks:admin' }],
  ])('%s is 400 invalid_client_metadata', async (_name, metadata) => {
    expectOAuthError(await registerClient(server, { redirect_uris: [APP_REDIRECT], ...metadata }), 400, 'invalid_client_metadata');
  });

  it('a redirect URI the server refuses keeps its own error, invalid_redirect_uri, also when other fields are fine', async () => {
    expectOAuthError(await registerClient(server, { redirect_uris: ['http://app.example.com/cb'], application_type: 'web' }), 400, 'invalid_redirect_uri');
    expectOAuthError(await registerClient(server, { client_name: 'No redirect URIs' }), 400, 'invalid_redirect_uri');
  });

  it('accepts both application types, and a scope with extra spaces, answering the scopes in their canonical order', async () => {
    const web = await registerClient(server, { redirect_uris: [APP_REDIRECT], application_type: 'web' });
    expect(web.response.status).toBe(201);
    expect(web.body.application_type).toBe('web');
    const native = await registerClient(server, { redirect_uris: ['http://127.0.0.1/cb'], application_type: 'native', scope: ' tasks:write  tasks:read ' });
    expect(native.response.status).toBe(201);
    expect(native.body).toMatchObject({ application_type: 'native', scope: 'tasks:read tasks:write' });
  });
});

describe('token revocation (RFC 7009) needs a token', () => {
  it('a missing token is 400 invalid_request', async () => {
    expectOAuthError(await form('/oauth/revoke', { token_type_hint: 'refresh_token' }), 400, 'invalid_request');
  });

  it('an empty token is 400 invalid_request', async () => {
    expectOAuthError(await form('/oauth/revoke', { token: '' }), 400, 'invalid_request');
  });

  it('a token nobody issued is still 200 (RFC 7009 §2.2)', async () => {
    const response = await fetch(`${server.baseUrl}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: 'never-issued' }),
    });
    expect(response.status).toBe(200);
  });
});

describe('the token endpoint (RFC 6749) needs a grant_type', () => {
  it('a missing or empty grant_type is 400 invalid_request', async () => {
    expectOAuthError(await tokenRequest(server, { client_id: 'taskctl', refresh_token: 'r' }), 400, 'invalid_request');
    expectOAuthError(await tokenRequest(server, { grant_type: '', client_id: 'taskctl', refresh_token: 'r' }), 400, 'invalid_request');
  });

  it('a grant it does not offer keeps its own error, unsupported_grant_type', async () => {
    expectOAuthError(await tokenRequest(server, { grant_type: 'password', client_id: 'taskctl', username: 'a', password: 'b' }), 400, 'unsupported_grant_type');
  });
});

describe('the device authorization request (RFC 8628) needs a client_id', () => {
  it('an empty client_id is 400 invalid_request', async () => {
    expectOAuthError(await form('/oauth/device_authorization', { client_id: '' }), 400, 'invalid_request');
  });

  it('a malformed scope keeps its own error, invalid_scope (RFC 6749 §5.2), as an unknown one does', async () => {
    expectOAuthError(await form('/oauth/device_authorization', { client_id: 'taskctl', scope: 'tasks:read "tasks:write"' }), 400, 'invalid_scope');
  });
});

describe('the device verification page takes a user code or none, never an empty one', () => {
  it('GET /oauth/device?user_code= is 400 VALIDATION_FAILED in the common body, naming the parameter', async () => {
    const response = await fetch(`${server.baseUrl}/oauth/device?user_code=`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; details: { path: string }[] };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details.map((detail) => detail.path)).toContain('/query/user_code');
  });

  it('without user_code it is the page asking for the code (200)', async () => {
    const response = await fetch(`${server.baseUrl}/oauth/device`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  });
});

describe('the device approval form needs the user code it was shown for', () => {
  it.each([
    ['without user_code', { csrf_token: 'v1.1.x', decision: 'deny' }],
    ['with an empty user_code', { user_code: '', csrf_token: 'v1.1.x', decision: 'deny' }],
  ])('a form %s is 400 VALIDATION_FAILED in the common body, naming the field', async (_name, fields) => {
    const response = await fetch(`${server.baseUrl}/oauth/device`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { code: string; details: { path: string }[] };
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(body.details.map((detail) => detail.path)).toContain('/body/user_code');
  });
});
