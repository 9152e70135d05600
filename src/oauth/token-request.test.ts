import { describe, expect, it } from 'vitest';
import { precheckTokenRequest } from './token-request.js';

const code = { grant_type: 'authorization_code', client_id: 'taskctl', code: 'c', redirect_uri: 'http://127.0.0.1/cb', code_verifier: 'v'.repeat(43) };
const refusal = (body: Record<string, string | undefined>, hasAuthorizationHeader = false) => precheckTokenRequest(body, hasAuthorizationHeader)?.body;

describe('token requests refused before any lookup', () => {
  it('lets complete requests through to the grant', () => {
    expect(refusal(code)).toBeUndefined();
    expect(refusal({ grant_type: 'refresh_token', client_id: 'taskctl', refresh_token: 'r' })).toBeUndefined();
  });

  it('answers unsupported_grant_type for every grant but ours, the library built-ins included', () => {
    for (const grantType of ['password', 'client_credentials', 'implicit', 'urn:ietf:params:oauth:grant-type:device_code']) {
      expect(refusal({ ...code, grant_type: grantType })).toMatchObject({ error: 'unsupported_grant_type' });
    }
  });

  it('makes PKCE mandatory: no verifier, or one outside RFC 7636 §4.1, is invalid_request', () => {
    expect(refusal({ ...code, code_verifier: undefined })).toEqual({ error: 'invalid_request', error_description: 'code_verifier is required (PKCE with S256).' });
    expect(refusal({ ...code, code_verifier: 'v'.repeat(42) })).toMatchObject({ error: 'invalid_request' });
    expect(refusal({ ...code, code_verifier: `${'v'.repeat(43)}+` })).toMatchObject({ error: 'invalid_request' });
  });

  it('requires the code, the redirect URI and the client (unless it authenticates by header, which the client lookup refuses)', () => {
    for (const missing of ['code', 'redirect_uri', 'client_id', 'grant_type']) {
      expect(refusal({ ...code, [missing]: undefined })).toMatchObject({ error: 'invalid_request' });
    }
    expect(refusal({ ...code, client_id: undefined }, true)).toBeUndefined();
  });
});
