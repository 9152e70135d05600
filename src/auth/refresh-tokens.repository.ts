import type { Knex } from 'knex';
import type { Db } from '../platform/db.js';

export interface RefreshTokenRow {
  id: string;
  token_hash: string;
  family_id: string;
  account_id: string;
  client_id: string;
  scope: string;
  created_at: number;
  expires_at: number;
  rotated_at: number | null;
  revoked_at: number | null;
  /** RFC 8707: the `aud` of the family's access tokens when not the REST API's (the MCP server's URL). */
  resource: string | null;
}

export interface RefreshTokensRepository {
  insert: (row: RefreshTokenRow, trx?: Knex.Transaction) => Promise<void>;
  /**
   * Marks a live token of this client rotated and returns it, in one conditional UPDATE: of any number
   * of parallel presentations of the same token, exactly one gets the row.
   */
  claimForRotation: (trx: Knex.Transaction, tokenHash: string, clientId: string, now: number) => Promise<RefreshTokenRow | undefined>;
  /**
   * The token again when it was rotated at or after `rotatedSince` and its family is live, holding its
   * row (a conditional UPDATE) so a family revocation cannot slip between this and the successor's insert.
   */
  claimRecentlyRotated: (trx: Knex.Transaction, tokenHash: string, clientId: string, now: number, rotatedSince: number) => Promise<RefreshTokenRow | undefined>;
  findByHash: (tokenHash: string) => Promise<RefreshTokenRow | undefined>;
  revokeFamily: (familyId: string, now: number) => Promise<void>;
  /** Revokes the whole family the token belongs to; nothing when the token is unknown. */
  revokeFamilyOfToken: (tokenHash: string, now: number) => Promise<void>;
  /** Revokes every family an account holds with one client (an app's authorisation withdrawn). */
  revokeAccountClient: (accountId: string, clientId: string, now: number) => Promise<void>;
  /** False once the family is revoked (revocation marks every token of it). */
  isFamilyLive: (familyId: string) => Promise<boolean>;
}

const COLUMNS: (keyof RefreshTokenRow)[] = [
  'id',
  'token_hash',
  'family_id',
  'account_id',
  'client_id',
  'scope',
  'created_at',
  'expires_at',
  'rotated_at',
  'revoked_at',
  'resource',
];

export function createRefreshTokensRepository(db: Db): RefreshTokensRepository {
  const table = 'refresh_tokens';
  return {
    insert: async (row, trx) => {
      await (trx ?? db)(table).insert(row);
    },
    claimForRotation: async (trx, tokenHash, clientId, now) => {
      const [row] = (await trx(table)
        .update({ rotated_at: now })
        .where({ token_hash: tokenHash, client_id: clientId })
        .whereNull('rotated_at')
        .whereNull('revoked_at')
        .where('expires_at', '>', now)
        .returning(COLUMNS)) as RefreshTokenRow[];
      return row;
    },
    claimRecentlyRotated: async (trx, tokenHash, clientId, now, rotatedSince) => {
      const [row] = (await trx(table)
        .update({ revoked_at: null })
        .where({ token_hash: tokenHash, client_id: clientId })
        .where('rotated_at', '>=', rotatedSince)
        .whereNull('revoked_at')
        .where('expires_at', '>', now)
        .returning(COLUMNS)) as RefreshTokenRow[];
      return row;
    },
    findByHash: (tokenHash) => db<RefreshTokenRow>(table).select(COLUMNS).where({ token_hash: tokenHash }).first(),
    revokeFamily: async (familyId, now) => {
      await db(table).update({ revoked_at: now }).where({ family_id: familyId }).whereNull('revoked_at');
    },
    revokeFamilyOfToken: async (tokenHash, now) => {
      await db(table)
        .update({ revoked_at: now })
        .whereIn('family_id', db(table).select('family_id').where({ token_hash: tokenHash }))
        .whereNull('revoked_at');
    },
    revokeAccountClient: async (accountId, clientId, now) => {
      await db(table).update({ revoked_at: now }).where({ account_id: accountId, client_id: clientId }).whereNull('revoked_at');
    },
    isFamilyLive: async (familyId) => (await db(table).select('id').where({ family_id: familyId }).whereNull('revoked_at').first()) !== undefined,
  };
}
