import { Router } from 'express';
import type { components, operations } from '../../generated/api.js';
import type { ConnectorAccountsService } from './connector-accounts.service.js';
import type { ConnectorType } from './connector-registry.js';
import { toConnectorAccount, toSyncJob } from './connectors.presenters.js';
import type { SyncService } from './sync.service.js';

type Schemas = components['schemas'];
type AccountPath = operations['getConnectorAccount']['parameters']['path'];
type JobPath = operations['getSyncJob']['parameters']['path'];

/** /connectors, /connector-accounts and /sync-jobs: thin handlers over the two services. */
export function createConnectorsRouter(accounts: ConnectorAccountsService, sync: SyncService): Router {
  const router = Router();

  router.get('/connectors', (_req, res) => {
    const body: Schemas['ConnectorList'] = { items: accounts.types() };
    res.json(body);
  });

  router.post('/connectors/:type/accounts', async (req, res) => {
    const type = req.params.type as ConnectorType;
    const { created, account } = await accounts.connect(req.caller!.accountId, type, req.body);
    if (created) res.status(201).location(`/connector-accounts/${account.id}`);
    res.json(toConnectorAccount(account));
  });

  router.get('/connector-accounts', async (req, res) => {
    const body: Schemas['ConnectorAccountList'] = { items: (await accounts.list(req.caller!.accountId)).map(toConnectorAccount) };
    res.json(body);
  });

  router.get('/connector-accounts/:accountId', async (req, res) => {
    const { accountId } = req.params as AccountPath;
    res.json(toConnectorAccount(await accounts.get(req.caller!.accountId, accountId)));
  });

  router.delete('/connector-accounts/:accountId', async (req, res) => {
    const { accountId } = req.params as AccountPath;
    await accounts.disconnect(req.caller!.accountId, accountId);
    res.status(204).end();
  });

  router.post('/connector-accounts/:accountId/sync', async (req, res) => {
    const { accountId } = req.params as AccountPath;
    const job = await sync.startSync(req.caller!.accountId, accountId);
    res.status(202).location(`/sync-jobs/${job.id}`).json(toSyncJob(job));
  });

  router.get('/connector-accounts/:accountId/sync-jobs', async (req, res) => {
    const { accountId } = req.params as AccountPath;
    const body: Schemas['SyncJobList'] = { items: (await sync.listJobs(req.caller!.accountId, accountId)).map(toSyncJob) };
    res.json(body);
  });

  router.get('/sync-jobs/:jobId', async (req, res) => {
    const { jobId } = req.params as JobPath;
    res.json(toSyncJob(await sync.getJob(req.caller!.accountId, jobId)));
  });

  return router;
}
