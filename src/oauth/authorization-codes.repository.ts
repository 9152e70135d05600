import type { Db } from '../platform/db.js';

export interface AuthorizationCodeRow {
  code_hash: string;
  client_id: string;
  account_id: string;
  redirect_uri: string;
  scope: string;
  code_challenge: string;
  family_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  /** RFC 8707: the MCP server's URL when the grant is for it; null for the REST API. */
  resource: string | null;
}

/** Used codes are kept this long after they expire, so a late replay still revokes what they issued. */
const KEEP_AFTER_EXPIRY_MS = 24 * 3_600_000;

export interface AuthorizationCodesRepository {
  /** Stores a new code, and drops codes long past their expiry. */
  insert: (row: AuthorizationCodeRow) => Promise<void>;
  find: (codeHash: string) => Promise<AuthorizationCodeRow | undefined>;
  /** Marks a live code used, in one conditional UPDATE: of parallel redemptions exactly one wins. */
  claim: (codeHash: string, now: number) => Promise<boolean>;
  /** What the code issued must not live (it was replayed); the caller revokes the family next. */
  markRevoked: (codeHash: string, now: number) => Promise<void>;
  isRevoked: (codeHash: string) => Promise<boolean>;
  /** The authorisation was withdrawn: unused codes stop working, and in-flight redemptions revoke what they issue. */
  revokeAccountClient: (accountId: string, clientId: string, now: number) => Promise<void>;
}

export function createAuthorizationCodesRepository(db: Db): AuthorizationCodesRepository {
  const table = 'oauth_authorization_codes';
  return {
    insert: async (row) => {
      await db(table).insert(row);
      await db(table).where('expires_at', '<', row.created_at - KEEP_AFTER_EXPIRY_MS).delete();
    },
    find: (codeHash) => db<AuthorizationCodeRow>(table).where({ code_hash: codeHash }).first(),
    claim: async (codeHash, now) => {
      const updated = await db(table)
        .update({ used_at: now })
        .where({ code_hash: codeHash })
        .whereNull('used_at')
        .whereNull('revoked_at')
        .where('expires_at', '>', now);
      return updated === 1;
    },
    markRevoked: async (codeHash, now) => {
      await db(table).update({ revoked_at: now }).where({ code_hash: codeHash }).whereNull('revoked_at');
    },
    isRevoked: async (codeHash) => {
      const row = await db(table).select('revoked_at').where({ code_hash: codeHash }).first<{ revoked_at: number | null } | undefined>();
      return row?.revoked_at !== null && row?.revoked_at !== undefined;
    },
    revokeAccountClient: async (accountId, clientId, now) => {
      await db(table)
        .update({ revoked_at: now, used_at: db.raw('coalesce(used_at, ?)', [now]) })
        .where({ account_id: accountId, client_id: clientId })
        .whereNull('revoked_at');
    },
  };
}
