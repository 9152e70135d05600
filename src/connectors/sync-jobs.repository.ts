import type { Knex } from 'knex';

export type SyncJobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

export interface SyncCounters {
  fetched: number;
  created: number;
  updated: number;
  unchanged: number;
  dropped_over_quota: number;
}

export interface SyncJobRow extends SyncCounters {
  id: string;
  account_id: string;
  connector_account_id: string;
  status: SyncJobStatus;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  error: string | null;
  runner_id: string | null;
  lease_until: number | null;
  attempts: number;
}

const table = 'sync_jobs';
export const ZERO_COUNTERS: SyncCounters = { fetched: 0, created: 0, updated: 0, unchanged: 0, dropped_over_quota: 0 };

/** Inserts a queued job; the partial unique index refuses it while the account has one queued or running. */
export async function insertQueuedJob(db: Knex, job: { id: string; accountId: string; connectorAccountId: string; now: number }): Promise<SyncJobRow> {
  const row: SyncJobRow = {
    id: job.id,
    account_id: job.accountId,
    connector_account_id: job.connectorAccountId,
    status: 'queued',
    created_at: job.now,
    started_at: null,
    finished_at: null,
    ...ZERO_COUNTERS,
    error: null,
    runner_id: null,
    lease_until: null,
    attempts: 0,
  };
  await db(table).insert(row);
  return row;
}

export async function findActiveJob(db: Knex, connectorAccountId: string): Promise<SyncJobRow | undefined> {
  return db<SyncJobRow>(table).where({ connector_account_id: connectorAccountId }).whereIn('status', ['queued', 'running']).first();
}

export async function findOwnedJob(db: Knex, accountId: string, jobId: string): Promise<SyncJobRow | undefined> {
  return db<SyncJobRow>(table).where({ id: jobId, account_id: accountId }).first();
}

export async function listRecentJobs(db: Knex, connectorAccountId: string, limit: number): Promise<SyncJobRow[]> {
  return db<SyncJobRow>(table)
    .where({ connector_account_id: connectorAccountId })
    .orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .limit(limit);
}

/**
 * Takes a job for this runner: a queued one, or a running one whose lease ran out (its process
 * died). One conditional UPDATE, so two runners never both get it. Counters restart with the attempt.
 */
export async function claimJob(db: Knex, jobId: string, runnerId: string, now: number, leaseMs: number): Promise<SyncJobRow | undefined> {
  const rows: SyncJobRow[] = await db<SyncJobRow>(table)
    .where({ id: jobId })
    .andWhere((q) => q.where('status', 'queued').orWhere((r) => r.where('status', 'running').andWhere('lease_until', '<', now)))
    .update(
      {
        status: 'running',
        runner_id: runnerId,
        lease_until: now + leaseMs,
        attempts: db.raw('attempts + 1'),
        started_at: db.raw('coalesce(started_at, ?)', [now]),
        ...ZERO_COUNTERS,
      },
      '*',
    );
  return rows[0];
}

/** Ids of jobs a runner may claim: queued, or running with a lapsed lease; oldest first. */
export async function claimableJobIds(db: Knex, now: number, limit: number): Promise<string[]> {
  const rows: { id: string }[] = await db(table)
    .select('id')
    .where('status', 'queued')
    .orWhere((q) => q.where('status', 'running').andWhere('lease_until', '<', now))
    .orderBy('created_at')
    .limit(limit);
  return rows.map((row) => row.id);
}

/** Saves progress and extends the lease; false when the job is no longer this runner's (or is gone). */
export async function renewJob(db: Knex, jobId: string, runnerId: string, until: number, counters?: SyncCounters): Promise<boolean> {
  const changed = await db(table)
    .where({ id: jobId, runner_id: runnerId, status: 'running' })
    .update({ lease_until: until, ...(counters ?? {}) });
  return changed === 1;
}

/** The finished job, or undefined when it is no longer this runner's. */
export async function finishJob(
  db: Knex,
  jobId: string,
  runnerId: string,
  outcome: { status: 'succeeded' | 'failed'; counters: SyncCounters; error: string | null; now: number },
): Promise<SyncJobRow | undefined> {
  const rows: SyncJobRow[] = await db(table)
    .where({ id: jobId, runner_id: runnerId, status: 'running' })
    .update({ status: outcome.status, ...outcome.counters, error: outcome.error, finished_at: outcome.now, lease_until: null }, '*');
  return rows[0];
}

/** Gives a job back to the queue (the process is shutting down); the interrupted attempt does not count. */
export async function requeueJob(db: Knex, jobId: string, runnerId: string): Promise<void> {
  await db(table)
    .where({ id: jobId, runner_id: runnerId, status: 'running' })
    .update({ status: 'queued', runner_id: null, lease_until: null, attempts: db.raw('case when attempts > 0 then attempts - 1 else 0 end') });
}
