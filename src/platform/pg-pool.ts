import type { Knex } from 'knex';
import pg from 'pg';

/**
 * Each PostgreSQL database's pool for the hot paths (compiled queries and our transactions), through
 * pg's public `Pool`; knex keeps a small pool of its own for migrations and query-builder writes
 * (src/platform/db.ts).
 */
const pools = new WeakMap<Knex, { pool: pg.Pool; max: number }>();

/** @internal createDb */
export function pgPoolMade(db: Knex, url: string, max: number): void {
  // Knex's defaults, kept: a connection idle for 30 s closes; waiting 60 s for one fails (503: src/platform/database-errors.ts).
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000, connectionTimeoutMillis: 60_000 });
  // A connection cut while idle must not end the process; the pool drops it.
  pool.on('error', () => undefined);
  // One cut while checked out between statements either: the statement or the release sees it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  pools.set(db, { pool, max });
}

export const pgPoolOf = (db: Knex): pg.Pool | undefined => pools.get(db)?.pool;

/** Connections in use, idle and waited for, and the most the pool opens; undefined without a pool (SQLite). */
export function pgPoolCounts(db: Knex): { used: number; free: number; pending: number; max: number } | undefined {
  const made = pools.get(db);
  if (!made) return undefined;
  const { pool, max } = made;
  return { used: pool.totalCount - pool.idleCount, free: pool.idleCount, pending: pool.waitingCount, max };
}

/** Gives a checked-out client back; after an error that is not the server's answer, pg closes it rather than reuse a broken connection. */
export function releaseClient(client: pg.PoolClient, failure: unknown): void {
  client.release(failure !== undefined && !(failure instanceof pg.DatabaseError));
}

/** @internal closeDb */
export async function endPgPool(db: Knex): Promise<void> {
  const made = pools.get(db);
  if (made && !made.pool.ended) await made.pool.end();
}
