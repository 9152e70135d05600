import type { Knex } from 'knex';
import type pg from 'pg';
import { pgPoolOf } from './pg-pool.js';
import { idleSqliteConnection, inSqliteTurn, sqliteConnectionWhenIdle } from './sqlite-connection.js';

/**
 * A transaction on one connection, for the hot writes: on PostgreSQL one checked out of pg's pool
 * (src/platform/pg-pool.ts), on SQLite the one connection, taken in turn (src/platform/sqlite-connection.ts). knex makes a
 * new transactor (a whole knex instance) for every transaction and sends BEGIN and COMMIT through its
 * query machinery, prepared again each time: 10-16% of POST /tasks on SQLite (docs/benchmarks.md).
 * Here BEGIN, COMMIT and ROLLBACK are prepared once per connection (SQLite) or sent as simple queries
 * (PostgreSQL), and the statements inside are compiled queries (src/platform/compiled-query.ts) run
 * on the held connection.
 *
 * The connection is held from BEGIN to COMMIT or ROLLBACK: on SQLite, whose one connection serves the
 * whole process (src/platform/db.ts), other transactions and compiled queries wait for the end.
 * Rare writes are knex transactions begun by `knexTransaction`; `AnyTransaction` is what code both kinds reach takes.
 */
export class Transaction {
  private readonly committed: (() => void)[] = [];
  private state: 'open' | 'nested' | 'ended' = 'open';

  /** Made by `transaction()`. */
  constructor(
    /** The database: what its statements are compiled for. */
    readonly db: Knex,
    private readonly held: HeldConnection,
    private readonly depth = 0,
  ) {}

  /** The held connection, for a statement; only while this transaction is open and none nested in it runs. */
  get connection(): unknown {
    if (this.held.broken !== undefined) throw this.held.broken;
    if (this.state === 'ended') throw new Error('A statement on a transaction that has ended');
    if (this.state === 'nested') throw new Error('A statement on a transaction while a transaction nested in it runs: use the nested one');
    return this.held.connection;
  }

  /**
   * Runs `callback` once the transaction commits, never when it rolls back: what it reacts to is then
   * visible to everyone (in a nested transaction, once the outermost one commits). It must not throw:
   * the write has committed, so its caller succeeds; an error it throws is left uncaught, as a bug.
   */
  afterCommit(callback: () => void): void {
    if (this.state === 'ended') throw new Error('afterCommit on a transaction that has ended');
    this.committed.push(callback);
  }

  /** @internal transaction() */
  async run<T>(work: (trx: Transaction) => Promise<T>): Promise<T> {
    const { connection, control } = this.held;
    try {
      await control.begin(connection);
      const result = await work(this);
      this.state = 'ended';
      if (this.held.broken !== undefined) throw this.held.broken;
      await control.commit(connection);
      runAll(this.committed);
      return result;
    } catch (error) {
      this.state = 'ended';
      await this.rollBack(() => control.rollback(connection));
      throw error;
    }
  }

  /**
   * @internal transactionNow(): `work` in better-sqlite3's own transaction on the held connection: BEGIN
   * IMMEDIATE, or a savepoint when this runs inside a transaction of ours; a throw rolls it back.
   */
  runNow<T>(work: (trx: Transaction) => T): T {
    const connection = this.held.connection as SqliteConnection;
    try {
      const result = transactionOf(connection).immediate(work, this);
      this.state = 'ended';
      runAll(this.committed);
      return result;
    } catch (error) {
      this.state = 'ended';
      throw error;
    }
  }

  /** @internal transactionNow(): `work` synchronously in a savepoint of this transaction (SQLite). */
  nestNow<T>(work: (trx: Transaction) => T): T {
    const connection = this.connection as SqliteConnection;
    const nested = new Transaction(this.db, this.held, this.depth + 1);
    try {
      const result = transactionOf(connection).immediate(work, nested);
      this.committed.push(...nested.committed);
      return result;
    } finally {
      nested.state = 'ended';
    }
  }

  /** @internal transaction(): a savepoint in this transaction; a throw inside undoes the savepoint's work only. */
  async nest<T>(work: (trx: Transaction) => Promise<T>): Promise<T> {
    const connection = this.connection;
    const { control } = this.held;
    const name = `trx_${this.depth + 1}`;
    const nested = new Transaction(this.db, this.held, this.depth + 1);
    this.state = 'nested';
    try {
      await control.savepoint(connection, name);
      let result: T;
      try {
        result = await work(nested);
        nested.state = 'ended';
        await control.release(connection, name);
      } catch (error) {
        nested.state = 'ended';
        await this.rollBack(() => control.rollbackTo(connection, name));
        throw error;
      }
      this.committed.push(...nested.committed);
      return result;
    } finally {
      if (this.state === 'nested') this.state = 'open';
    }
  }

  /**
   * Undoes the work; when that fails, the connection may still be in the transaction (or lost): on
   * PostgreSQL, `transaction()` gives it back to be closed rather than handed out again; the
   * transaction it belongs to can only roll back. (SQLite's next BEGIN on it fails, and that
   * transaction's ROLLBACK ends the one left open.)
   */
  private async rollBack(undo: () => Promise<void> | void): Promise<void> {
    if (this.held.broken !== undefined) return;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        undo(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`A rollback took longer than ${ROLLBACK_TIMEOUT_MS} ms`)), ROLLBACK_TIMEOUT_MS);
        }),
      ]);
    } catch (failure) {
      this.held.broken ??= failure;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A write's transaction: ours on the hot paths, knex's on the rare ones (sync, connectors, pings). */
export type AnyTransaction = Transaction | Knex.Transaction;

/**
 * Runs `work` in a transaction: BEGIN (SQLite: BEGIN IMMEDIATE), the work, COMMIT; ROLLBACK when it
 * throws, and the throw goes on. Given a transaction of ours, `work` runs in a savepoint of it.
 */
export async function transaction<T>(db: Knex | Transaction, work: (trx: Transaction) => Promise<T>): Promise<T> {
  if (db instanceof Transaction) return db.nest(work);
  // knex's transaction would be committed or rolled back by knex; a BEGIN on its connection would not nest.
  if (db.isTransaction) throw new Error('transaction() takes the database or a transaction of its own, not a knex transaction');
  const control = controlOf(db);
  if (control === sqliteControl) {
    return inSqliteTurn(db, async () => {
      const connection = idleSqliteConnection(db) ?? (await sqliteConnectionWhenIdle(db, true));
      return new Transaction(db, { connection, control }).run(work);
    });
  }
  const pool = pgPoolOf(db);
  if (pool === undefined) throw new Error('transaction: a PostgreSQL database made by createDb (src/platform/db.ts)');
  const client = await pool.connect();
  const held: HeldConnection = { connection: client, control };
  try {
    return await new Transaction(db, held).run(work);
  } finally {
    // A connection whose rollback failed may still be in the transaction: pg closes it.
    client.release(held.broken !== undefined);
  }
}

/**
 * Runs `work` in knex's transaction (knex's public `db.transaction`), for the rare writes that use knex's
 * query builder; `afterCommit` on its handle runs a callback once it has committed.
 */
export async function knexTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const committed: (() => void)[] = [];
  const begin = () =>
    db.transaction((trx) => {
      knexCommitHooks.set(trx, committed);
      return work(trx);
    });
  // On SQLite it holds the one connection across awaits, as ours do: it takes its turn with them.
  const result = db.isTransaction || controlOf(db) !== sqliteControl ? await begin() : await inSqliteTurn(db, begin);
  runAll(committed);
  return result;
}

/** The after-commit callbacks of each knex transaction `knexTransaction` began. */
const knexCommitHooks = new WeakMap<Knex, (() => void)[]>();

/**
 * Runs `callback` once what was written through `db` has committed: at once outside a transaction,
 * after the commit of either kind of transaction, never after a rollback.
 */
export function afterCommit(db: Knex | Transaction, callback: () => void): void {
  if (db instanceof Transaction) return db.afterCommit(callback);
  const hooks = knexCommitHooks.get(db);
  if (hooks) hooks.push(callback);
  else if (db.isTransaction) throw new Error('afterCommit on a knex transaction not begun by knexTransaction()');
  else callback();
}

/**
 * SQLite: `work` run synchronously in better-sqlite3's own transaction (BEGIN IMMEDIATE; a savepoint
 * inside a transaction of ours), so nothing else runs on the connection in between; its after-commit
 * callbacks once the outermost transaction commits. The connection is the one `db` holds, or the
 * one connection: at once while no transaction is open on it, else once the open ones have ended
 * (src/platform/sqlite-connection.ts).
 */
export async function transactionNow<T>(db: Knex | Transaction, work: (trx: Transaction) => T): Promise<T> {
  if (db instanceof Transaction) return db.nestNow(work);
  const idle = idleSqliteConnection(db);
  if (idle !== undefined) return new Transaction(db, { connection: idle, control: sqliteControl }).runNow(work);
  const connection = await sqliteConnectionWhenIdle(db);
  return new Transaction(db, { connection, control: sqliteControl }).runNow(work);
}

/** The database of a handle: what a statement run on it is compiled for. */
export const databaseOf = (db: Knex | Transaction): Knex => (db instanceof Transaction ? db.db : db);

const ROLLBACK_TIMEOUT_MS = 5000;

interface HeldConnection {
  connection: unknown;
  control: Control;
  /** Set when undoing failed: nothing more may run on the connection, and the transaction can only roll back. */
  broken?: unknown;
}

interface Control {
  begin: (connection: unknown) => Promise<void> | void;
  commit: (connection: unknown) => Promise<void> | void;
  /** Nothing to do when no transaction is open (an error can end SQLite's by itself). */
  rollback: (connection: unknown) => Promise<void> | void;
  savepoint: (connection: unknown, name: string) => Promise<void> | void;
  release: (connection: unknown, name: string) => Promise<void> | void;
  rollbackTo: (connection: unknown, name: string) => Promise<void> | void;
}

function controlOf(db: Knex): Control {
  const client = db.client.config.client;
  if (client === 'better-sqlite3') return sqliteControl;
  if (client === 'pg') return postgresControl;
  throw new Error(`transaction: no support for the ${String(client)} client`);
}

function runAll(callbacks: readonly (() => void)[]): void {
  for (const callback of callbacks) {
    try {
      callback();
    } catch (error) {
      queueMicrotask(() => {
        throw error;
      });
    }
  }
}

interface SqliteConnection {
  readonly inTransaction: boolean;
  prepare: (sql: string) => { run: () => unknown };
  transaction: <A extends unknown[], R>(fn: (...args: A) => R) => { immediate: (...args: A) => R };
}

interface SqliteTransaction {
  immediate: <T>(work: (trx: Transaction) => T, trx: Transaction) => T;
}

/** Each SQLite connection's one transaction function (better-sqlite3's `db.transaction`), made once. */
const sqliteTransactions = new WeakMap<SqliteConnection, SqliteTransaction>();

function transactionOf(connection: SqliteConnection): SqliteTransaction {
  let made = sqliteTransactions.get(connection);
  if (!made) {
    made = connection.transaction((work: (trx: Transaction) => unknown, trx: Transaction) => work(trx)) as unknown as SqliteTransaction;
    sqliteTransactions.set(connection, made);
  }
  return made;
}

/** Each SQLite connection's transaction statements, prepared once, by SQL text; they go with the connection. */
const sqliteStatements = new WeakMap<SqliteConnection, Map<string, { run: () => unknown }>>();

function runOnSqlite(connection: SqliteConnection, sql: string): void {
  let statements = sqliteStatements.get(connection);
  if (!statements) {
    statements = new Map();
    sqliteStatements.set(connection, statements);
  }
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    statements.set(sql, statement);
  }
  statement.run();
}

const sqliteControl = {
  // IMMEDIATE: the write lock at BEGIN, waiting out another process's writer (busy_timeout, src/platform/db.ts).
  // knex's plain BEGIN takes it at the first write, and a transaction that read before it writes fails at
  // once with SQLITE_BUSY when another process (a second instance on the same file) wrote in between.
  begin: (connection) => runOnSqlite(connection as SqliteConnection, 'BEGIN IMMEDIATE'),
  commit: (connection) => runOnSqlite(connection as SqliteConnection, 'COMMIT'),
  rollback: (connection) => {
    if ((connection as SqliteConnection).inTransaction) runOnSqlite(connection as SqliteConnection, 'ROLLBACK');
  },
  savepoint: (connection, name) => runOnSqlite(connection as SqliteConnection, `SAVEPOINT ${name}`),
  release: (connection, name) => runOnSqlite(connection as SqliteConnection, `RELEASE ${name}`),
  rollbackTo: (connection, name) => {
    if (!(connection as SqliteConnection).inTransaction) return;
    runOnSqlite(connection as SqliteConnection, `ROLLBACK TO ${name}`);
    runOnSqlite(connection as SqliteConnection, `RELEASE ${name}`);
  },
} satisfies Control;

// Simple queries: one message each, nothing to parse on the server that a named statement would save.
const onPostgres = async (connection: unknown, sql: string) => (connection as pg.PoolClient).query(sql);

const postgresControl: Control = {
  begin: async (connection) => {
    await onPostgres(connection, 'BEGIN');
  },
  commit: async (connection) => {
    // A transaction in which a statement failed (one the work did not wait for) answers COMMIT with ROLLBACK.
    if ((await onPostgres(connection, 'COMMIT')).command === 'ROLLBACK') throw new Error('COMMIT rolled back: a statement in the transaction had failed');
  },
  // After a failed COMMIT the server has ended the transaction; a ROLLBACK then only warns.
  rollback: async (connection) => {
    await onPostgres(connection, 'ROLLBACK');
  },
  savepoint: async (connection, name) => {
    await onPostgres(connection, `SAVEPOINT ${name}`);
  },
  release: async (connection, name) => {
    await onPostgres(connection, `RELEASE SAVEPOINT ${name}`);
  },
  rollbackTo: async (connection, name) => {
    await onPostgres(connection, `ROLLBACK TO SAVEPOINT ${name}`);
    await onPostgres(connection, `RELEASE SAVEPOINT ${name}`);
  },
};
