import type { Knex } from 'knex';
import type pg from 'pg';
import { pgPoolOf } from './pg-pool.js';
import { idleSqliteConnection, inSqliteTurn, sqliteConnectionWhenIdle } from './sqlite-connection.js';

/**
 * A transaction for the hot writes, held on one connection from BEGIN to its end: on PostgreSQL one from pg's pool
 * (src/platform/pg-pool.ts), on SQLite the one connection, taken in turn (src/platform/sqlite-connection.ts). Its
 * statements are compiled queries (src/platform/compiled-query.ts); knex's own transactions cost 10-16% of POST /tasks
 * on SQLite (docs/benchmarks.md), so they serve only the rare writes (`knexTransaction`).
 */
export class Transaction {
  private readonly committed: (() => void)[] = [];
  private state: 'open' | 'nested' | 'ended' = 'open';

  /** Made by `transaction()`; `db` is what its statements are compiled for. */
  constructor(
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
   * Runs `callback` once the outermost transaction commits, never after a rollback. It must not throw: the write has
   * committed, so its caller succeeds, and an error it throws is left uncaught, as a bug.
   */
  afterCommit(callback: () => void): void {
    if (this.state === 'ended') throw new Error('afterCommit on a transaction that has ended');
    this.committed.push(callback);
  }

  /** @internal transaction() */
  async run<T>(work: (trx: Transaction) => Promise<T>): Promise<T> {
    const { connection, control } = this.held;
    try {
      await control.send(connection, control.begin);
      const result = await work(this);
      this.state = 'ended';
      if (this.held.broken !== undefined) throw this.held.broken;
      // PostgreSQL answers COMMIT with ROLLBACK when a statement in the transaction (one the work did not wait for) failed.
      if ((await control.send(connection, 'COMMIT'))?.command === 'ROLLBACK') throw new Error('COMMIT rolled back: a statement in the transaction had failed');
      runAll(this.committed);
      return result;
    } catch (error) {
      this.state = 'ended';
      // After a failed COMMIT PostgreSQL has ended the transaction; a ROLLBACK then only warns.
      await this.rollBack('ROLLBACK');
      throw error;
    }
  }

  /** @internal transactionNow(): `work` in better-sqlite3's own transaction (BEGIN IMMEDIATE) on the held connection. */
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
      await control.send(connection, `SAVEPOINT ${name}`);
      let result: T;
      try {
        result = await work(nested);
        nested.state = 'ended';
        await control.send(connection, `RELEASE SAVEPOINT ${name}`);
      } catch (error) {
        nested.state = 'ended';
        await this.rollBack(`ROLLBACK TO SAVEPOINT ${name}`, `RELEASE SAVEPOINT ${name}`);
        throw error;
      }
      this.committed.push(...nested.committed);
      return result;
    } finally {
      if (this.state === 'nested') this.state = 'open';
    }
  }

  /**
   * Undoes the work with `statements`; when that fails, the connection may still be in the transaction (or lost), and is
   * marked broken: on PostgreSQL `transaction()` has pg close it. (SQLite's next BEGIN on it fails, and that ROLLBACK ends it.)
   */
  private async rollBack(...statements: string[]): Promise<void> {
    const { connection, control } = this.held;
    // An error can end SQLite's transaction by itself: then nothing is left to undo.
    if (this.held.broken !== undefined || !control.isOpen(connection)) return;
    const undo = async () => {
      for (const sql of statements) await control.send(connection, sql);
    };
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

/** Runs `work` between BEGIN and COMMIT, or ROLLBACK when it throws (the throw goes on); given a transaction of ours, in a savepoint. */
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

/** Runs `work` in knex's transaction, for the rare writes built with knex; `afterCommit` on its handle waits for its commit. */
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

/** Runs `callback` once what was written through `db` has committed (at once outside a transaction), never after a rollback. */
export function afterCommit(db: Knex | Transaction, callback: () => void): void {
  if (db instanceof Transaction) return db.afterCommit(callback);
  const hooks = knexCommitHooks.get(db);
  if (hooks) hooks.push(callback);
  else if (db.isTransaction) throw new Error('afterCommit on a knex transaction not begun by knexTransaction()');
  else callback();
}

/** SQLite: `work` run synchronously in better-sqlite3's own transaction (a savepoint in one of ours): nothing else runs on the connection meanwhile. */
export async function transactionNow<T>(db: Knex | Transaction, work: (trx: Transaction) => T): Promise<T> {
  if (db instanceof Transaction) return db.nestNow(work);
  const connection = idleSqliteConnection(db) ?? (await sqliteConnectionWhenIdle(db));
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
  /** BEGIN as the engine should take it. */
  begin: string;
  /** Sends one statement on the connection: synchronously on SQLite, with pg's result on PostgreSQL. */
  send: (connection: unknown, sql: string) => Promise<pg.QueryResult> | void;
  isOpen: (connection: unknown) => boolean;
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

const sqliteControl: Control = {
  // IMMEDIATE: the write lock at BEGIN, waiting out another process's writer (busy_timeout, src/platform/db.ts), where
  // a plain BEGIN that read before it wrote would fail at once with SQLITE_BUSY.
  begin: 'BEGIN IMMEDIATE',
  send: (connection, sql) => runOnSqlite(connection as SqliteConnection, sql),
  isOpen: (connection) => (connection as SqliteConnection).inTransaction,
};

// Simple queries: one message each, nothing to parse on the server that a named statement would save.
const postgresControl: Control = {
  begin: 'BEGIN',
  send: (connection, sql) => (connection as pg.PoolClient).query(sql),
  isOpen: () => true,
};
