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
 * SQLite's one connection while no transaction is open on it; else undefined (and always on
 * PostgreSQL). Work run on it at once, start to end without awaiting, cannot meet anyone else's:
 * better-sqlite3 runs in the calling thread, and a transaction (ours or knex's) is open on the
 * connection from its BEGIN to its end. A statement so skips its turn through knex's pool, which
 * costs more than a primary-key read itself (src/platform/compiled-query.ts).
 */
export function idleSqliteConnection(db: Knex): SqliteConnection | undefined {
  const connection = sqliteConnections.get(db);
  return connection !== undefined && connection.open && !connection.inTransaction ? connection : undefined;
}
