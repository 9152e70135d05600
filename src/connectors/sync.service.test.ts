import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyTodos, startFakeIcalFeeds, type FakeIcalFeeds } from '../../contract-tests/support/fakes/ical.fake.js';
import { createLogger } from '../platform/logger.js';
import { createTasksForSync } from '../tasks/tasks.component.js';
import { createMigratedDb, engines, insertAccount, type MigratedDb } from '../test-support/databases.js';
import type { ConnectorDefinition, ConnectorType } from './connector-registry.js';
import { createCredentialsCipher } from './credentials-cipher.js';
import { icalConnector } from './ical.connector.js';
import { createSafeFetch } from './safe-fetch.js';
import { ShutdownAbort } from './sync-runner.js';
import { createSyncService } from './sync.service.js';

const cipher = createCredentialsCipher(Buffer.alloc(32, 5));
const fetch = createSafeFetch({ allowPrivateNetworks: true, timeoutMs: 1_000 });
const registry = new Map<ConnectorType, ConnectorDefinition>([['ical', icalConnector]]);
let feeds: FakeIcalFeeds;
beforeAll(async () => {
  feeds = await startFakeIcalFeeds();
});
afterAll(async () => {
  await fetch.close();
  await feeds.close();
});

describe.each(engines)('sync jobs on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(async () => {
    await store.drop();
  });

  const setUp = async (options: { maxTasks?: number; feedPath?: string } = {}) => {
    const enqueued: string[] = [];
    const sync = createSyncService({
      tasks: createTasksForSync({ db: store.db, maxTasks: options.maxTasks ?? 10_000 }),
      db: store.db,
      logger: createLogger('silent'),
      registry,
      cipher,
      tools: { fetch, digest: cipher.digest },
      enqueue: (jobId) => void enqueued.push(jobId),
    });
    const accountId = await insertAccount(store.db);
    const connectorAccountId = randomUUID();
    const url = feeds.url(options.feedPath ?? `/${connectorAccountId}.ics`);
    await store.db('connector_accounts').insert({
      id: connectorAccountId,
      account_id: accountId,
      type: 'ical',
      external_id: url,
      display_name: 'feed',
      credentials_encrypted: cipher.seal({ url }, { connectorAccountId, type: 'ical' }),
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    const jobRow = (jobId: string) => store.db('sync_jobs').where('id', jobId).first();
    return { sync, enqueued, accountId, connectorAccountId, url, jobRow };
  };

  it('runs a 30-item feed at a task cap of 20: 20 created, 10 dropped, and the job succeeds', async () => {
    const { sync, enqueued, accountId, connectorAccountId, jobRow } = await setUp({ maxTasks: 20 });
    feeds.setFeed(`/${connectorAccountId}.ics`, manyTodos(30));
    const job = await sync.startSync(accountId, connectorAccountId);
    expect(enqueued).toEqual([job.id]);
    await sync.runJob(job.id, new AbortController().signal);
    expect(await jobRow(job.id)).toMatchObject({ status: 'succeeded', fetched: 30, created: 20, updated: 0, unchanged: 0, dropped_over_quota: 10, error: null });
    expect(Number((await store.db('connector_accounts').where('id', connectorAccountId).first()).last_synced_at)).toBeGreaterThan(0);
  });

  it('answers parallel starts with one job while it is queued, and a new one once it finished', async () => {
    const { sync, accountId, connectorAccountId } = await setUp();
    feeds.setFeed(`/${connectorAccountId}.ics`, manyTodos(2));
    const jobs = await Promise.all(Array.from({ length: 6 }, () => sync.startSync(accountId, connectorAccountId)));
    expect(new Set(jobs.map((job) => job.id)).size).toBe(1);
    await sync.runJob(jobs[0]!.id, new AbortController().signal);
    const next = await sync.startSync(accountId, connectorAccountId);
    expect(next.id).not.toBe(jobs[0]!.id);
  });

  it('lets one runner claim a job; a running job whose lease lapsed (its process died) is claimed again and finished', async () => {
    const { sync, accountId, connectorAccountId, jobRow } = await setUp();
    feeds.setFeed(`/${connectorAccountId}.ics`, manyTodos(3));
    const job = await sync.startSync(accountId, connectorAccountId);
    await store.db('sync_jobs').where('id', job.id).update({ status: 'running', runner_id: randomUUID(), lease_until: Date.now() + 60_000, attempts: 1 });
    await sync.runJob(job.id, new AbortController().signal);
    expect(await jobRow(job.id)).toMatchObject({ status: 'running', fetched: 0 });

    await store.db('sync_jobs').where('id', job.id).update({ lease_until: Date.now() - 1 });
    await sync.runJob(job.id, new AbortController().signal);
    expect(await jobRow(job.id)).toMatchObject({ status: 'succeeded', fetched: 3, created: 3, attempts: 2 });
  });

  it('counts as created the tasks an attempt inserted before its process died, and a later job finds them unchanged', async () => {
    const { sync, accountId, connectorAccountId, jobRow } = await setUp();
    feeds.setFeed(`/${connectorAccountId}.ics`, manyTodos(5));
    const job = await sync.startSync(accountId, connectorAccountId);
    await sync.runJob(job.id, new AbortController().signal);
    // As if the attempt had died after it imported the feed, before it saved its counters: the job is running
    // under a lapsed lease, its counters at zero, its tasks stored.
    await store.db('sync_jobs').where('id', job.id).update({ status: 'running', runner_id: randomUUID(), lease_until: Date.now() - 1, finished_at: null, fetched: 0, created: 0 });
    await sync.runJob(job.id, new AbortController().signal);
    expect(await jobRow(job.id)).toMatchObject({ status: 'succeeded', fetched: 5, created: 5, updated: 0, unchanged: 0, attempts: 2 });
    expect(await store.db('tasks').where('connector_account_id', connectorAccountId).count({ n: '*' })).toEqual([{ n: 5 }]);

    const next = await sync.startSync(accountId, connectorAccountId);
    await sync.runJob(next.id, new AbortController().signal);
    expect(await jobRow(next.id)).toMatchObject({ status: 'succeeded', fetched: 5, created: 0, unchanged: 5 });
  });

  it('fails a job that was interrupted three times instead of trying it for ever', async () => {
    const { sync, accountId, connectorAccountId, jobRow } = await setUp();
    const job = await sync.startSync(accountId, connectorAccountId);
    await store.db('sync_jobs').where('id', job.id).update({ status: 'running', runner_id: randomUUID(), lease_until: Date.now() - 1, attempts: 3 });
    await sync.runJob(job.id, new AbortController().signal);
    const row = await jobRow(job.id);
    expect(row).toMatchObject({ status: 'failed', error: 'The job was interrupted 3 times before it could finish; start a new sync.' });
    expect(Number(row.finished_at)).toBeGreaterThan(0);
  });

  it('gives a job back to the queue when the server shuts down under it', async () => {
    const { sync, accountId, connectorAccountId, jobRow } = await setUp();
    feeds.setFeed(`/${connectorAccountId}.ics`, [], { hang: true });
    const job = await sync.startSync(accountId, connectorAccountId);
    const shutdown = new AbortController();
    const running = sync.runJob(job.id, shutdown.signal);
    await new Promise((resolve) => setTimeout(resolve, 100));
    shutdown.abort(new ShutdownAbort());
    await running;
    expect(await jobRow(job.id)).toMatchObject({ status: 'queued', runner_id: null, lease_until: null, attempts: 0 });
  });

  it('fails the job with the provider error when the feed cannot be read', async () => {
    const { sync, accountId, connectorAccountId, url, jobRow } = await setUp();
    feeds.setFeed(`/${connectorAccountId}.ics`, [], { status: 503 });
    const job = await sync.startSync(accountId, connectorAccountId);
    await sync.runJob(job.id, new AbortController().signal);
    expect(await jobRow(job.id)).toMatchObject({ status: 'failed', error: `The feed could not be read: ${url} answered 503.` });
  });
});
