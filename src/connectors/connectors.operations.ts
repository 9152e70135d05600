import { operation, type OperationEntry, type OperationInput } from '../http/operations.js';
import type { ConnectorAccountsService } from './connector-accounts.service.js';
import { toConnectorAccount, toSyncJob } from './connectors.presenter.js';
import type { SyncService } from './sync.service.js';

/**
 * /connectors, /connector-accounts and /sync-jobs: thin handlers over the two services. The MCP tools
 * run listConnectorAccounts, startSync and getSyncJob through the same handlers.
 */
export function createConnectorsHandlers(accounts: ConnectorAccountsService, sync: SyncService) {
  return {
    listConnectorAccounts: async ({ caller }: OperationInput<'listConnectorAccounts'>) => ({
      status: 200 as const,
      body: { items: (await accounts.list(caller.accountId)).map(toConnectorAccount) },
    }),
    startSync: async ({ caller, params }: OperationInput<'startSync'>) => {
      const job = await sync.startSync(caller.accountId, params.accountId);
      return { status: 202 as const, headers: { Location: `/sync-jobs/${job.id}` }, body: toSyncJob(job) };
    },
    getSyncJob: async ({ caller, params }: OperationInput<'getSyncJob'>) => ({
      status: 200 as const,
      body: toSyncJob(await sync.getJob(caller.accountId, params.jobId)),
    }),
  };
}

export type ConnectorsHandlers = ReturnType<typeof createConnectorsHandlers>;

export function connectorsOperations(accounts: ConnectorAccountsService, sync: SyncService, handlers: ConnectorsHandlers): OperationEntry[] {
  return [
    operation('listConnectors', () => ({ status: 200, body: { items: accounts.types() } })),
    operation('connectAccount', async ({ caller, params, body }) => {
      const { created, account } = await accounts.connect(caller.accountId, params.type, body);
      return created
        ? { status: 201, headers: { Location: `/connector-accounts/${account.id}` }, body: toConnectorAccount(account) }
        : { status: 200, body: toConnectorAccount(account) };
    }),
    operation('listConnectorAccounts', handlers.listConnectorAccounts),
    operation('getConnectorAccount', async ({ caller, params }) => ({
      status: 200,
      body: toConnectorAccount(await accounts.get(caller.accountId, params.accountId)),
    })),
    operation('disconnectAccount', async ({ caller, params }) => {
      await accounts.disconnect(caller.accountId, params.accountId);
      return { status: 204 };
    }),
    operation('startSync', handlers.startSync),
    operation('listSyncJobs', async ({ caller, params }) => ({
      status: 200,
      body: { items: (await sync.listJobs(caller.accountId, params.accountId)).map(toSyncJob) },
    })),
    operation('getSyncJob', handlers.getSyncJob),
  ];
}
