import type { operations } from '../../generated/api.js';
import type { Scope } from '../http/caller.js';
import type { OAuthClient } from './clients.service.js';
import { matchesRegisteredRedirectUri } from './redirect-uris.js';
import { INVALID_TARGET_DESCRIPTION, resolveResource } from './resources.js';
import { resolveScopes } from './scopes.js';

/**
 * The parameters of an authorisation request, as the query or the consent form carries them: all
 * optional strings in the document, so protocol errors become RFC 6749 redirects, not VALIDATION_FAILED.
 */
export type AuthorizationParams = NonNullable<operations['authorize']['parameters']['query']>;

/** A request that passed every check: what the consent page shows and the code will carry. */
export interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  state: string | undefined;
  scopes: Scope[];
  /** RFC 8707: the `aud` the tokens will carry, the MCP server's URL; null for the REST API. */
  resource: string | null;
}

export type AuthorizationError = 'invalid_request' | 'unsupported_response_type' | 'invalid_scope' | 'invalid_target' | 'access_denied';

export type ParsedAuthorization =
  | { kind: 'valid'; request: AuthorizationRequest }
  /** The client or its redirect URI is not verified: tell the person, never redirect (RFC 6749 §4.1.2.1). */
  | { kind: 'error-page'; message: string }
  /** The redirect URI is verified: the client hears of the problem there. */
  | { kind: 'redirect-error'; redirectUri: string; error: AuthorizationError; description: string; state: string | undefined };

export const PARAM_NAMES = ['response_type', 'client_id', 'redirect_uri', 'code_challenge', 'code_challenge_method', 'state', 'scope', 'resource'] as const;

// RFC 7636 §4.2: BASE64URL(SHA-256(verifier)) is 43 characters; the ABNF allows up to 128.
const CODE_CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/;
// RFC 6749 Appendix A.5: state is VSCHAR (printable ASCII).
const VSCHAR = /^[\x20-\x7e]*$/;

/** Checks an authorisation request in the order RFC 6749 §4.1.2.1 asks for. */
export async function parseAuthorizationRequest(
  params: AuthorizationParams,
  findClient: (clientId: string) => Promise<OAuthClient | undefined>,
  baseUrl: string,
): Promise<ParsedAuthorization> {
  const clientId = params.client_id;
  if (!clientId) return { kind: 'error-page', message: 'The app did not say who it is (client_id is missing).' };
  const client = await findClient(clientId);
  if (!client) return { kind: 'error-page', message: 'This app is not registered with the Task Service (unknown client_id).' };
  const redirectUri = params.redirect_uri;
  if (!redirectUri) return { kind: 'error-page', message: 'The app did not say where to return (redirect_uri is missing).' };
  if (!matchesRegisteredRedirectUri(redirectUri, client.redirectUris)) {
    return { kind: 'error-page', message: 'The address this app asked to return to is not one it registered (redirect_uri mismatch).' };
  }

  const state = params.state;
  const fail = (error: AuthorizationError, description: string): ParsedAuthorization => ({
    kind: 'redirect-error',
    redirectUri,
    error,
    description,
    // A state that is not printable ASCII is not echoed back: it is the reason for the refusal.
    state: state !== undefined && VSCHAR.test(state) ? state : undefined,
  });
  if (state !== undefined && !VSCHAR.test(state)) return fail('invalid_request', 'state must be printable ASCII.');
  if (!params.response_type) return fail('invalid_request', 'response_type is required.');
  if (params.response_type !== 'code') return fail('unsupported_response_type', 'Only response_type=code is supported.');
  if (!params.code_challenge) return fail('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256.');
  if (params.code_challenge_method !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
  }
  if (!CODE_CHALLENGE.test(params.code_challenge)) {
    return fail('invalid_request', 'code_challenge must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~".');
  }
  const scopes = resolveScopes(params.scope, client.scopes);
  if (!scopes.ok) {
    const names = [...scopes.unknown, ...scopes.beyond].join(' ');
    return fail('invalid_scope', `Scopes not available to this client: ${names}.`);
  }
  if (scopes.scopes.length === 0) return fail('invalid_scope', 'No scope to grant.');
  const resource = resolveResource(params.resource, baseUrl);
  if (!resource.ok) return fail('invalid_target', INVALID_TARGET_DESCRIPTION);
  return {
    kind: 'valid',
    request: { client, redirectUri, codeChallenge: params.code_challenge, state, scopes: scopes.scopes, resource: resource.audience },
  };
}

/** The client's redirect URI with the response parameters added (its own query kept). */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return url.href;
}
