import type { Router } from 'express';
import type { AuthComponent } from '../auth/auth.component.js';
import { resolveJwtSecret } from '../auth/jwt-secret.js';
import type { CoreDeps } from '../deps.js';
import { createAuthorizationCodesRepository } from './authorization-codes.repository.js';
import { createAuthorizationsRepository } from './authorizations.repository.js';
import { createAuthorizations } from './authorizations.service.js';
import { createClientsRepository } from './clients.repository.js';
import { createClients } from './clients.service.js';
import { createConsent } from './consent.service.js';
import { createCsrf, csrfKey } from './csrf.js';
import { createOAuthLibraryAdapter } from './oauth-library.adapter.js';
import { createOAuthRouter } from './oauth.routes.js';

export { oauthPageHeaders } from './consent-page.js';
import { createRevocation } from './revocation.service.js';

export interface OAuthComponent {
  /** /.well-known/oauth-*, /oauth/*. */
  router: Router;
}

/** The OAuth 2.0 authorisation server (decisions §9), built on the auth component's sign-in and tokens. */
export function createOAuthComponent(
  { config, db, logger }: CoreDeps,
  auth: Pick<AuthComponent, 'verifyCredentials' | 'tokenPairs' | 'accessTokens' | 'revokeApiTokensOfOAuthClient'>,
): OAuthComponent {
  const clients = createClients(createClientsRepository(db));
  const codes = createAuthorizationCodesRepository(db);
  const authorizationsRepository = createAuthorizationsRepository(db);
  const library = createOAuthLibraryAdapter({
    findClient: clients.find,
    codes,
    tokenPairs: auth.tokenPairs,
    accessTokens: auth.accessTokens,
    refreshLifetimeSeconds: config.JWT_REFRESH_EXPIRES,
  });
  const consent = createConsent({
    findClient: clients.find,
    // Keyed from the signing secret, so every instance behind a load balancer accepts every other's forms.
    csrf: createCsrf(csrfKey(resolveJwtSecret(config, logger))),
    verifyCredentials: auth.verifyCredentials,
    library,
    authorizations: authorizationsRepository,
  });
  const router = createOAuthRouter({
    publicUrl: config.PUBLIC_URL,
    clients,
    consent,
    library,
    revoke: createRevocation({ tokenPairs: auth.tokenPairs, accessTokens: auth.accessTokens }),
    authorizations: createAuthorizations({
      repository: authorizationsRepository,
      codes,
      tokenPairs: auth.tokenPairs,
      apiTokens: { revokeForOAuthClient: auth.revokeApiTokensOfOAuthClient },
      clients,
    }),
  });
  return { router };
}
