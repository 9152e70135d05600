import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { asAnotherRequest, createMigratedDb, insertAccount, type MigratedDb } from '../test-support/databases.js';
import { startTcpFaultProxy, type TcpFaultProxy } from '../test-support/tcp-fault-proxy.js';
import { compiledQuery } from './compiled-query.js';
import { isDatabaseUnavailable } from './database-errors.js';
import { closeDb, createDb, poolCounts, type Db } from './db.js';
import { transaction } from './transaction.js';

const countOf = compiledQuery<[string], { task_count: number }>((db, $) => db('accounts').select('task_count').where('id', $(0)));
const addOne = compiledQuery<[string], never>((db, $) => db('accounts').where('id', $(0)).increment('task_count', 1));
const preparedNames = compiledQuery<[], { name: string }>((db) => db.raw('select name from pg_prepared_statements'));

/** The database of `store` again, through `proxy`, with a wait for a pool connection of `acquireMs`. */
function throughProxy(store: MigratedDb, proxy: TcpFaultProxy, acquireMs: number, settings: Record<string, string> = {}): Db {
  const url = new URL(String((store.db.client.config as { connection: { connectionString: string } }).connection.connectionString));
  url.port = String(proxy.port);
  const database = loadConfig({ DATABASE_URL: url.toString(), DATABASE_ACQUIRE_TIMEOUT_MS: String(acquireMs), ...settings }).database;
  return createDb(database);
}

describe('PostgreSQL: one pool of 10 connections per database', () => {
  let store: MigratedDb;
  let proxy: TcpFaultProxy;
  beforeAll(async () => {
    store = await createMigratedDb('postgres');
    proxy = await startTcpFaultProxy({ host: '127.0.0.1', port: 5432 });
  });
  afterAll(async () => {
    await proxy.close();
    await store.drop();
  });

  it('full of transactions that each need a second statement, a request beside them fails as unavailable at the acquire timeout, and they all commit', async () => {
    const db = throughProxy(store, proxy, 300);
    try {
      const ids = await Promise.all(Array.from({ length: 10 }, () => insertAccount(db, 0)));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let begun = 0;
      const holders = ids.map((id) =>
        transaction(db, async (trx) => {
          await addOne.run(trx, [id]);
          begun++;
          await released;
          await addOne.run(trx, [id]);
        }),
      );
      while (begun < 10) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(poolCounts(db)).toMatchObject({ used: 10, free: 0, max: 10 });
      const started = Date.now();
      const beside = await asAnotherRequest(() => countOf.first(db, [ids[0]!]).then(() => undefined, (error: unknown) => error));
      expect(isDatabaseUnavailable(beside)).toBe(true);
      expect(Date.now() - started).toBeLessThan(2_000);
      release();
      await Promise.all(holders);
      for (const id of ids) expect((await countOf.first(db, [id]))?.task_count).toBe(2);
      expect(poolCounts(db)).toMatchObject({ used: 0, pending: 0 });
    } finally {
      await closeDb(db);
    }
  });

  it('a connection cut between two statements of a transaction fails it as unavailable, undoes it, and the statements go on under their own names', async () => {
    const db = throughProxy(store, proxy, 2_000);
    try {
      const id = await insertAccount(db, 0);
      await addOne.run(db, [id]);
      const failure = await transaction(db, async (trx) => {
        await addOne.run(trx, [id]);
        proxy.cut();
        await addOne.run(trx, [id]);
      }).then(
        () => undefined,
        (error: unknown) => error,
      );
      proxy.restore();
      expect(isDatabaseUnavailable(failure)).toBe(true);
      expect((await countOf.first(db, [id]))?.task_count).toBe(1);
      await transaction(db, async (trx) => {
        await addOne.run(trx, [id]);
        const names = (await preparedNames.all(trx, [])).map((row) => row.name);
        expect(names.filter((name) => name.startsWith('cq_'))).not.toHaveLength(0);
        expect(names.filter((name) => name.includes('.'))).toEqual([]);
      });
      expect((await countOf.first(db, [id]))?.task_count).toBe(2);
    } finally {
      proxy.restore();
      await closeDb(db);
    }
  });

  it('a statement waits on a row lock at most DATABASE_LOCK_TIMEOUT_MS, and runs at most DATABASE_STATEMENT_TIMEOUT_MS: then fails as unavailable', async () => {
    const db = throughProxy(store, proxy, 2_000, { DATABASE_LOCK_TIMEOUT_MS: '200', DATABASE_STATEMENT_TIMEOUT_MS: '500' });
    try {
      const id = await insertAccount(db, 0);
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holder = transaction(db, async (trx) => {
        await addOne.run(trx, [id]);
        locked();
        await released;
      });
      await isLocked;
      const started = Date.now();
      const waited = await asAnotherRequest(() => addOne.run(db, [id]).then(() => undefined, (error: unknown) => error));
      expect(isDatabaseUnavailable(waited)).toBe(true);
      expect(Date.now() - started).toBeLessThan(1_500);
      release();
      await holder;
      const slow = await db.raw('select pg_sleep(2)').then(() => undefined, (error: unknown) => error);
      expect(isDatabaseUnavailable(slow)).toBe(true);
      expect((await countOf.first(db, [id]))?.task_count).toBe(1);
    } finally {
      await closeDb(db);
    }
  });
});
