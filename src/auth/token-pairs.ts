import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import type { Scope } from '../http/caller.js';
import type { Db } from '../platform/db.js';
import { errors } from '../platform/errors.js';
import { parseScopes, type AccessTokens } from './access-tokens.js';
import type { RefreshTokenRow, RefreshTokensRepository } from './refresh-tokens.repository.js';
import { randomSecret, sha256Hex } from './secrets.js';

export type TokenPair = components['schemas']['TokenPair'];

export interface SessionSubject {
  accountId: string;
  clientId: string;
  scopes: readonly Scope[];
}

/**
 * Access token + refresh token, for any client (`web` here; OAuth apps may reuse it). Refresh tokens
 * are opaque, stored hashed, rotate on every use, and a rotated one presented again revokes its family.
 */
export interface TokenPairs {
  /** Signs in: a new refresh-token family (the session) and its first pair. */
  issue: (subject: SessionSubject) => Promise<TokenPair>;
  /** Exchanges a live refresh token of `clientId` for a new pair in the same family. */
  rotate: (refreshToken: string, clientId: string) => Promise<TokenPair>;
  /** Signs out: revokes the token's whole family (nothing for an unknown token). */
  revokeSession: (refreshToken: string) => Promise<void>;
  /** The account of a known refresh token in any state (live, rotated, revoked or expired). */
  accountOf: (refreshToken: string) => Promise<string | undefined>;
}

export function createTokenPairs(deps: {
  db: Db;
  repository: RefreshTokensRepository;
  accessTokens: AccessTokens;
  refreshLifetimeSeconds: number;
}): TokenPairs {
  const { db, repository, accessTokens, refreshLifetimeSeconds } = deps;

  const newRefreshToken = (subject: SessionSubject, familyId: string, now: number) => {
    const token = randomSecret(32);
    const row: RefreshTokenRow = {
      id: randomUUID(),
      token_hash: sha256Hex(token),
      family_id: familyId,
      account_id: subject.accountId,
      client_id: subject.clientId,
      scope: subject.scopes.join(' '),
      created_at: now,
      expires_at: now + refreshLifetimeSeconds * 1000,
      rotated_at: null,
      revoked_at: null,
    };
    return { token, row };
  };

  const pair = (subject: SessionSubject, familyId: string, refreshToken: string): TokenPair => ({
    accessToken: accessTokens.sign({ ...subject, sessionId: familyId }),
    refreshToken,
    tokenType: 'Bearer',
    expiresIn: accessTokens.lifetimeSeconds,
    refreshExpiresIn: refreshLifetimeSeconds,
  });

  return {
    issue: async (subject) => {
      const familyId = randomUUID();
      const { token, row } = newRefreshToken(subject, familyId, Date.now());
      await repository.insert(row);
      return pair(subject, familyId, token);
    },

    rotate: async (refreshToken, clientId) => {
      const now = Date.now();
      const tokenHash = sha256Hex(refreshToken);
      // Claim and successor in one transaction: a reuse detected right after sees (and revokes) the successor.
      const rotated = await db.transaction(async (trx) => {
        const claimed = await repository.claimForRotation(trx, tokenHash, clientId, now);
        if (!claimed) return undefined;
        const subject = { accountId: claimed.account_id, clientId: claimed.client_id, scopes: parseScopes(claimed.scope) };
        const next = newRefreshToken(subject, claimed.family_id, now);
        await repository.insert(next.row, trx);
        return pair(subject, claimed.family_id, next.token);
      });
      if (rotated) return rotated;

      const known = await repository.findByHash(tokenHash);
      if (known && known.client_id === clientId && known.rotated_at !== null && known.expires_at > now) {
        await repository.revokeFamily(known.family_id, now);
        throw errors.refreshTokenReused();
      }
      throw errors.invalidRefreshToken();
    },

    revokeSession: (refreshToken) => repository.revokeFamilyOfToken(sha256Hex(refreshToken), Date.now()),

    accountOf: async (refreshToken) => (await repository.findByHash(sha256Hex(refreshToken)))?.account_id,
  };
}
