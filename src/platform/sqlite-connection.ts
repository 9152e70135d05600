import type { Knex } from 'knex';

interface SqliteConnection {
  readonly open: boolean;
  readonly inTransaction: boolean;
}

/** Each SQLite database's one connection, as its pool last made it (src/platform/db.ts). */
const sqliteConnections = new WeakMap<Knex, SqliteConnection>();

/** @internal createDb: the pool made the SQLite database's one connection. */
export function sqliteConnectionMade(db: Knex, connection: SqliteConnection): void {
  sqliteConnections.set(db, connection);
}

/**
 * SQLite's one connection while no transaction is open on it, else undefined (always on PostgreSQL): work run on it
 * without awaiting meets no one else's, and skips knex's pool, which costs more than a primary-key read itself.
 */
export function idleSqliteConnection(db: Knex): SqliteConnection | undefined {
  const connection = sqliteConnections.get(db);
  return connection !== undefined && connection.open && !connection.inTransaction ? connection : undefined;
}

/** Each SQLite database's transactions that hold its connection across awaits: the last one queued. */
const turns = new WeakMap<Knex, Promise<void>>();

/**
 * Runs `work` once every transaction queued before it has ended: ours and knexTransaction's
 * (src/platform/transaction.ts) hold the one connection across awaits, so they take turns here. Ours
 * await only compiled statements, which better-sqlite3 runs at once, so no other request's knex
 * statement can run inside one.
 */
export async function inSqliteTurn<T>(db: Knex, work: () => Promise<T>): Promise<T> {
  const before = turns.get(db);
  let ended!: () => void;
  const mine = new Promise<void>((resolve) => (ended = resolve));
  const last = before ? before.then(() => mine) : mine;
  turns.set(db, last);
  try {
    if (before) await before;
    return await work();
  } finally {
    ended();
    if (turns.get(db) === last) turns.delete(db);
  }
}

/**
 * SQLite's one connection once no transaction is open on it: after the queued turns (from inside one,
 * `ownTurn`, only a knex transaction begun elsewhere), else once knex's pool hands it out (a connection
 * a failed rollback left in a transaction is then given as it is, and its next BEGIN fails, as with knex).
 */
export async function sqliteConnectionWhenIdle(db: Knex, ownTurn = false): Promise<SqliteConnection> {
  for (let askedPool = false; ; ) {
    const idle = idleSqliteConnection(db);
    if (idle !== undefined) return idle;
    const turn = ownTurn ? undefined : turns.get(db);
    if (turn !== undefined) {
      await turn;
      continue;
    }
    const connection = sqliteConnections.get(db);
    if (askedPool && connection?.open) return connection;
    await db.raw('select 1');
    askedPool = true;
  }
}
