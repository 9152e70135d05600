import type { Db } from '../platform/db.js';

export interface OAuthClientRow {
  client_id: string;
  client_name: string | null;
  redirect_uris: string;
  scope: string | null;
  created_at: number;
}

export interface ClientsRepository {
  insert: (row: OAuthClientRow) => Promise<void>;
  find: (clientId: string) => Promise<OAuthClientRow | undefined>;
  /** Names of the given clients, for listing authorisations. */
  names: (clientIds: readonly string[]) => Promise<Map<string, string | null>>;
}

export function createClientsRepository(db: Db): ClientsRepository {
  const table = 'oauth_clients';
  return {
    insert: async (row) => {
      await db(table).insert(row);
    },
    find: (clientId) => db<OAuthClientRow>(table).where({ client_id: clientId }).first(),
    names: async (clientIds) => {
      if (clientIds.length === 0) return new Map();
      const rows = await db<OAuthClientRow>(table).select('client_id', 'client_name').whereIn('client_id', clientIds);
      return new Map(rows.map((row) => [row.client_id, row.client_name]));
    },
  };
}
