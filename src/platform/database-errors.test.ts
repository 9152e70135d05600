import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import knexFactory from 'knex';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedDb, engines, insertAccount, insertConnectorAccount, type MigratedDb } from '../test-support/databases.js';
import { compiledQuery } from './compiled-query.js';
import { databaseFailure, isDatabaseUnavailable, isForeignKeyViolation, isUniqueViolation } from './database-errors.js';
import { closeDb, createDb } from './db.js';
import { loadConfig } from '../config.js';
import { startTcpFaultProxy } from '../test-support/tcp-fault-proxy.js';

const failureOf = (write: Promise<unknown>): Promise<unknown> => write.then(() => expect.fail('the write succeeded'), (err: unknown) => err);

describe.each(engines)('database errors on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(() => store.drop());

  it('reads a duplicate key as a unique violation and nothing else', async () => {
    const accountId = await insertAccount(store.db);
    const { email } = await store.db('accounts').where({ id: accountId }).first();
    const err = await failureOf(store.db('accounts').insert({ id: randomUUID(), email, password_hash: 'x', task_count: 0, created_at: Date.now() }));
    expect(databaseFailure(err)).toBe('unique-violation');
    expect(isUniqueViolation(err)).toBe(true);
    expect(isForeignKeyViolation(err)).toBe(false);
    expect(isDatabaseUnavailable(err)).toBe(false);
  });

  it('reads a reference to a missing row as a foreign-key violation', async () => {
    const err = await failureOf(insertConnectorAccount(store.db, randomUUID()));
    expect(databaseFailure(err)).toBe('foreign-key-violation');
    expect(isForeignKeyViolation(err)).toBe(true);
    expect(isUniqueViolation(err)).toBe(false);
  });

  it('has no meaning for a statement that is simply wrong', async () => {
    const err = await failureOf(store.db.raw('select * from no_such_table'));
    expect(databaseFailure(err)).toBeUndefined();
  });
});

describe('an unreachable database', () => {
  it('is a refused or dropped connection, PostgreSQL shutting down, a busy SQLite file or an exhausted pool', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', '57P01', '08006', 'SQLITE_BUSY']) {
      expect(isDatabaseUnavailable(Object.assign(new Error('down'), { code }))).toBe(true);
    }
    expect(isDatabaseUnavailable(Object.assign(new Error('pool'), { name: 'KnexTimeoutError' }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('a bug'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});

describe('a PostgreSQL connection cut under the client', () => {
  it('is unavailable, not a bug: the socket that closes in the handshake', async () => {
    const closer = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
    const { port } = closer.address() as { port: number };
    const db = knexFactory({ client: 'pg', connection: `postgres://postgres@127.0.0.1:${port}/postgres`, pool: { min: 0, max: 1 }, acquireConnectionTimeout: 5_000 });
    try {
      const err = await failureOf(db.raw('select 1'));
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await db.destroy();
      closer.close();
    }
  });

  it('is unavailable when the connection is cut under a knex query (knex puts the statement before the message)', async () => {
    const proxy = await startTcpFaultProxy({ host: '127.0.0.1', port: 5432 });
    const db = knexFactory({ client: 'pg', connection: `postgres://postgres@127.0.0.1:${proxy.port}/postgres`, pool: { min: 0, max: 1 } });
    try {
      await db.raw('select 1');
      const cut = failureOf(db.raw('select pg_sleep(5)'));
      setTimeout(proxy.cut, 200);
      const err = await cut;
      expect((err as Error).message).toMatch(/^select pg_sleep\(5\) - /);
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await db.destroy();
      await proxy.close();
    }
  });

  it('is unavailable for a compiled query whose connection closes at once', async () => {
    const closer = createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => closer.listen(0, '127.0.0.1', resolve));
    const { port } = closer.address() as { port: number };
    const db = createDb(loadConfig({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres` }).database);
    try {
      const err = await failureOf(compiledQuery<[], never>((knex) => knex.raw('select 1')).first(db, []));
      expect(isDatabaseUnavailable(err)).toBe(true);
    } finally {
      await closeDb(db);
      closer.close();
    }
  });
});
