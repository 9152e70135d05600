import type { Knex } from 'knex';
import { isPostgres } from '../platform/db.js';
import type { ConnectorType } from './connector-registry.js';

export interface ConnectorAccountRow {
  id: string;
  account_id: string;
  type: ConnectorType;
  external_id: string;
  display_name: string;
  credentials_encrypted: string;
  created_at: number;
  updated_at: number;
  last_synced_at: number | null;
}

const table = 'connector_accounts';
const counts = 'connector_account_counts';

export async function findOwnedConnectorAccount(db: Knex, accountId: string, id: string): Promise<ConnectorAccountRow | undefined> {
  return db<ConnectorAccountRow>(table).where({ id, account_id: accountId }).first();
}

export async function findConnectorAccount(db: Knex, id: string): Promise<ConnectorAccountRow | undefined> {
  return db<ConnectorAccountRow>(table).where({ id }).first();
}

export async function findByExternalId(db: Knex, accountId: string, type: ConnectorType, externalId: string): Promise<ConnectorAccountRow | undefined> {
  return db<ConnectorAccountRow>(table).where({ account_id: accountId, type, external_id: externalId }).first();
}

export async function listOwnedConnectorAccounts(db: Knex, accountId: string): Promise<ConnectorAccountRow[]> {
  return db<ConnectorAccountRow>(table).where({ account_id: accountId }).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

export async function insertConnectorAccount(trx: Knex, row: ConnectorAccountRow): Promise<void> {
  await trx(table).insert(row);
}

export async function replaceCredentials(db: Knex, id: string, sealed: string, displayName: string, now: number): Promise<void> {
  await db(table).where({ id }).update({ credentials_encrypted: sealed, display_name: displayName, updated_at: now });
}

export async function markSynced(db: Knex, id: string, at: number): Promise<void> {
  await db(table).where({ id }).update({ last_synced_at: at });
}

/**
 * Takes one place under the per-type cap: the counter row is created if missing, then raised by a
 * conditional UPDATE that matches only below the cap. Run it in the transaction that inserts the
 * account, so a failed insert gives the place back.
 */
export async function takeConnectorPlace(trx: Knex, accountId: string, type: ConnectorType, max: number): Promise<boolean> {
  await trx(counts).insert({ account_id: accountId, type, count: 0 }).onConflict(['account_id', 'type']).ignore();
  const raised = await trx(counts).where({ account_id: accountId, type }).andWhere('count', '<', max).increment('count', 1);
  return raised === 1;
}

export async function releaseConnectorPlace(trx: Knex, accountId: string, type: ConnectorType): Promise<void> {
  await trx(counts).where({ account_id: accountId, type }).andWhere('count', '>', 0).decrement('count', 1);
}

export async function usedConnectorPlaces(db: Knex, accountId: string): Promise<Map<ConnectorType, number>> {
  const rows: { type: ConnectorType; count: number }[] = await db(counts).select('type', 'count').where({ account_id: accountId });
  return new Map(rows.map((row) => [row.type, Number(row.count)]));
}

/** Locks the row (PostgreSQL) so a sync's inserts referencing it wait until the disconnect is decided. */
export async function lockOwnedConnectorAccount(trx: Knex, accountId: string, id: string): Promise<ConnectorAccountRow | undefined> {
  const query = trx<ConnectorAccountRow>(table).where({ id, account_id: accountId }).first();
  return isPostgres(trx) ? query.forUpdate() : query;
}

export async function deleteConnectorAccount(trx: Knex, id: string): Promise<void> {
  await trx(table).where({ id }).del();
}
