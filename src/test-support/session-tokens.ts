import { createAccessTokens, type AccessTokens } from '../auth/access-tokens.js';
import { createRefreshTokensRepository } from '../auth/refresh-tokens.repository.js';
import { createTokenPairs, type TokenPairs } from '../auth/token-pairs.js';
import type { Db } from '../platform/db.js';

/**
 * The auth component's real access tokens and token pairs on a test database, for tests of the
 * components built on them (the OAuth server): not the secret, issuer or lifetimes of any deployment.
 */
export function createSessionTokens(
  db: Db,
  settings: { accessLifetimeSeconds?: number; refreshLifetimeSeconds?: number; reuseIntervalSeconds?: number } = {},
): { accessTokens: AccessTokens; tokenPairs: TokenPairs } {
  const accessTokens = createAccessTokens({ secret: 's'.repeat(40), issuer: 'iss', audience: 'aud', lifetimeSeconds: settings.accessLifetimeSeconds ?? 120 });
  const tokenPairs = createTokenPairs({
    db,
    repository: createRefreshTokensRepository(db),
    accessTokens,
    refreshLifetimeSeconds: settings.refreshLifetimeSeconds ?? 3600,
    reuseIntervalSeconds: settings.reuseIntervalSeconds ?? 0,
  });
  return { accessTokens, tokenPairs };
}
