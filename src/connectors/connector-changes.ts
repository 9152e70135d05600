import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';

type Schemas = components['schemas'];

/** A change of a connected account or a sync job, told to a listener inside the transaction that makes it. */
export type ConnectorChange =
  | { kind: 'connected' | 'disconnected'; accountId: string; connectorAccount: Schemas['ConnectorAccount'] }
  | { kind: 'sync-job-finished'; accountId: string; job: Schemas['SyncJob'] };

/** Runs in the change's transaction (an outbox writer): what it writes commits or rolls back with the change. */
export type ConnectorChangeListener = (trx: Knex.Transaction, change: ConnectorChange) => Promise<void>;

export const ignoreConnectorChanges: ConnectorChangeListener = async () => undefined;
