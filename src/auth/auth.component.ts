import type { CoreDeps } from '../deps.js';
import type { OperationEntry } from '../http/operations.js';
import { createAccessTokens, type AccessTokens } from './access-tokens.js';
import { createAccountsRepository } from './accounts.repository.js';
import { createApiTokensRepository } from './api-tokens.repository.js';
import { apiTokensOperations } from './api-tokens.operations.js';
import { createApiTokens, type ApiTokens } from './api-tokens.service.js';
import { createAudienceCheck } from './audience-check.js';
import { authOperations } from './auth.operations.js';
import { createAuthService, type AuthService } from './auth.service.js';
import { createIdentifyCaller, type IdentifyCaller } from './identify-caller.js';
import { resolveJwtSecret } from './jwt-secret.js';
import { createLoginLockout } from './login-lockout.js';
import { createPasswords } from './passwords.js';
import { createRefreshTokensRepository } from './refresh-tokens.repository.js';
import { createTokenPairs, type TokenPairs } from './token-pairs.js';
import { createWebSessionCookie } from './web-session-cookie.js';

// The front door of auth for the components built on it (the OAuth server): the pieces they share.
export { parseScopes, type AccessTokens } from './access-tokens.js';
export type { IdentifyCaller } from './identify-caller.js';
export type { ApiTokens } from './api-tokens.service.js';
export { randomSecret, sha256Hex } from './secrets.js';
export type { TokenPair, TokenPairs } from './token-pairs.js';

export interface AuthComponent {
  /** The identify step of every route: the caller, a bad or expired token, or the error that kept it from knowing. */
  identifyCaller: IdentifyCaller;
  /** /auth/*, /me and /api-tokens. */
  operations: OperationEntry[];
  /** The account a refresh token belongs to (any state), so the refresh budget can key on it. */
  refreshTokenAccount: (refreshToken: string) => Promise<string | undefined>;
  /** For the OAuth server: sign-in through the lockout, token pairs for its clients, reading access tokens. */
  verifyCredentials: AuthService['verifyCredentials'];
  tokenPairs: TokenPairs;
  accessTokens: AccessTokens;
  /**
   * A key of another component's own, derived from the JWT signing secret (resolved once, here) by
   * `derive`, so every instance sharing the secret derives the same key and no other holds the secret.
   */
  deriveKey: (derive: (signingSecret: string) => Buffer) => Buffer;
  /** For withdrawing an OAuth app: the API tokens it minted go with it. */
  revokeApiTokensOfOAuthClient: ApiTokens['revokeForOAuthClient'];
}

export function createAuthComponent({ config, db, logger }: CoreDeps): AuthComponent {
  const signingSecret = resolveJwtSecret(config, logger);
  const accessTokens = createAccessTokens({
    secret: signingSecret,
    issuer: config.JWT_ISSUER,
    audience: config.JWT_AUDIENCE,
    lifetimeSeconds: config.JWT_ACCESS_EXPIRES,
  });
  const tokenPairs = createTokenPairs({
    db,
    repository: createRefreshTokensRepository(db),
    accessTokens,
    refreshLifetimeSeconds: config.JWT_REFRESH_EXPIRES,
    reuseIntervalSeconds: config.REFRESH_REUSE_INTERVAL_SECONDS,
  });
  const apiTokens = createApiTokens(createApiTokensRepository(db), tokenPairs);
  const accounts = createAccountsRepository(db);
  const service = createAuthService({
    accounts,
    passwords: createPasswords(),
    lockout: createLoginLockout(db, {
      maxFailedAttempts: config.LOGIN_MAX_FAILED_ATTEMPTS,
      lockoutMinutes: config.LOGIN_LOCKOUT_MINUTES,
    }),
    tokenPairs,
  });

  return {
    identifyCaller: createIdentifyCaller(accessTokens, apiTokens, {
      audienceFits: createAudienceCheck(config.JWT_AUDIENCE, config.PUBLIC_URL),
      accountOf: accounts.profileOf,
    }),
    operations: [...authOperations(service, createWebSessionCookie(config.PUBLIC_URL)), ...apiTokensOperations(apiTokens)],
    refreshTokenAccount: tokenPairs.liveAccountOf,
    verifyCredentials: service.verifyCredentials,
    tokenPairs,
    accessTokens,
    deriveKey: (derive) => derive(signingSecret),
    revokeApiTokensOfOAuthClient: apiTokens.revokeForOAuthClient,
  };
}
