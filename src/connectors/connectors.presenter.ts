import type { components } from '../../generated/api.js';
import { toIso, toIsoOrNull } from '../platform/time.js';
import type { ConnectorAccountRow } from './connector-accounts.repository.js';
import type { SyncJobRow } from './sync-jobs.repository.js';

type Schemas = components['schemas'];

/** Never the credentials: they stay sealed in the store. */
export function toConnectorAccount(row: ConnectorAccountRow): Schemas['ConnectorAccount'] {
  return {
    id: row.id,
    type: row.type,
    externalId: row.external_id,
    displayName: row.display_name,
    createdAt: toIso(Number(row.created_at)),
    updatedAt: toIso(Number(row.updated_at)),
    lastSyncedAt: toIsoOrNull(row.last_synced_at === null ? null : Number(row.last_synced_at)),
  };
}

export function toSyncJob(row: SyncJobRow): Schemas['SyncJob'] {
  return {
    id: row.id,
    connectorAccountId: row.connector_account_id,
    status: row.status,
    createdAt: toIso(Number(row.created_at)),
    startedAt: toIsoOrNull(row.started_at === null ? null : Number(row.started_at)),
    finishedAt: toIsoOrNull(row.finished_at === null ? null : Number(row.finished_at)),
    fetched: Number(row.fetched),
    created: Number(row.created),
    updated: Number(row.updated),
    unchanged: Number(row.unchanged),
    droppedOverQuota: Number(row.dropped_over_quota),
    error: row.error,
  };
}
