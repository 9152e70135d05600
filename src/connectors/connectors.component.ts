import { Histogram, type Metric } from 'prom-client';
import type { components } from '../../generated/api.js';
import type { CoreDeps } from '../deps.js';
import type { OperationEntry } from '../http/operations.js';
import type { TasksForSync } from '../tasks/tasks.component.js';
import { createConnectorAccountsService } from './connector-accounts.service.js';
import { ignoreConnectorChanges, type ConnectorChangeListener } from './connector-changes.js';
import type { ConnectorDefinition, ConnectorTools } from './connector-registry.js';
import { connectorsOperations, createConnectorsHandlers } from './connectors.operations.js';
import { createCredentialsCipher, loadConnectorSecretKey } from './credentials-cipher.js';
import { githubConnector } from './github.connector.js';
import { icalConnector } from './ical.connector.js';
import { createSafeFetch } from './safe-fetch.js';
import { createSyncRunner } from './sync-runner.js';
import { claimableJobIds } from './sync-jobs.repository.js';
import { createSyncService } from './sync.service.js';

export type { ConnectorChange, ConnectorChangeListener } from './connector-changes.js';
// The outgoing-request policy, for other components that call out (webhook deliveries).
export { refusedAddressReason, refusedHostReason } from './address-policy.js';
export { createSafeFetch, OutboundError, type SafeFetch } from './safe-fetch.js';

type Schemas = components['schemas'];
type ConnectorType = Schemas['ConnectorType'];

export interface ConnectorsComponent {
  /** /connectors, /connector-accounts and /sync-jobs. */
  operations: OperationEntry[];
  /** The per-type cap and what the account uses of it, for every connector type. */
  usage: (accountId: string) => Promise<{ type: ConnectorType; limit: number; used: number }[]>;
  /**
   * A small public JSON document (an OAuth client's metadata document) fetched as the connectors fetch:
   * no private addresses unless CONNECTOR_ALLOW_PRIVATE_NETWORKS, every redirect re-checked, capped at
   * 64 KiB and 5 seconds.
   */
  fetchPublicDocument: (url: string) => Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;
  /** Starts the sync-job runner (and recovers jobs a crash left behind). */
  start: () => void;
  /** Stops taking jobs and waits for the running ones to reach a safe point. */
  stop: () => Promise<void>;
  /** Sync-job attempts of this process by outcome and duration. */
  metrics: Metric[];
}

const SYNC_CONCURRENCY = 2;
const DOCUMENT_MAX_BYTES = 64 * 1024;
const DOCUMENT_TIMEOUT_MS = 5_000;
const SWEEP_EVERY_MS = 5_000;
const STOP_GRACE_MS = 3_000;

export function createConnectorsComponent(
  { config, db, logger }: CoreDeps,
  tasks: TasksForSync,
  /** Told of connects, disconnects and finished sync jobs inside their transactions (the webhooks' outbox). */
  { onConnectorChange = ignoreConnectorChanges }: { onConnectorChange?: ConnectorChangeListener } = {},
): ConnectorsComponent {
  const registry = new Map<ConnectorType, ConnectorDefinition>([
    [githubConnector.type, githubConnector],
    [icalConnector.type, icalConnector],
  ]);
  const cipher = createCredentialsCipher(loadConnectorSecretKey(config, logger));
  const fetch = createSafeFetch({ allowPrivateNetworks: config.CONNECTOR_ALLOW_PRIVATE_NETWORKS, loopbackOnly: config.OUTBOUND_LOOPBACK_ONLY });
  const tools: ConnectorTools = { fetch, digest: cipher.digest };
  const documentFetch = createSafeFetch({
    allowPrivateNetworks: config.CONNECTOR_ALLOW_PRIVATE_NETWORKS,
    loopbackOnly: config.OUTBOUND_LOOPBACK_ONLY,
    maxBytes: DOCUMENT_MAX_BYTES,
    timeoutMs: DOCUMENT_TIMEOUT_MS,
  });

  const runner = createSyncRunner({
    concurrency: SYNC_CONCURRENCY,
    sweepEveryMs: SWEEP_EVERY_MS,
    graceMs: STOP_GRACE_MS,
    claimable: () => claimableJobIds(db, Date.now(), SYNC_CONCURRENCY * 4),
    run: (jobId, signal) => sync.runJob(jobId, signal),
    logger,
  });
  const attempts = new Histogram({
    name: 'task_service_sync_job_duration_seconds',
    help: 'Sync-job attempts run by this process, by outcome (succeeded, failed, requeued at shutdown, lost to another runner).',
    labelNames: ['outcome'] as const,
    buckets: [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
    registers: [],
  });
  const onAttemptDone = (outcome: string, seconds: number) => attempts.observe({ outcome }, seconds);
  const sync = createSyncService({ tasks, db, logger, registry, cipher, tools, enqueue: runner.enqueue, onAttemptDone, onConnectorChange });
  const accounts = createConnectorAccountsService({ config, db, tasks, registry, cipher, tools, cancelSync: sync.cancelFor, onConnectorChange });

  const handlers = createConnectorsHandlers(accounts, sync);
  return {
    operations: connectorsOperations(accounts, sync, handlers),
    usage: accounts.usage,
    start: runner.start,
    fetchPublicDocument: (url) => documentFetch.get(url, { headers: { accept: 'application/json' } }),
    stop: async () => {
      await runner.stop();
      await Promise.all([fetch.close(), documentFetch.close()]);
    },
    metrics: [attempts],
  };
}
