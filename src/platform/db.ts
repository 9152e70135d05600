import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrations } from './migrations/index.js';
import { sqliteConnectionMade, sqliteConnectionState } from './sqlite-connection.js';
import { guardKnexStatements } from './transaction-scope.js';
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
  const db: Knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway; in this process its users take turns
    // (src/platform/sqlite-connection.ts); against other processes the hot writes BEGIN IMMEDIATE
    // (src/platform/transaction.ts). WAL lets readers of other processes go on.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: { pragma: (sql: string) => unknown; open: boolean; inTransaction: boolean }, done: (err: Error | null, conn: unknown) => void) => {
        conn.pragma('journal_mode = WAL');
        conn.pragma('busy_timeout = 5000');
        conn.pragma('foreign_keys = ON');
        conn.pragma('synchronous = NORMAL');
        sqliteConnectionMade(db, conn);
        done(null, conn);
      },
    },
  });
  return db;
}

/** Closes the database's connections. */
export async function closeDb(db: Db): Promise<void> {
  await db.destroy();
}

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource: migrations });
}

export const isPostgres = (db: Db | Transaction): boolean => databaseOf(db).client.config.client === 'pg';

/** The connections of the database's one pool: in use, idle, waited for, and the most it opens (SQLite: its one connection's turns). */
export function poolCounts(db: Db): { used: number; free: number; pending: number; max: number } {
  if (isPostgres(db)) {
    // knex's pool is tarn.js, whose counters are its documented API.
    const pool = (db.client as { pool?: TarnPool }).pool;
    if (!pool) return { used: 0, free: 0, pending: 0, max: POSTGRES_POOL_MAX };
    return { used: pool.numUsed(), free: pool.numFree(), pending: pool.numPendingAcquires(), max: pool.max };
  }
  const { held, waiting } = sqliteConnectionState(db);
  return { used: held ? 1 : 0, free: held ? 0 : 1, pending: waiting, max: 1 };
}

interface TarnPool {
  max: number;
  numUsed: () => number;
  numFree: () => number;
  numPendingAcquires: () => number;
}

export async function isDbReachable(db: Db): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
