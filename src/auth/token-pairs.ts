import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import type { Scope } from '../http/caller.js';
import type { Db } from '../platform/db.js';
import { errors } from '../platform/errors.js';
import { knexTransaction } from '../platform/transaction.js';
import { parseScopes, type AccessTokens } from './access-tokens.js';
import type { RefreshTokenRow, RefreshTokensRepository } from './refresh-tokens.repository.js';
import { randomSecret, sha256Hex } from './secrets.js';

/** A pair as issued: the refresh token always there (a cookie session's answer leaves it out of the body). */
export type TokenPair = Required<components['schemas']['TokenPair']>;

export interface SessionSubject {
  accountId: string;
  clientId: string;
  scopes: readonly Scope[];
  /** RFC 8707: the `aud` of the session's access tokens when not the REST API's (the MCP server's URL). */
  audience?: string;
}

/** A refresh-token family as its tokens describe it, in any state. */
export interface Session extends SessionSubject {
  familyId: string;
}

/**
 * Access token + refresh token, for any client (`web` here; OAuth apps may reuse it). Refresh tokens
 * are opaque, stored hashed, rotate on every use, and a rotated one presented again revokes its family.
 */
export interface TokenPairs {
  /**
   * Signs in: a new refresh-token family (the session) and its first pair. `familyId` lets the caller
   * name the family beforehand (an OAuth code knows the family it will issue, to revoke it on replay).
   */
  issue: (subject: SessionSubject, options?: { familyId?: string }) => Promise<TokenPair>;
  /**
   * Exchanges a live refresh token of `clientId` for a new pair in the same family. With `accessScopes`
   * the access token carries only those of the family's scopes (OAuth narrowing, RFC 6749 §6); the
   * refresh token keeps the family's scopes.
   */
  rotate: (refreshToken: string, clientId: string, accessScopes?: readonly Scope[]) => Promise<TokenPair>;
  /** Signs out: revokes the token's whole family (nothing for an unknown token). */
  revokeSession: (refreshToken: string) => Promise<void>;
  revokeFamily: (familyId: string) => Promise<void>;
  /** Revokes every session the account holds with that client. */
  revokeClientSessions: (accountId: string, clientId: string) => Promise<void>;
  /** False once the session (refresh-token family) was revoked: signed out, reused or withdrawn. */
  isSessionLive: (familyId: string) => Promise<boolean>;
  /** The account of a known refresh token in any state (live, rotated, revoked or expired). */
  accountOf: (refreshToken: string) => Promise<string | undefined>;
  /**
   * The account of a refresh token that a refresh would honour (live, or rotated within the reuse
   * interval): the refresh budget keys on it, so a dead token never spends a live session's budget.
   */
  liveAccountOf: (refreshToken: string) => Promise<string | undefined>;
  /** The session of a known refresh token in any state; its subject never changes over rotations. */
  sessionOf: (refreshToken: string) => Promise<Session | undefined>;
}

export function createTokenPairs(deps: {
  db: Db;
  repository: RefreshTokensRepository;
  accessTokens: AccessTokens;
  refreshLifetimeSeconds: number;
  /** A just-rotated token presented again within this many seconds gets a sibling pair, not a revocation. */
  reuseIntervalSeconds: number;
}): TokenPairs {
  const { db, repository, accessTokens, refreshLifetimeSeconds } = deps;
  const reuseIntervalMs = deps.reuseIntervalSeconds * 1000;

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
      resource: subject.audience ?? null,
    };
    return { token, row };
  };

  const pair = (subject: SessionSubject, familyId: string, refreshToken: string, accessScopes = subject.scopes): TokenPair => ({
    accessToken: accessTokens.sign({ ...subject, scopes: accessScopes, sessionId: familyId }),
    refreshToken,
    tokenType: 'Bearer',
    expiresIn: accessTokens.lifetimeSeconds,
    refreshExpiresIn: refreshLifetimeSeconds,
  });

  return {
    issue: async (subject, options = {}) => {
      const familyId = options.familyId ?? randomUUID();
      const { token, row } = newRefreshToken(subject, familyId, Date.now());
      await repository.insert(row);
      return pair(subject, familyId, token);
    },

    rotate: async (refreshToken, clientId, accessScopes) => {
      const now = Date.now();
      const tokenHash = sha256Hex(refreshToken);
      // Claim and successor in one transaction: a reuse detected right after sees (and revokes) the successor.
      // Within the reuse interval a token rotated a moment ago (a parallel refresh from another tab or
      // process) gets a successor of its own in the same family instead of a reuse revocation.
      const rotated = await knexTransaction(db, async (trx) => {
        const claimed =
          (await repository.claimForRotation(trx, tokenHash, clientId, now)) ??
          (reuseIntervalMs > 0 ? await repository.claimRecentlyRotated(trx, tokenHash, clientId, now, now - reuseIntervalMs) : undefined);
        if (!claimed) return undefined;
        const subject = sessionSubject(claimed);
        const next = newRefreshToken(subject, claimed.family_id, now);
        await repository.insert(next.row, trx);
        const narrowed = accessScopes && subject.scopes.filter((scope) => accessScopes.includes(scope));
        return pair(subject, claimed.family_id, next.token, narrowed);
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

    revokeFamily: (familyId) => repository.revokeFamily(familyId, Date.now()),

    revokeClientSessions: (accountId, clientId) => repository.revokeAccountClient(accountId, clientId, Date.now()),

    isSessionLive: (familyId) => repository.isFamilyLive(familyId),

    accountOf: async (refreshToken) => (await repository.findByHash(sha256Hex(refreshToken)))?.account_id,

    liveAccountOf: async (refreshToken) => {
      const row = await repository.findByHash(sha256Hex(refreshToken));
      const now = Date.now();
      if (!row || row.revoked_at !== null || row.expires_at <= now) return undefined;
      if (row.rotated_at !== null && (reuseIntervalMs === 0 || row.rotated_at < now - reuseIntervalMs)) return undefined;
      return row.account_id;
    },

    sessionOf: async (refreshToken) => {
      const row = await repository.findByHash(sha256Hex(refreshToken));
      if (!row) return undefined;
      return { familyId: row.family_id, ...sessionSubject(row) };
    },
  };
}

const sessionSubject = (row: RefreshTokenRow): SessionSubject => ({
  accountId: row.account_id,
  clientId: row.client_id,
  scopes: parseScopes(row.scope),
  ...(row.resource ? { audience: row.resource } : {}),
});
