/** An RFC 6749 §5.2 refusal of a token request. */
export type TokenRefusal = { ok: false; status: 400 | 401; body: { error: string; error_description: string } };

export const GRANTS = ['authorization_code', 'refresh_token'];
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** Refusals that need no database: missing parameters, grants we do not offer, a malformed verifier. */
export function precheckTokenRequest(body: Record<string, string | undefined>, hasAuthorizationHeader: boolean): TokenRefusal | undefined {
  const invalid = (description: string): TokenRefusal => ({ ok: false, status: 400, body: { error: 'invalid_request', error_description: description } });
  const grantType = body.grant_type;
  if (!grantType) return invalid('grant_type is required.');
  if (!GRANTS.includes(grantType)) {
    return { ok: false, status: 400, body: { error: 'unsupported_grant_type', error_description: 'Only the authorization_code, refresh_token and urn:ietf:params:oauth:grant-type:device_code grants are supported.' } };
  }
  if (!body.client_id && !hasAuthorizationHeader) return invalid('client_id is required.');
  if (grantType === 'refresh_token') return body.refresh_token ? undefined : invalid('refresh_token is required.');
  for (const name of ['code', 'redirect_uri', 'code_verifier']) {
    if (!body[name]) return invalid(`${name} is required${name === 'code_verifier' ? ' (PKCE with S256)' : ''}.`);
  }
  if (!CODE_VERIFIER.test(body.code_verifier!)) return invalid('code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~".');
  return undefined;
}
