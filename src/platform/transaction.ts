import type { Knex } from 'knex';
import { heldSqliteConnection, holdSqliteConnection, onSqliteConnection } from './sqlite-connection.js';
import { inTransactionScope, refuseInsideTransaction } from './transaction-scope.js';

/**
 * A transaction for the hot writes: knex's transaction (one connection of knex's pool from BEGIN to its end), whose
 * statements are compiled queries (src/platform/compiled-query.ts), with hooks run once it commits. On SQLite the
 * hot writes run synchronously instead (`transactionNow`: better-sqlite3's own transaction, nothing else can run
 * meanwhile); one that awaits holds the one connection's turn (src/platform/sqlite-connection.ts). `readNow` is
 * SQLite's synchronous read: several statements that see one state of the database, and write nothing.
 */
export class Transaction {
  private readonly committed: (() => void)[] = [];
  private state: 'open' | 'nested' | 'ended' = 'open';
  /** PostgreSQL: statements sent and not yet answered; the commit waits for them, and fails with the first failure. */
  private readonly sent = new Set<Promise<unknown>>();
  private failure: { error: unknown } | undefined;
  /** Made by readNow(): its statements read; a write, a hook or a transaction inside it is refused. */
  private reading = false;

  /** Made by `transaction()`, `transactionNow()` and `readNow()`; `db` is what its statements are compiled for. */
  constructor(
    readonly db: Knex,
    /** knex's transaction; undefined in SQLite's synchronous one. */
    private readonly handle: Knex.Transaction | undefined,
    /** SQLite's connection, on which its statements run synchronously. */
    private readonly sqlite: SqliteConnection | undefined,
  ) {}

  /** What a statement runs on: SQLite's connection, or knex's transaction; only while this transaction is open and none nested in it runs. */
  get connection(): unknown {
    if (this.state === 'ended') throw new Error('A statement on a transaction that has ended');
    if (this.state === 'nested') throw new Error('A statement on a transaction while a transaction nested in it runs: use the nested one');
    return this.sqlite ?? this.handle;
  }

  /** @internal compiledQuery: a statement sent on this transaction, which its commit waits for. */
  sending<T>(statement: Promise<T>): Promise<T> {
    const settled = statement.then(
      () => undefined,
      (error: unknown) => void (this.failure ??= { error }),
    );
    this.sent.add(settled);
    void settled.then(() => this.sent.delete(settled));
    return statement;
  }

  /**
   * Runs `callback` once the outermost transaction commits, never after a rollback. It must not throw: the write has
   * committed, so its caller succeeds, and an error it throws is left uncaught, as a bug.
   */
  afterCommit(callback: () => void): void {
    if (this.state === 'ended') throw new Error('afterCommit on a transaction that has ended');
    this.refuseInRead('afterCommit');
    this.committed.push(callback);
  }

  /** @internal transaction(): the work, then every statement it sent answered; a failure among them fails the commit rather than vanish. */
  async run<T>(work: (trx: Transaction) => Promise<T>): Promise<T> {
    try {
      const result = await work(this);
      while (this.sent.size > 0) await Promise.all([...this.sent]);
      if (this.failure) throw this.failure.error;
      return result;
    } finally {
      this.state = 'ended';
    }
  }

  /** @internal transaction(): the hooks, once the outermost commit is done. */
  committedNow(): void {
    runAll(this.committed);
  }

  /** @internal transactionNow(): `work` in better-sqlite3's own transaction (BEGIN IMMEDIATE) on the connection. */
  runNow<T>(work: (trx: Transaction) => T): T {
    try {
      const result = transactionOf(this.sqlite as SqliteConnection).immediate(work, this);
      this.state = 'ended';
      runAll(this.committed);
      return result;
    } finally {
      this.state = 'ended';
    }
  }

  /** @internal compiledQuery: a write (or a transaction) is refused in a read of readNow(). */
  refuseInRead(what: string): void {
    if (this.reading) throw new Error(`${what} in readNow(), which only reads: write in transactionNow() (src/platform/transaction.ts)`);
  }

  /** @internal readNow(): `work` in better-sqlite3's deferred transaction on the connection. */
  readNow<T>(work: (trx: Transaction) => T): T {
    this.reading = true;
    try {
      return transactionOf(this.sqlite as SqliteConnection).deferred(work, this);
    } finally {
      this.state = 'ended';
    }
  }

  /** @internal transactionNow(): `work` synchronously in a savepoint of this transaction (SQLite). */
  nestNow<T>(work: (trx: Transaction) => T): T {
    this.refuseInRead('transactionNow()');
    const connection = this.connection as SqliteConnection;
    const nested = new Transaction(this.db, this.handle, connection);
    try {
      const result = transactionOf(connection).immediate(work, nested);
      this.committed.push(...nested.committed);
      return result;
    } finally {
      nested.state = 'ended';
    }
  }

  /** @internal transaction(): a savepoint in this transaction (knex's nested transaction); a throw inside undoes the savepoint's work only. */
  async nest<T>(work: (trx: Transaction) => Promise<T>): Promise<T> {
    void this.connection;
    if (!this.handle) throw new Error('transaction() inside a synchronous transaction: use transactionNow()');
    this.state = 'nested';
    try {
      let nested!: Transaction;
      const result = await this.handle.transaction((inner) => {
        nested = new Transaction(this.db, inner, this.sqlite);
        return nested.run(work);
      });
      this.committed.push(...nested.committed);
      return result;
    } finally {
      if (this.state === 'nested') this.state = 'open';
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
  refuseInsideTransaction(db);
  const sqlite = isSqlite(db);
  let trx!: Transaction;
  const begin = () =>
    db.transaction((handle) =>
      inTransactionScope(db, () => {
        trx = new Transaction(db, handle, sqlite ? heldSqliteConnection<SqliteConnection>(db) : undefined);
        return trx.run(work);
      }),
    );
  const result = sqlite ? await holdSqliteConnection(db, begin) : await begin();
  trx.committedNow();
  return result;
}

/** Runs `work` in knex's transaction, for the rare writes built with knex; `afterCommit` on its handle waits for its commit. */
export async function knexTransaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  const committed: (() => void)[] = [];
  const outer = knexCommitHooks.get(db);
  if (!db.isTransaction) refuseInsideTransaction(db);
  const begin = () =>
    db.transaction((trx) =>
      inTransactionScope(databaseOf(db), () => {
        knexCommitHooks.set(trx, committed);
        return work(trx);
      }),
    );
  // On SQLite it holds the one connection across awaits: it takes its turn.
  const result = db.isTransaction || !isSqlite(db) ? await begin() : await holdSqliteConnection(db, begin);
  // In a savepoint, its hooks wait for the outer commit.
  if (outer) outer.push(...committed);
  else runAll(committed);
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
  if (!isSqlite(db)) throw new Error('transactionNow: SQLite only');
  refuseInsideTransaction(db);
  return onSqliteConnection(db, (connection: SqliteConnection) => new Transaction(db, undefined, connection).runNow(work));
}

/**
 * SQLite: reads `work` makes, run synchronously in a deferred transaction (BEGIN DEFERRED: no write
 * lock), so that its statements see one state of the database and nothing else runs on the connection meanwhile.
 */
export async function readNow<T>(db: Knex, work: (trx: Transaction) => T): Promise<T> {
  if (!isSqlite(db)) throw new Error('readNow: SQLite only');
  refuseInsideTransaction(db);
  return onSqliteConnection(db, (connection: SqliteConnection) => new Transaction(db, undefined, connection).readNow(work));
}

/** The database of a handle: what a statement run on it is compiled for. */
export const databaseOf = (db: Knex | Transaction): Knex => (db instanceof Transaction ? db.db : db);

const isSqlite = (db: Knex): boolean => db.client.config.client === 'better-sqlite3';

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
  readonly open: boolean;
  readonly inTransaction: boolean;
  transaction: <A extends unknown[], R>(fn: (...args: A) => R) => { immediate: (...args: A) => R; deferred: (...args: A) => R };
}

interface SqliteTransaction {
  /** IMMEDIATE: the write lock at BEGIN, waiting out another process's writer (busy_timeout, src/platform/db.ts). */
  immediate: <T>(work: (trx: Transaction) => T, trx: Transaction) => T;
  /** DEFERRED: no lock until the first read, a snapshot from then to COMMIT. */
  deferred: <T>(work: (trx: Transaction) => T, trx: Transaction) => T;
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
