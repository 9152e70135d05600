import { describe, expect, it } from 'vitest';
import { parseAuthorizationRequest, redirectWith, type AuthorizationParams } from './authorization-request.js';
import { TASKCTL, type OAuthClient } from './clients.service.js';

const APP: OAuthClient = { id: 'app', name: 'App', redirectUris: ['https://app.example.com/cb'], scopes: ['tasks:read', 'tasks:write'] };
const clients = new Map([
  [APP.id, APP],
  [TASKCTL.id, TASKCTL],
]);
const find = async (id: string) => clients.get(id);
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const valid: AuthorizationParams = {
  response_type: 'code',
  client_id: 'app',
  redirect_uri: 'https://app.example.com/cb',
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  state: 'abc',
};
const parse = (overrides: Partial<Record<keyof AuthorizationParams, string | undefined>>) => parseAuthorizationRequest({ ...valid, ...overrides }, find, 'https://tasks.example');

describe('checking an authorisation request', () => {
  it('accepts a complete request and defaults the scope to what the client registered', async () => {
    expect(await parse({})).toEqual({
      kind: 'valid',
      request: { client: APP, redirectUri: 'https://app.example.com/cb', codeChallenge: CHALLENGE, state: 'abc', scopes: ['tasks:read', 'tasks:write'], resource: null },
    });
  });

  it('shows an error page, not a redirect, while the client or its redirect URI is not verified', async () => {
    for (const overrides of [{ client_id: undefined }, { client_id: 'nobody' }, { redirect_uri: undefined }, { redirect_uri: 'https://evil.example.com/cb' }]) {
      // Even when everything else is wrong too.
      expect((await parse({ ...overrides, response_type: 'token', code_challenge: undefined })).kind).toBe('error-page');
    }
  });

  it.each([
    [{ response_type: undefined }, 'invalid_request'],
    [{ response_type: 'token' }, 'unsupported_response_type'],
    [{ code_challenge: undefined }, 'invalid_request'],
    [{ code_challenge_method: undefined }, 'invalid_request'],
    [{ code_challenge_method: 'plain' }, 'invalid_request'],
    [{ code_challenge: 'too-short' }, 'invalid_request'],
    [{ code_challenge: `${CHALLENGE}+/=` }, 'invalid_request'],
    [{ scope: 'tasks:read connectors:read' }, 'invalid_scope'],
    [{ scope: 'tasks:read profile' }, 'invalid_scope'],
  ] as const)('redirects %o with %s and the state', async (overrides, error) => {
    expect(await parse(overrides)).toMatchObject({ kind: 'redirect-error', redirectUri: 'https://app.example.com/cb', error, state: 'abc' });
  });

  it('refuses a state that is not printable ASCII, without echoing it', async () => {
    expect(await parse({ state: 'caf\u00e9' })).toMatchObject({ kind: 'redirect-error', error: 'invalid_request', state: undefined });
  });

  it('accepts the CLI on any loopback port', async () => {
    const parsed = await parseAuthorizationRequest({ ...valid, client_id: 'taskctl', redirect_uri: 'http://127.0.0.1:61234/callback' }, find, 'https://tasks.example');
    expect(parsed).toMatchObject({ kind: 'valid', request: { redirectUri: 'http://127.0.0.1:61234/callback' } });
  });
});

describe('the redirect back to the client', () => {
  it('keeps the redirect URI query, encodes the values, and leaves out absent ones', () => {
    expect(redirectWith('https://app.example.com/cb?tenant=7', { code: 'a b&c', state: undefined, iss: 'http://x' })).toBe(
      'https://app.example.com/cb?tenant=7&code=a+b%26c&iss=http%3A%2F%2Fx',
    );
    expect(redirectWith('com.example.app:/cb', { error: 'access_denied' })).toBe('com.example.app:/cb?error=access_denied');
  });
});

describe('the resource of an authorisation request (RFC 8707)', () => {
  it('binds the grant to the MCP server for {base}/mcp, to the REST API for the base URL or no resource, and refuses others with invalid_target', async () => {
    const withResource = (resource: string | undefined) => parseAuthorizationRequest({ ...valid, resource }, find, 'https://tasks.example');
    expect(await withResource('https://tasks.example/mcp')).toMatchObject({ kind: 'valid', request: { resource: 'https://tasks.example/mcp' } });
    for (const rest of [undefined, 'https://tasks.example', 'https://tasks.example/']) {
      expect(await withResource(rest)).toMatchObject({ kind: 'valid', request: { resource: null } });
    }
    for (const other of ['https://evil.example/mcp', 'https://tasks.example/mcp#x', 'https://tasks.example/tasks', 'tasks']) {
      expect(await withResource(other)).toMatchObject({ kind: 'redirect-error', error: 'invalid_target', state: 'abc' });
    }
  });
});
