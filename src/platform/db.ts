import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrations } from './migrations/index.js';
import { sqliteConnectionMade, sqliteConnectionState } from './sqlite-connection.js';
import { guardKnexStatements, refuseInsideTransaction } from './transaction-scope.js';
import { databaseOf, type Transaction } from './transaction.js';

export type Db = Knex;

// Times and counters are BIGINT epoch milliseconds: read them back as numbers, not strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/** Connections per PostgreSQL instance (docs/production.md): one pool, knex's, for every statement. */
const POSTGRES_POOL_MAX = 10;

export function createDb(database: Config['database']): Db {
  const db = database.client === 'postgres' ? createPostgresDb(database) : createSqliteDb(database.filename);
  guardKnexStatements(db);
  return db;
}

function createPostgresDb({ url, timeouts }: Extract<Config['database'], { client: 'postgres' }>): Db {
  return knexFactory({
    client: 'pg',
    // pg sets them on each session it opens: no statement runs or waits on a row lock for ever.
    connection: { connectionString: url, statement_timeout: timeouts.statementMs, lock_timeout: timeouts.lockMs } as pg.ClientConfig as Knex.StaticConnectionConfig,
    pool: { min: 0, max: POSTGRES_POOL_MAX },
    // A wait for a connection of a full pool ends in KnexTimeoutError: 503 (src/platform/database-errors.ts).
    acquireConnectionTimeout: timeouts.acquireMs,
  });
}

function createSqliteDb(filename: string): Db {
  if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
  // One connection: SQLite serialises writers anyway; in this process its users take turns
  // (src/platform/sqlite-connection.ts); against other processes the hot writes BEGIN IMMEDIATE
  // (src/platform/transaction.ts). WAL lets readers of other processes go on. The pool is ours (knex's
  // `connectionPool`), so that a knex statement on the database inside one of its transactions is
  // refused when it asks for the connection, which the transaction holds, instead of waiting for it.
  const pool = new GuardedPool<SqliteDatabase.Database>({
    min: 1,
    max: 1,
    // knex's default: a statement waits this long for a transaction that holds the connection across awaits.
    acquireTimeoutMillis: 60_000,
    create: () => {
      const connection = new SqliteDatabase(filename);
      connection.pragma('journal_mode = WAL');
      connection.pragma('busy_timeout = 5000');
      connection.pragma('foreign_keys = ON');
      connection.pragma('synchronous = NORMAL');
      sqliteConnectionMade(db, connection);
      return connection;
    },
    destroy: (connection) => void connection.close(),
    validate: (connection) => connection.open,
  });
  const db: Knex = knexFactory({ client: 'better-sqlite3', connectionPool: pool, useNullAsDefault: true });
  pool.database = db;
  ownPools.set(db, pool);
  return db;
}

/** A pool that refuses a connection to code running inside a transaction on its database (src/platform/transaction-scope.ts). */
class GuardedPool<T> extends knexFactory.KnexPool<T> {
  database?: Knex;
  override acquire() {
    if (this.database) refuseInsideTransaction(this.database);
    return super.acquire();
  }
}

/** The pools this module made for knex, which knex does not close. */
const ownPools = new WeakMap<Knex, { destroy: () => Promise<unknown> }>();

/** Closes the database's connections. */
export async function closeDb(db: Db): Promise<void> {
  await db.destroy();
  await ownPools.get(db)?.destroy();
}

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource: migrations });
}

export const isPostgres = (db: Db | Transaction): boolean => databaseOf(db).client.config.client === 'pg';

/** The connections of the database's one pool: in use, idle, waited for, and the most it opens (SQLite: its one connection's turns). */
export function poolCounts(db: Db): { used: number; free: number; pending: number; max: number } {
  if (isPostgres(db)) {
    // knex makes its pool a KnexPool (knex's export, tarn.js's Pool), whose counters are tarn's documented API;
    // knex's typings give `client` no type, so the pool is checked to be one before it is read.
    const pool: unknown = db.client.pool;
    if (!(pool instanceof knexFactory.KnexPool)) return { used: 0, free: 0, pending: 0, max: POSTGRES_POOL_MAX };
    return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires(), max: POSTGRES_POOL_MAX };
  }
  const { held, waiting } = sqliteConnectionState(db);
  return { used: held ? 1 : 0, free: held ? 0 : 1, pending: waiting, max: 1 };
}

export async function isDbReachable(db: Db): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
