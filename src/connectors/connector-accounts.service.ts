import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import { isUniqueViolation } from '../platform/database-errors.js';
import type { Db } from '../platform/db.js';
import { errors } from '../platform/errors.js';
import type { TasksForSync } from '../tasks/tasks.component.js';
import {
  deleteConnectorAccount,
  findByExternalId,
  insertConnectorAccount,
  listOwnedConnectorAccounts,
  lockOwnedConnectorAccount,
  findOwnedConnectorAccount,
  releaseConnectorPlace,
  replaceCredentials,
  takeConnectorPlace,
  usedConnectorPlaces,
  type ConnectorAccountRow,
} from './connector-accounts.repository.js';
import { toConnectError, type ConnectorDefinition, type ConnectorTools, type ConnectorType } from './connector-registry.js';
import type { ConnectorChangeListener } from './connector-changes.js';
import { toConnectorAccount } from './connectors.presenter.js';
import type { CredentialsCipher } from './credentials-cipher.js';
import { knexTransaction } from '../platform/transaction.js';

export interface ConnectorAccountsDeps {
  config: Pick<Config, 'CONNECTOR_ACCOUNTS_MAX_PER_TYPE'>;
  db: Db;
  /** A disconnected account's tasks stay, as local tasks. */
  tasks: Pick<TasksForSync, 'detachConnectorTasks'>;
  registry: ReadonlyMap<ConnectorType, ConnectorDefinition>;
  cipher: CredentialsCipher;
  tools: ConnectorTools;
  /** Stops this process's running sync of an account being disconnected. */
  cancelSync: (connectorAccountId: string) => void;
  /** Told of a new connection and a disconnection in their transactions. */
  onConnectorChange?: ConnectorChangeListener;
}

export type ConnectorAccountsService = ReturnType<typeof createConnectorAccountsService>;

export function createConnectorAccountsService(deps: ConnectorAccountsDeps) {
  const { db, cipher } = deps;
  const max = deps.config.CONNECTOR_ACCOUNTS_MAX_PER_TYPE;

  const definition = (type: ConnectorType): ConnectorDefinition => {
    const found = deps.registry.get(type);
    if (!found) throw errors.notFound('Connector type');
    return found;
  };

  return {
    types: () => [...deps.registry.values()].map(({ type, name }) => ({ type, name, maxAccounts: max })),

    async usage(accountId: string): Promise<{ type: ConnectorType; limit: number; used: number }[]> {
      const used = await usedConnectorPlaces(db, accountId);
      return [...deps.registry.keys()].map((type) => ({ type, limit: max, used: used.get(type) ?? 0 }));
    },

    /**
     * Verifies the credentials with the provider, then in one transaction: the same external account
     * gets its credentials replaced (200, also at the cap), a new one takes a place under the cap (201)
     * or is refused (403). Two parallel connects of the same new account: one inserts, the other hits
     * the unique key, rolls back its place and replaces instead, or, when the first took the last
     * place, finds its account and replaces.
     */
    async connect(accountId: string, type: ConnectorType, body: unknown): Promise<{ created: boolean; account: ConnectorAccountRow }> {
      const connection = definition(type).open(body, deps.tools);
      const identity = await connection.identify().catch((err: unknown) => {
        throw toConnectError(err);
      });
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          return await knexTransaction(db, async (trx) => {
            const now = Date.now();
            const reauthorise = async (existing: ConnectorAccountRow) => {
              const sealed = cipher.seal(connection.credentials, { connectorAccountId: existing.id, type });
              await replaceCredentials(trx, existing.id, sealed, identity.displayName, now);
              return {
                created: false,
                account: { ...existing, credentials_encrypted: sealed, display_name: identity.displayName, updated_at: now },
              };
            };
            const existing = await findByExternalId(trx, accountId, type, identity.externalId);
            if (existing) return reauthorise(existing);
            if (!(await takeConnectorPlace(trx, accountId, type, max))) {
              // A parallel connect of this same account may have taken the last place: the UPDATE waited
              // for its commit (PostgreSQL, read committed), so a fresh look now finds what it inserted.
              const connectedMeanwhile = await findByExternalId(trx, accountId, type, identity.externalId);
              if (connectedMeanwhile) return reauthorise(connectedMeanwhile);
              const used = (await usedConnectorPlaces(trx, accountId)).get(type) ?? max;
              throw errors.quotaExceeded(
                'connectorAccounts',
                max,
                used,
                `This account already has ${used} ${type} accounts connected, the most allowed (${max}). Disconnect one first.`,
              );
            }
            const id = randomUUID();
            const row: ConnectorAccountRow = {
              id,
              account_id: accountId,
              type,
              external_id: identity.externalId,
              display_name: identity.displayName,
              credentials_encrypted: cipher.seal(connection.credentials, { connectorAccountId: id, type }),
              created_at: now,
              updated_at: now,
              last_synced_at: null,
            };
            await insertConnectorAccount(trx, row);
            await deps.onConnectorChange?.(trx, { kind: 'connected', accountId, connectorAccount: toConnectorAccount(row) });
            return { created: true, account: row };
          });
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      throw errors.internal();
    },

    list: (accountId: string) => listOwnedConnectorAccounts(db, accountId),

    async get(accountId: string, id: string): Promise<ConnectorAccountRow> {
      const row = await findOwnedConnectorAccount(db, accountId, id);
      if (!row) throw errors.notFound('Connector account');
      return row;
    },

    /** Deletes the account and its credentials; its tasks stay as local tasks; its place under the cap frees up. */
    async disconnect(accountId: string, id: string): Promise<void> {
      await knexTransaction(db, async (trx) => {
        // Tasks first: they lock the account row before anything else, as a sync batch does, so the two never deadlock.
        await deps.tasks.detachConnectorTasks(trx, { accountId, connectorAccountId: id });
        const row = await lockOwnedConnectorAccount(trx, accountId, id);
        if (!row) throw errors.notFound('Connector account');
        await deleteConnectorAccount(trx, id);
        await releaseConnectorPlace(trx, accountId, row.type);
        await deps.onConnectorChange?.(trx, { kind: 'disconnected', accountId, connectorAccount: toConnectorAccount(row) });
      });
      deps.cancelSync(id);
    },
  };
}
