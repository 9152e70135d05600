import type { Request } from 'express';
import type { Scope } from '../http/caller.js';
import { operation, type OperationEntry } from '../http/operations.js';
import { publicBaseUrl } from '../http/public-url.js';
import type { Authorizations } from './authorizations.service.js';
import { errors, type OAuthErrorCode } from '../platform/errors.js';
import type { Clients } from './clients.service.js';
import { pageHeaders } from './consent-page.js';
import type { Consent, ConsentOutcome } from './consent.service.js';
import { DEVICE_CODE_GRANT, type DeviceGrant } from './device-grant.service.js';
import { authorizationServerMetadata, mcpProtectedResourceMetadata, protectedResourceMetadata } from './metadata.js';
import type { OAuthLibraryAdapter } from './oauth-library.adapter.js';

export interface OAuthOperationsDeps {
  publicUrl: string | undefined;
  clients: Clients;
  consent: Consent;
  library: OAuthLibraryAdapter;
  /** The device_code grant of /oauth/token (RFC 8628); the library serves the others. */
  deviceGrant: DeviceGrant;
  revoke: (token: string, clientId: string | undefined) => Promise<void>;
  authorizations: Authorizations;
  /** What a token for /mcp can use, advertised in its resource metadata. */
  mcpScopes: readonly Scope[];
}

/** /.well-known/* and /oauth/* but the device pages: the validator has checked shapes and callers before these run. */
export function oauthOperations(deps: OAuthOperationsDeps): OperationEntry[] {
  const { publicUrl, clients, consent, library, deviceGrant, revoke, authorizations, mcpScopes } = deps;
  const baseUrl = (req: Request) => publicBaseUrl(req, publicUrl);
  const origin = (req: Request) => ({ issuer: baseUrl(req), cookieHeader: req.headers.cookie });

  return [
    operation('getAuthorizationServerMetadata', ({ req }) => ({ status: 200, body: authorizationServerMetadata(baseUrl(req)) })),
    operation('getProtectedResourceMetadata', ({ req }) => ({ status: 200, body: protectedResourceMetadata(baseUrl(req)) })),
    operation('getMcpProtectedResourceMetadata', ({ req }) => ({ status: 200, body: mcpProtectedResourceMetadata(baseUrl(req), mcpScopes) })),
    operation('registerOAuthClient', async ({ body }) => ({ status: 201, headers: { 'Cache-Control': 'no-store' }, body: await clients.register(body) })),
    operation('authorize', async ({ req, query }) => pageOrRedirect(await consent.show(query, origin(req)), 302)),
    // 303: the browser follows a form post's redirect with a GET.
    operation('submitAuthorization', async ({ req, body }) => pageOrRedirect(await consent.submit(body, origin(req)), 303)),
    operation('issueOAuthToken', async ({ req, body }) => {
      const outcome = body.grant_type === DEVICE_CODE_GRANT
        ? await deviceGrant.token(body)
        : await library.token({ headers: req.headers, method: req.method, body, baseUrl: baseUrl(req) });
      if (outcome.ok) return { status: 200, headers: NO_STORE, body: outcome.body };
      // RFC 6749 §5.2: a client that tried the Authorization header is challenged in its own scheme.
      const scheme = AUTH_SCHEME.exec(req.headers.authorization ?? '')?.[1];
      const challenge: Record<string, string> = outcome.status === 401 && scheme ? { 'WWW-Authenticate': `${scheme} realm="task-service"` } : {};
      throw errors.oauth(outcome.status, outcome.body.error as OAuthErrorCode, outcome.body.error_description, challenge);
    }),
    operation('revokeOAuthToken', async ({ body }) => {
      if (!body.token) throw errors.oauth(400, 'invalid_request', 'token is required.');
      await revoke(body.token, body.client_id);
      return { status: 200 };
    }),
    operation('listAuthorizations', async ({ caller }) => ({ status: 200, body: await authorizations.list(caller) })),
    operation('revokeAuthorization', async ({ caller, params }) => {
      await authorizations.revoke(caller, params.clientId);
      return { status: 204 };
    }),
  ];
}

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

function pageOrRedirect<Status extends 302 | 303>(outcome: ConsentOutcome, redirectStatus: Status) {
  // No body: Express's redirect would send a text/plain one the document does not declare.
  if (outcome.kind === 'redirect') return { status: redirectStatus, headers: { 'Cache-Control': 'no-store', Location: outcome.location } };
  return { status: outcome.status, headers: { ...outcome.headers, ...pageHeaders(outcome.redirectUri) }, body: outcome.html };
}

/** The scheme token of an Authorization header (RFC 9110 §11.1), never what follows it: that holds credentials. */
const AUTH_SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]|$)/;

