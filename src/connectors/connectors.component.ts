import type { Router } from 'express';
import type { components } from '../../generated/api.js';
import type { CoreDeps } from '../deps.js';
import { createConnectorAccountsService } from './connector-accounts.service.js';
import type { ConnectorDefinition, ConnectorTools } from './connector-registry.js';
import { createConnectorsRouter } from './connectors.routes.js';
import { createCredentialsCipher, loadConnectorSecretKey } from './credentials-cipher.js';
import { githubConnector } from './github.connector.js';
import { icalConnector } from './ical.connector.js';
import { createSafeFetch } from './safe-fetch.js';
import { createSyncRunner } from './sync-runner.js';
import { claimableJobIds } from './sync-jobs.repository.js';
import { createSyncService } from './sync.service.js';

type ConnectorType = components['schemas']['ConnectorType'];

export interface ConnectorsComponent {
  /** /connectors, /connector-accounts and /sync-jobs. */
  router: Router;
  /** The per-type cap and what the account uses of it, for every connector type. */
  usage: (accountId: string) => Promise<{ type: ConnectorType; limit: number; used: number }[]>;
  /** Starts the sync-job runner (and recovers jobs a crash left behind). */
  start: () => void;
  /** Stops taking jobs and waits for the running ones to reach a safe point. */
  stop: () => Promise<void>;
}

const SYNC_CONCURRENCY = 2;
const SWEEP_EVERY_MS = 5_000;
const STOP_GRACE_MS = 3_000;

export function createConnectorsComponent({ config, db, logger }: CoreDeps): ConnectorsComponent {
  const registry = new Map<ConnectorType, ConnectorDefinition>([
    [githubConnector.type, githubConnector],
    [icalConnector.type, icalConnector],
  ]);
  const cipher = createCredentialsCipher(loadConnectorSecretKey(config, logger));
  const fetch = createSafeFetch({ allowPrivateNetworks: config.CONNECTOR_ALLOW_PRIVATE_NETWORKS, loopbackOnly: config.OUTBOUND_LOOPBACK_ONLY });
  const tools: ConnectorTools = { fetch, digest: cipher.digest };

  const runner = createSyncRunner({
    concurrency: SYNC_CONCURRENCY,
    sweepEveryMs: SWEEP_EVERY_MS,
    graceMs: STOP_GRACE_MS,
    claimable: () => claimableJobIds(db, Date.now(), SYNC_CONCURRENCY * 4),
    run: (jobId, signal) => sync.runJob(jobId, signal),
    logger,
  });
  const sync = createSyncService({ config, db, logger, registry, cipher, tools, enqueue: runner.enqueue });
  const accounts = createConnectorAccountsService({ config, db, registry, cipher, tools, cancelSync: sync.cancelFor });

  return {
    router: createConnectorsRouter(accounts, sync),
    usage: accounts.usage,
    start: runner.start,
    stop: async () => {
      await runner.stop();
      await fetch.close();
    },
  };
}
