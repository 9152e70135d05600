/**
 * What a database error means, whichever engine raised it: the one place that knows PostgreSQL's
 * SQLSTATEs and SQLite's result codes. Callers ask about the meaning, never about a code.
 */
export type DatabaseFailure =
  /** A unique key or primary key refused the write. */
  | 'unique-violation'
  /** A foreign key refused the write: the row it points to is gone. */
  | 'foreign-key-violation'
  /** The database, not the statement, is at fault: unreachable, shutting down, or a busy SQLite file. */
  | 'unavailable';

export function databaseFailure(err: unknown): DatabaseFailure | undefined {
  const e = err as { code?: unknown; name?: unknown } | null | undefined;
  if (!e) return undefined;
  if (e.name === 'KnexTimeoutError') return 'unavailable';
  if (typeof e.code === 'string') return FAILURE_OF_CODE.get(e.code);
  // pg gives a socket closed under a query or a handshake no code, only these messages (pg/lib/client.js).
  return err instanceof Error && CONNECTION_LOST.has(driverMessage(err.message)) ? 'unavailable' : undefined;
}

/** knex writes the statement before the driver's message of a failed query: "select ... - Connection terminated unexpectedly". */
const driverMessage = (message: string): string => message.split(' - ').at(-1)!;

export const isUniqueViolation = (err: unknown): boolean => databaseFailure(err) === 'unique-violation';
export const isForeignKeyViolation = (err: unknown): boolean => databaseFailure(err) === 'foreign-key-violation';
export const isDatabaseUnavailable = (err: unknown): boolean => databaseFailure(err) === 'unavailable';

const CONNECTION_LOST = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'Connection terminated due to connection timeout',
]);

const FAILURE_OF_CODE = new Map<string, DatabaseFailure>([
  // PostgreSQL SQLSTATEs (class 23: integrity constraint violation).
  ['23505', 'unique-violation'],
  ['23503', 'foreign-key-violation'],
  // SQLite extended result codes, as better-sqlite3 reports them.
  ['SQLITE_CONSTRAINT_UNIQUE', 'unique-violation'],
  ['SQLITE_CONSTRAINT_PRIMARYKEY', 'unique-violation'],
  ['SQLITE_CONSTRAINT_FOREIGNKEY', 'foreign-key-violation'],
  // Connection-level failures (the socket, or PostgreSQL shutting down or not yet up: 57P01, 57P03,
  // class 08), a statement past the session's lock_timeout (55P03) or statement_timeout (57014,
  // src/platform/db.ts), and a SQLite file another writer holds past the busy timeout.
  ...['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08001', '08003', '08006', '55P03', '57014', 'SQLITE_BUSY'].map(
    (code) => [code, 'unavailable'] as const,
  ),
]);
