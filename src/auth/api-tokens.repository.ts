import { compiledQuery } from '../platform/compiled-query.js';
import type { Db } from '../platform/db.js';

export interface ApiTokenRow {
  id: string;
  account_id: string;
  name: string;
  token_hash: string;
  prefix: string;
  scopes: string;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
  /** The OAuth app whose authorisation the token lives under; null for the account's own tokens. */
  oauth_client_id: string | null;
}

export type UsableApiToken = Pick<ApiTokenRow, 'id' | 'account_id' | 'scopes' | 'last_used_at'>;

export interface ApiTokensRepository {
  insert: (row: ApiTokenRow) => Promise<void>;
  /** The account's tokens that are not revoked (expired ones included), newest first. */
  listForAccount: (accountId: string) => Promise<ApiTokenRow[]>;
  /** The token with this hash if it is neither revoked nor expired. */
  findUsable: (tokenHash: string, now: number) => Promise<UsableApiToken | undefined>;
  /** Sets last_used_at unless it was set after `notSince` (so busy tokens write rarely). */
  touch: (id: string, now: number, notSince: number) => Promise<void>;
  /** True when a live token of the account was revoked by this call. */
  revoke: (accountId: string, id: string, now: number) => Promise<boolean>;
  /** The app a token lives under (null for the account's own), whether or not it is still usable. */
  oauthClientOf: (id: string) => Promise<string | null>;
  /** True when the token was revoked (or is unknown). */
  isRevoked: (id: string) => Promise<boolean>;
  /** Revokes every live token of the account that lives under this app (its authorisation was withdrawn). */
  revokeForOAuthClient: (accountId: string, clientId: string, now: number) => Promise<void>;
}

const LISTED: (keyof ApiTokenRow)[] = ['id', 'account_id', 'name', 'token_hash', 'prefix', 'scopes', 'created_at', 'expires_at', 'last_used_at', 'revoked_at', 'oauth_client_id'];

const MAX_REVOCATION_PASSES = 10;

// Every request signed with an API token finds it and may touch it: compiled once.
const usable = compiledQuery<[string, number], UsableApiToken>((db, $) =>
  db('api_tokens')
    .select('id', 'account_id', 'scopes', 'last_used_at')
    .where('token_hash', $(0))
    .whereNull('revoked_at')
    .where((q) => q.whereNull('expires_at').orWhere('expires_at', '>', $(1)))
    .limit(1),
);
const touched = compiledQuery<[number, string, number], never>((db, $) =>
  db('api_tokens')
    .update({ last_used_at: $(0) })
    .where('id', $(1))
    .where((q) => q.whereNull('last_used_at').orWhere('last_used_at', '<', $(2))),
);

export function createApiTokensRepository(db: Db): ApiTokensRepository {
  const table = 'api_tokens';
  return {
    insert: async (row) => {
      await db(table).insert(row);
    },
    listForAccount: (accountId) =>
      db<ApiTokenRow>(table).select(LISTED).where({ account_id: accountId }).whereNull('revoked_at').orderBy([
        { column: 'created_at', order: 'desc' },
        { column: 'id', order: 'desc' },
      ]),
    findUsable: (tokenHash, now) => usable.first(db, [tokenHash, now]),
    touch: async (id, now, notSince) => {
      await touched.run(db, [now, id, notSince]);
    },
    revoke: async (accountId, id, now) => {
      const count = await db(table).update({ revoked_at: now }).where({ id, account_id: accountId }).whereNull('revoked_at');
      return count > 0;
    },
    isRevoked: async (id) => {
      const row = await db<ApiTokenRow>(table).select('revoked_at').where({ id }).first();
      return !row || row.revoked_at !== null;
    },
    oauthClientOf: async (id) => {
      const row = await db<ApiTokenRow>(table).select('oauth_client_id').where({ id }).first();
      return row?.oauth_client_id ?? null;
    },
    revokeForOAuthClient: async (accountId, clientId, now) => {
      // Until a pass finds nothing: under PostgreSQL's read committed, a token minted from one of these
      // while a pass ran is not in that pass's snapshot, and its maker still looked live to the minting
      // check; the next pass sees it. A mint that starts after a pass has committed sees its maker
      // revoked and revokes itself. (A chain of mints each racing a pass is bounded by the pass count.)
      for (let pass = 0; pass < MAX_REVOCATION_PASSES; pass++) {
        const revoked = await db(table).update({ revoked_at: now }).where({ account_id: accountId, oauth_client_id: clientId }).whereNull('revoked_at');
        if (revoked === 0) return;
      }
    },
  };
}
