import { randomUUID } from 'node:crypto';
import { isForeignKeyViolation, isUniqueViolation } from '../platform/database-errors.js';
import type { Db } from '../platform/db.js';
import { errors } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import type { ExternalTask, TasksForSync } from '../tasks/tasks.component.js';
import { findConnectorAccount, findOwnedConnectorAccount, markSynced } from './connector-accounts.repository.js';
import { ProviderError, type ConnectorDefinition, type ConnectorTools, type ConnectorType } from './connector-registry.js';
import type { ConnectorChangeListener } from './connector-changes.js';
import { toSyncJob } from './connectors.presenter.js';
import type { CredentialsCipher } from './credentials-cipher.js';
import { ShutdownAbort } from './sync-runner.js';
import {
  claimJob,
  findActiveJob,
  findOwnedJob,
  finishJob,
  insertQueuedJob,
  listRecentJobs,
  renewJob,
  requeueJob,
  ZERO_COUNTERS,
  type SyncCounters,
  type SyncJobRow,
} from './sync-jobs.repository.js';
import { knexTransaction } from '../platform/transaction.js';

/** Items per upsert transaction: large enough to be quick, small enough not to hold the store long. */
export const SYNC_BATCH_SIZE = 500;
const LEASE_MS = 30_000;
const HEARTBEAT_MS = 5_000;
// A job that took its process down this often is not tried again.
const MAX_ATTEMPTS = 3;
const RECENT_JOBS = 20;

export interface SyncServiceDeps {
  /** Where synced items go, within the account's task cap. */
  tasks: Pick<TasksForSync, 'importExternalTasks'>;
  db: Db;
  logger: Logger;
  registry: ReadonlyMap<ConnectorType, ConnectorDefinition>;
  cipher: CredentialsCipher;
  tools: ConnectorTools;
  /** Hands a new job to the runner. */
  enqueue: (jobId: string) => void;
  /** How each attempt this process claimed ended, and how long it ran. */
  onAttemptDone?: (outcome: SyncAttemptOutcome, seconds: number) => void;
  /** Told of a job's end in the transaction that records it. */
  onConnectorChange?: ConnectorChangeListener;
}

/** `requeued`: given back at shutdown; `lost`: another runner took it over; `failed` includes giving up. */
export type SyncAttemptOutcome = 'succeeded' | 'failed' | 'requeued' | 'lost';

export type SyncService = ReturnType<typeof createSyncService>;

export function createSyncService(deps: SyncServiceDeps) {
  const { db, logger } = deps;
  const runnerId = randomUUID();
  const cancelByConnectorAccount = new Map<string, AbortController>();

  /** Records the end of this runner's attempt and tells the listener, in one transaction; false when the job is no longer ours. */
  const finish = (jobId: string, outcome: Parameters<typeof finishJob>[3]) =>
    knexTransaction(db, async (trx) => {
      const finished = await finishJob(trx, jobId, runnerId, outcome);
      if (finished) await deps.onConnectorChange?.(trx, { kind: 'sync-job-finished', accountId: finished.account_id, job: toSyncJob(finished) });
      return finished !== undefined;
    });

  return {
    /** The account's queued or running job, or a new queued one. */
    async startSync(accountId: string, connectorAccountId: string): Promise<SyncJobRow> {
      if (!(await findOwnedConnectorAccount(db, accountId, connectorAccountId))) throw errors.notFound('Connector account');
      for (let attempt = 0; attempt < 3; attempt++) {
        const active = await findActiveJob(db, connectorAccountId);
        if (active) return active;
        try {
          const job = await insertQueuedJob(db, { id: randomUUID(), accountId, connectorAccountId, now: Date.now() });
          deps.enqueue(job.id);
          return job;
        } catch (err) {
          if (isForeignKeyViolation(err)) throw errors.notFound('Connector account');
          // Another request queued one between our look and our insert: answer with that one.
          if (!isUniqueViolation(err)) throw err;
        }
      }
      throw errors.internal();
    },

    async getJob(accountId: string, jobId: string): Promise<SyncJobRow> {
      const job = await findOwnedJob(db, accountId, jobId);
      if (!job) throw errors.notFound('Sync job');
      return job;
    },

    async listJobs(accountId: string, connectorAccountId: string): Promise<SyncJobRow[]> {
      if (!(await findOwnedConnectorAccount(db, accountId, connectorAccountId))) throw errors.notFound('Connector account');
      return listRecentJobs(db, connectorAccountId, RECENT_JOBS);
    },

    /** Interrupts this process's job of a connector account that is being disconnected. */
    cancelFor(connectorAccountId: string): void {
      cancelByConnectorAccount.get(connectorAccountId)?.abort(new Error('The account was disconnected.'));
    },

    /** Runs one job if this runner can claim it; never throws for the job's own failures. */
    async runJob(jobId: string, shutdown: AbortSignal): Promise<void> {
      const job = await claimJob(db, jobId, runnerId, Date.now(), LEASE_MS);
      if (!job) return;
      logger.info({ jobId, attempt: job.attempts }, 'sync job started');
      const started = performance.now();
      const done = (outcome: SyncAttemptOutcome) => deps.onAttemptDone?.(outcome, (performance.now() - started) / 1000);
      const counters: SyncCounters = { ...ZERO_COUNTERS };
      if (job.attempts > MAX_ATTEMPTS) {
        const error = `The job was interrupted ${MAX_ATTEMPTS} times before it could finish; start a new sync.`;
        await finish(jobId, { status: 'failed', counters, error, now: Date.now() });
        return done('failed');
      }
      const lost = new AbortController();
      cancelByConnectorAccount.set(job.connector_account_id, lost);
      const signal = AbortSignal.any([shutdown, lost.signal]);
      const heartbeat = setInterval(() => {
        renewJob(db, jobId, runnerId, Date.now() + LEASE_MS)
          .then((mine) => mine || lost.abort(new Error('Another runner took the job over.')))
          .catch((err: unknown) => logger.warn({ err, jobId }, 'could not renew the sync job lease'));
      }, HEARTBEAT_MS);
      heartbeat.unref();
      try {
        await pullIntoTasks(job, counters, signal);
        const now = Date.now();
        if (await finish(jobId, { status: 'succeeded', counters, error: null, now })) {
          await markSynced(db, job.connector_account_id, now);
          done('succeeded');
        } else done('lost');
      } catch (err) {
        if (shutdown.aborted && shutdown.reason instanceof ShutdownAbort) {
          await requeueJob(db, jobId, runnerId);
          return done('requeued');
        }
        if (lost.signal.aborted) return done('lost');
        const error = failureMessage(err);
        if (!(err instanceof ProviderError)) logger.error({ err, jobId }, 'sync job failed inside the server');
        else logger.info({ jobId, connectorAccountId: job.connector_account_id, error }, 'sync job failed');
        await finish(jobId, { status: 'failed', counters, error, now: Date.now() });
        done('failed');
      } finally {
        clearInterval(heartbeat);
        if (cancelByConnectorAccount.get(job.connector_account_id) === lost) cancelByConnectorAccount.delete(job.connector_account_id);
      }
    },
  };

  /** Reads the provider page by page and upserts in batches, saving the counters after each batch. */
  async function pullIntoTasks(job: SyncJobRow, counters: SyncCounters, signal: AbortSignal): Promise<void> {
    const account = await findConnectorAccount(db, job.connector_account_id);
    if (!account) throw new Error('The connector account is gone.');
    const connector = deps.registry.get(account.type);
    if (!connector) throw new ProviderError('unavailable', `This server no longer offers ${account.type} connectors.`);
    let credentials: unknown;
    try {
      credentials = deps.cipher.open(account.credentials_encrypted, { connectorAccountId: account.id, type: account.type });
    } catch {
      throw new ProviderError('refused', 'The stored credentials cannot be read (the server key changed?); connect the account again.');
    }
    const connection = connector.open(credentials, deps.tools);

    const seen = new Set<string>();
    const pending: ExternalTask[] = [];
    const flush = async (items: ExternalTask[]) => {
      const counts = await deps.tasks.importExternalTasks({
        accountId: account.account_id,
        connectorAccountId: account.id,
        connectorType: account.type,
        items,
        // An attempt that died after importing a batch, before it saved its counters, inserted tasks this job created.
        insertedSince: job.started_at === null ? undefined : Number(job.started_at),
      });
      counters.created += counts.created;
      counters.updated += counts.updated;
      counters.unchanged += counts.unchanged;
      counters.dropped_over_quota += counts.droppedOverQuota;
      if (!(await renewJob(db, job.id, runnerId, Date.now() + LEASE_MS, counters))) throw new Error('The job is no longer ours.');
    };
    for await (const page of connection.items(signal)) {
      for (const item of page) {
        if (seen.has(item.externalId)) continue;
        seen.add(item.externalId);
        pending.push(item);
        counters.fetched += 1;
      }
      while (pending.length >= SYNC_BATCH_SIZE) await flush(pending.splice(0, SYNC_BATCH_SIZE));
      signal.throwIfAborted();
    }
    if (pending.length > 0) await flush(pending.splice(0));
  }
}

function failureMessage(err: unknown): string {
  if (err instanceof ProviderError) return err.message;
  return 'The sync failed inside the server; try again later.';
}
