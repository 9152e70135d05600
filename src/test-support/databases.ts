import { AsyncResource } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import knexFactory from 'knex';
import { loadConfig } from '../config.js';
import { closeDb, createDb, migrate, type Db } from '../platform/db.js';

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export type Engine = 'sqlite' | 'postgres';
export const engines: Engine[] = ['sqlite', 'postgres'];

export interface MigratedDb {
  db: Db;
  drop: () => Promise<void>;
}

/** A fresh, migrated database for unit tests of the store: in-memory SQLite or a new PostgreSQL database. */
export async function createMigratedDb(engine: Engine): Promise<MigratedDb> {
  if (engine === 'sqlite') {
    const db = createDb({ client: 'sqlite', filename: ':memory:' });
    await migrate(db);
    return { db, drop: () => closeDb(db) };
  }
  const name = `task_service_unit_${randomUUID().replaceAll('-', '')}`;
  const admin = knexFactory({ client: 'pg', connection: POSTGRES_ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  await admin.destroy();
  const db = createDb(loadConfig({ DATABASE_URL: POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`) }).database);
  await migrate(db);
  return {
    db,
    drop: async () => {
      await closeDb(db);
      const cleanup = knexFactory({ client: 'pg', connection: POSTGRES_ADMIN_URL, pool: { min: 0, max: 1 } });
      await cleanup.raw(`drop database if exists ${name} with (force)`);
      await cleanup.destroy();
    },
  };
}

export async function insertAccount(db: Db, taskCount = 0): Promise<string> {
  const id = randomUUID();
  await db('accounts').insert({
    id,
    email: `${id}@example.com`,
    password_hash: 'not-a-real-hash',
    task_count: taskCount,
    created_at: Date.now(),
  });
  return id;
}

/** A task row as a migration finds it stored: open, priority 3, made at 1,000 + `i` ms with change number `i` + 1. */
export function storedTaskRow(accountId: string, i: number, title: string, notes: string | null, labels: string[]) {
  return {
    id: randomUUID(),
    account_id: accountId,
    title,
    notes,
    status: 'open',
    priority: 3,
    labels: JSON.stringify(labels),
    created_at: 1_000 + i,
    updated_at: 1_000 + i,
    change_seq: i + 1,
  };
}

export async function insertConnectorAccount(db: Db, accountId: string, type: 'github' | 'ical' = 'github'): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await db('connector_accounts').insert({
    id,
    account_id: accountId,
    type,
    external_id: id,
    display_name: 'test',
    credentials_encrypted: 'x',
    created_at: now,
    updated_at: now,
  });
  return id;
}

/**
 * Runs `work` as another request would, outside every transaction the caller is in: a statement on the
 * database from inside a transaction is refused (src/platform/transaction-scope.ts).
 */
export const asAnotherRequest: <T>(work: () => T) => T = AsyncResource.bind((work) => work());
