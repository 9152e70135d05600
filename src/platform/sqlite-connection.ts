import { AsyncResource } from 'node:async_hooks';
import type { Knex } from 'knex';

/** What this module needs of better-sqlite3's connection. */
export interface SqliteConnection {
  readonly open: boolean;
  readonly inTransaction: boolean;
}

/**
 * Who uses SQLite's one connection, in turn. A synchronous job (a compiled statement, a transaction of
 * better-sqlite3's own) runs at once when no one holds the connection, else in its turn, and in either
 * case checks and runs in the same tick, so it never lands inside another's transaction. A transaction
 * that awaits (`holdSqliteConnection`: knex's, which also holds knex's pool of one, so knex's own
 * statements wait in that pool) holds the connection until it ends, and the jobs after it wait.
 */
interface Turns {
  connection?: SqliteConnection;
  held: boolean;
  queue: Turn[];
}
type Turn = { kind: 'job'; run: () => void } | { kind: 'hold'; start: () => void };

const turnsOfDb = new WeakMap<Knex, Turns>();

function turnsOf(db: Knex): Turns {
  let turns = turnsOfDb.get(db);
  if (!turns) {
    turns = { held: false, queue: [] };
    turnsOfDb.set(db, turns);
  }
  return turns;
}

/** @internal createDb: the pool made the SQLite database's one connection. */
export function sqliteConnectionMade(db: Knex, connection: SqliteConnection): void {
  turnsOf(db).connection = connection;
}

/** Runs `job` synchronously on the connection: now when no one holds it, else in its turn. */
export function onSqliteConnection<C extends SqliteConnection, T>(db: Knex, job: (connection: C) => T): Promise<T> {
  const turns = turnsOf(db);
  if (!turns.held && turns.queue.length === 0 && turns.connection?.open) return settled(() => job(usable(turns) as C));
  return new Promise<T>((resolve, reject) => {
    const run = AsyncResource.bind(() => {
      try {
        resolve(job(usable(turns) as C));
      } catch (error) {
        reject(error as Error);
      }
    });
    if (turns.connection?.open) turns.queue.push({ kind: 'job', run });
    // No connection yet (or the pool is making a new one): knex's pool makes it, then this job takes its turn.
    else holdSqliteConnection(db, () => db.raw('select 1')).then(() => void onSqliteConnection(db, () => run()), reject);
  });
}

/** Runs `work`, which holds the connection across awaits, once the turns before it have ended; the turns after it wait for it. */
export function holdSqliteConnection<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  const turns = turnsOf(db);
  return new Promise<T>((resolve, reject) => {
    const start = AsyncResource.bind(() => {
      turns.held = true;
      const ended = () => {
        turns.held = false;
        nextTurns(turns);
      };
      work().then(
        (value) => {
          ended();
          resolve(value);
        },
        (error: unknown) => {
          ended();
          reject(error as Error);
        },
      );
    });
    if (!turns.held && turns.queue.length === 0) start();
    else turns.queue.push({ kind: 'hold', start });
  });
}

/** Whether a transaction that awaits holds the connection, or jobs wait for it (the pool gauges: src/http/metrics.ts). */
export function sqliteConnectionState(db: Knex): { held: boolean; waiting: number } {
  const turns = turnsOf(db);
  return { held: turns.held, waiting: turns.queue.length };
}

function nextTurns(turns: Turns): void {
  while (!turns.held && turns.queue.length > 0) {
    const next = turns.queue.shift()!;
    if (next.kind === 'job') next.run();
    else next.start();
  }
}

/**
 * The connection for a job. Open in a transaction no turn holds, it was begun around the turns (a knex
 * transaction not made by src/platform/transaction.ts, or one a failed rollback left open): a job would
 * join it, so it fails instead.
 */
function usable(turns: Turns): SqliteConnection {
  const connection = turns.connection;
  if (!connection?.open) throw new Error('SQLite: the database is closed');
  if (connection.inTransaction) {
    throw new Error('SQLite: the connection is in a transaction begun outside transaction(), transactionNow(), readNow() or knexTransaction() (src/platform/transaction.ts)');
  }
  return connection;
}

function settled<T>(job: () => T): Promise<T> {
  try {
    return Promise.resolve(job());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** The connection a transaction holding its turn runs its statements on (knex's pool of one hands out the same). */
export function heldSqliteConnection<C extends SqliteConnection>(db: Knex): C {
  const turns = turnsOf(db);
  if (!turns.held || !turns.connection) throw new Error('SQLite: the connection is not held by a transaction');
  return turns.connection as C;
}
