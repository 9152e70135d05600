import type { Scope } from '../http/caller.js';
import type { Db } from '../platform/db.js';

export interface AuthorizationSummary {
  clientId: string;
  scopes: string[];
  authorizedAt: number;
}

/** Which apps an account authorised: one row per granted scope, so a new consent only adds rows. */
export interface AuthorizationsRepository {
  record: (accountId: string, clientId: string, scopes: readonly Scope[], now: number) => Promise<void>;
  /** Newest consent first. */
  list: (accountId: string, onlyClientId?: string) => Promise<AuthorizationSummary[]>;
  /** Forgets the app; false when the account had not authorised it. */
  remove: (accountId: string, clientId: string) => Promise<boolean>;
}

export function createAuthorizationsRepository(db: Db): AuthorizationsRepository {
  const table = 'oauth_authorizations';
  return {
    record: async (accountId, clientId, scopes, now) => {
      const rows = scopes.map((scope) => ({ account_id: accountId, client_id: clientId, scope, created_at: now, updated_at: now }));
      await db(table).insert(rows).onConflict(['account_id', 'client_id', 'scope']).merge(['updated_at']);
    },
    list: async (accountId, onlyClientId) => {
      const query = db(table).select('client_id', 'scope', 'updated_at').where({ account_id: accountId });
      if (onlyClientId !== undefined) query.andWhere({ client_id: onlyClientId });
      const rows = (await query) as { client_id: string; scope: string; updated_at: number }[];
      const byClient = new Map<string, AuthorizationSummary>();
      for (const row of rows) {
        const summary = byClient.get(row.client_id) ?? { clientId: row.client_id, scopes: [], authorizedAt: 0 };
        summary.scopes.push(row.scope);
        summary.authorizedAt = Math.max(summary.authorizedAt, Number(row.updated_at));
        byClient.set(row.client_id, summary);
      }
      return [...byClient.values()].sort((a, b) => b.authorizedAt - a.authorizedAt || a.clientId.localeCompare(b.clientId));
    },
    remove: async (accountId, clientId) => (await db(table).where({ account_id: accountId, client_id: clientId }).delete()) > 0,
  };
}
