// Syncing a 10,000-item iCalendar feed into an empty account, on each engine, against the ceiling: the
// same rows inserted with knex in one transaction. Target: within 3x of the ceiling.
import { randomUUID } from 'node:crypto';
import { manyTodos, startFakeIcalFeeds } from '../contract-tests/support/fakes/ical.fake.js';
import type { ConnectorDefinition, ConnectorType } from '../src/connectors/connector-registry.js';
import { createCredentialsCipher } from '../src/connectors/credentials-cipher.js';
import { icalConnector } from '../src/connectors/ical.connector.js';
import { createSafeFetch } from '../src/connectors/safe-fetch.js';
import { createSyncService } from '../src/connectors/sync.service.js';
import { closeDb, type Db } from '../src/platform/db.js';
import { createLogger } from '../src/platform/logger.js';
import { createTasksForSync, type ExternalTask } from '../src/tasks/tasks.component.js';
import { createDatabase, ENGINES, median, openDb } from './harness.js';

const ITEMS = 10_000;
const RUNS = 3;
const TARGET_RATIO = 3;

const cipher = createCredentialsCipher(Buffer.alloc(32, 9));
const fetch = createSafeFetch({ allowPrivateNetworks: true });
const registry = new Map<ConnectorType, ConnectorDefinition>([['ical', icalConnector]]);
const logger = createLogger('silent');

/** A new account with an iCalendar connector account of `externalId`: both ids. */
async function newConnector(db: Db, externalId: string, credentials: (connectorAccountId: string) => string) {
  const [accountId, connectorAccountId, now] = [randomUUID(), randomUUID(), Date.now()];
  await db('accounts').insert({ id: accountId, email: `${accountId}@bench.example.com`, password_hash: 'x', task_count: 0, created_at: now });
  await db('connector_accounts').insert({
    id: connectorAccountId,
    account_id: accountId,
    type: 'ical',
    external_id: externalId,
    display_name: 'bench',
    credentials_encrypted: credentials(connectorAccountId),
    created_at: now,
    updated_at: now,
  });
  return { accountId, connectorAccountId };
}

/** The whole job as the server runs it: download, parse, upsert in batches, counters. */
async function timeSync(db: Db, feedUrl: string): Promise<number> {
  const sync = createSyncService({ tasks: createTasksForSync({ db, maxTasks: 10_000 }), db, logger, registry, cipher, tools: { fetch, digest: cipher.digest }, enqueue: () => undefined });
  const { accountId, connectorAccountId } = await newConnector(db, feedUrl, (id) => cipher.seal({ url: feedUrl }, { connectorAccountId: id, type: 'ical' }));
  const job = await sync.startSync(accountId, connectorAccountId);
  const started = performance.now();
  await sync.runJob(job.id, new AbortController().signal);
  const elapsed = performance.now() - started;
  const row = await db('sync_jobs').where('id', job.id).first();
  if (row.status !== 'succeeded' || Number(row.created) !== ITEMS) throw new Error(`sync did not create ${ITEMS} tasks: ${JSON.stringify(row)}`);
  return elapsed;
}

/** The ceiling: the same rows, already mapped, inserted with knex in one transaction. */
async function timeCeiling(db: Db, items: ExternalTask[]): Promise<number> {
  const { accountId, connectorAccountId } = await newConnector(db, randomUUID(), () => 'x');
  const now = Date.now();
  const rows = items.map((item, i) => ({
    id: randomUUID(),
    account_id: accountId,
    title: item.title,
    notes: item.notes,
    status: item.status,
    priority: 3,
    due_at: item.dueAt,
    labels: '[]',
    completed_at: item.completedAt,
    created_at: now,
    updated_at: now,
    connector_account_id: connectorAccountId,
    connector_type: 'ical',
    external_id: item.externalId,
    external_url: item.url,
    change_seq: i + 1,
  }));
  const started = performance.now();
  await db.transaction(async (trx) => {
    // 500 rows per statement keeps under both engines' bound-parameter limits.
    await trx.batchInsert('tasks', rows, 500);
    await trx('accounts').where('id', accountId).update({ task_count: rows.length, task_change_seq: rows.length });
  });
  return performance.now() - started;
}

const fmt = (ms: number) => `${ms.toFixed(0).padStart(6)} ms (${Math.round((ITEMS / ms) * 1000).toLocaleString('en').padStart(7)} items/s)`;

async function main(): Promise<void> {
  const feeds = await startFakeIcalFeeds();
  feeds.setFeed('/bench.ics', manyTodos(ITEMS));
  const feedUrl = feeds.url('/bench.ics');
  const items: ExternalTask[] = [];
  const parseStarted = performance.now();
  for await (const page of icalConnector.open({ url: feedUrl }, { fetch, digest: cipher.digest }).items(new AbortController().signal)) items.push(...page);
  const downloadAndParse = performance.now() - parseStarted;

  process.stdout.write(`Sync of a ${ITEMS.toLocaleString('en')}-item iCalendar feed into an empty account; median of ${RUNS} runs after a warm-up.\n`);
  process.stdout.write(`download + parse alone (ical.js): ${fmt(downloadAndParse)}\n\n`);
  let missed = false;
  for (const engine of ENGINES) {
    const database = await createDatabase(engine);
    const db = await openDb(database.url);
    try {
      await timeSync(db, feedUrl);
      await timeCeiling(db, items);
      const syncs: number[] = [];
      const ceilings: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        syncs.push(await timeSync(db, feedUrl));
        ceilings.push(await timeCeiling(db, items));
      }
      const ratio = median(syncs) / median(ceilings);
      missed ||= ratio > TARGET_RATIO;
      process.stdout.write(`${engine}\n  sync job             ${fmt(median(syncs))}\n  knex insert ceiling  ${fmt(median(ceilings))}\n`);
      process.stdout.write(`  ratio ${ratio.toFixed(2)}x  (target <= ${TARGET_RATIO}x: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'})\n\n`);
    } finally {
      await closeDb(db);
      await database.drop();
    }
  }
  await fetch.close();
  await feeds.close();
  if (missed) process.stdout.write('At least one engine missed the target.\n');
}

await main();
