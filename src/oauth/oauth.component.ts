import type { AuthComponent } from '../auth/auth.component.js';
import type { CoreDeps } from '../deps.js';
import type { OperationEntry } from '../http/operations.js';
import { createAuthorizationCodesRepository } from './authorization-codes.repository.js';
import { createAuthorizationsRepository } from './authorizations.repository.js';
import { createAuthorizations } from './authorizations.service.js';
import { createClientsRepository } from './clients.repository.js';
import { createClients, type FetchClientDocument } from './clients.service.js';
import { createConsent } from './consent.service.js';
import { createCsrf, csrfKey } from './csrf.js';
import { createDeviceCodesRepository } from './device-codes.repository.js';
import { createDeviceGrant } from './device-grant.service.js';
import { createDeviceVerification } from './device-verification.service.js';
import { deviceOperations } from './device.operations.js';
import { createOAuthLibraryAdapter } from './oauth-library.adapter.js';
import { oauthOperations } from './oauth.operations.js';
import type { Scope } from '../http/caller.js';

export { oauthPageHeaders } from './consent-page.js';
import { createRevocation } from './revocation.service.js';

export interface OAuthComponent {
  /** /.well-known/oauth-*, /oauth/*. */
  operations: OperationEntry[];
}

/** The OAuth 2.0 authorisation server (docs/signing-in.md), built on the auth component's sign-in and tokens. */
export function createOAuthComponent(
  { config, db, logger }: CoreDeps,
  auth: Pick<AuthComponent, 'verifyCredentials' | 'tokenPairs' | 'accessTokens' | 'deriveKey' | 'revokeApiTokensOfOAuthClient'>,
  /** The scopes a token for /mcp can use (the MCP component's `mcpScopes`), advertised in its resource metadata. */
  mcpScopes: readonly Scope[],
  /** Client ID Metadata Documents, fetched through the connectors' safe fetch; without it, only registered clients. */
  fetchClientDocument?: FetchClientDocument,
  /** Told when an account withdraws an app's authorisation, after its tokens are revoked (its webhooks go). */
  onAuthorizationWithdrawn?: (accountId: string, clientId: string) => Promise<unknown>,
): OAuthComponent {
  const clients = createClients(createClientsRepository(db), fetchClientDocument, (clientId, reason) =>
    logger.info({ clientId, reason }, 'client metadata document refused'),
  );
  const codes = createAuthorizationCodesRepository(db);
  const authorizationsRepository = createAuthorizationsRepository(db);
  const library = createOAuthLibraryAdapter({
    findClient: clients.find,
    codes,
    tokenPairs: auth.tokenPairs,
    accessTokens: auth.accessTokens,
    refreshLifetimeSeconds: config.JWT_REFRESH_EXPIRES,
  });
  // Keyed from the signing secret, so every instance behind a load balancer accepts every other's forms.
  const csrf = createCsrf(auth.deriveKey(csrfKey));
  const consent = createConsent({
    findClient: clients.find,
    csrf,
    verifyCredentials: auth.verifyCredentials,
    library,
    authorizations: authorizationsRepository,
  });
  const deviceCodes = createDeviceCodesRepository(db);
  const deviceGrant = createDeviceGrant({ findClient: clients.find, repository: deviceCodes, tokenPairs: auth.tokenPairs, accessTokens: auth.accessTokens });
  const operations = oauthOperations({
    publicUrl: config.PUBLIC_URL,
    mcpScopes,
    clients,
    consent,
    library,
    deviceGrant,
    revoke: createRevocation({ tokenPairs: auth.tokenPairs, accessTokens: auth.accessTokens }),
    authorizations: createAuthorizations({
      repository: authorizationsRepository,
      codes,
      tokenPairs: auth.tokenPairs,
      apiTokens: { revokeForOAuthClient: auth.revokeApiTokensOfOAuthClient },
      clients,
      deviceCodes,
      onWithdrawn: onAuthorizationWithdrawn,
    }),
  });
  const device = deviceOperations({
    publicUrl: config.PUBLIC_URL,
    grant: deviceGrant,
    verification: createDeviceVerification({
      findClient: clients.find,
      csrf,
      verifyCredentials: auth.verifyCredentials,
      repository: deviceCodes,
      authorizations: authorizationsRepository,
    }),
  });
  return { operations: [...operations, ...device] };
}
