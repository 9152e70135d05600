import type { Knex } from 'knex';

/** Each SQLite database's one connection, as its pool last made it (src/platform/db.ts). */
const sqliteConnections = new WeakMap<Knex, unknown>();

/** @internal createDb: the pool made the SQLite database's one connection. */
export function sqliteConnectionMade(db: Knex, connection: unknown): void {
  sqliteConnections.set(db, connection);
}

/**
 * SQLite's one connection while the pool holds it free and nothing waits for it; else undefined (and
 * always on PostgreSQL). A statement run on it at once, start to end without awaiting, cannot meet
 * anyone else's use of it: better-sqlite3 runs in the calling thread, and a transaction holds the
 * connection out of the pool. A read so skips its turn through knex's and tarn's acquire, which cost
 * more than the 3 µs read itself (src/platform/compiled-query.ts, docs/benchmarks.md#pipeline).
 */
export function idleSqliteConnection(db: Knex): unknown {
  const connection = sqliteConnections.get(db) as { inTransaction: boolean; __knex__disposed?: unknown } | undefined;
  if (connection === undefined) return undefined;
  const pool = db.client.pool as { numFree(): number; numPendingAcquires(): number; numPendingCreates(): number } | undefined;
  const free = pool !== undefined && pool.numFree() === 1 && pool.numPendingAcquires() === 0 && pool.numPendingCreates() === 0;
  // A connection whose ROLLBACK failed waits in the pool, marked, for knex to destroy it (src/platform/transaction.ts, markDisposed).
  return free && !connection.inTransaction && connection.__knex__disposed === undefined ? connection : undefined;
}
