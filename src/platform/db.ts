import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrations } from './migrations/index.js';
import { endPgPool, pgPoolMade } from './pg-pool.js';
import { sqliteConnectionMade } from './sqlite-connection.js';
import { databaseOf, type Transaction } from './transaction.js';

export type Db = Knex;

// Times and counters are BIGINT epoch milliseconds: read them back as numbers, not strings.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function createDb(database: Config['database']): Db {
  if (database.client === 'postgres') {
    // 10 connections per instance (docs/production.md): 6 for the hot paths, 4 for knex, whose transactions may read beside them.
    const db = knexFactory({ client: 'pg', connection: database.url, pool: { min: 0, max: 4 } });
    pgPoolMade(db, database.url, 6);
    return db;
  }
  if (database.filename !== ':memory:') mkdirSync(dirname(database.filename), { recursive: true });
  const db: Knex = knexFactory({
    client: 'better-sqlite3',
    connection: { filename: database.filename },
    useNullAsDefault: true,
    // One connection: SQLite serialises writers anyway, and one handle serialises this process's
    // transactions (against other processes, the hot writes BEGIN IMMEDIATE: src/platform/transaction.ts);
    // WAL lets readers of other processes go on.
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

/** Closes the database's connections: knex's and, on PostgreSQL, the hot paths' pool. */
export async function closeDb(db: Db): Promise<void> {
  await endPgPool(db);
  await db.destroy();
}

export async function migrate(db: Db): Promise<void> {
  await db.migrate.latest({ migrationSource: migrations });
}

export const isPostgres = (db: Db | Transaction): boolean => databaseOf(db).client.config.client === 'pg';

export async function isDbReachable(db: Db): Promise<boolean> {
  try {
    await db.raw('select 1');
    return true;
  } catch {
    return false;
  }
}
