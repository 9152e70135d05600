import { AsyncLocalStorage } from 'node:async_hooks';
import type { Knex } from 'knex';

/**
 * The databases whose transaction the running code is inside. A statement on such a database itself, not on
 * the transaction, would run outside it: on PostgreSQL on another connection, where it can wait on the
 * transaction's own row locks; on SQLite in a turn after the transaction's end, which never comes. Either
 * is a bug, refused at its first statement.
 */
const scope = new AsyncLocalStorage<ReadonlySet<Knex>>();

/** Runs `work` as inside a transaction on `db`. */
export function inTransactionScope<T>(db: Knex, work: () => T): T {
  const outer = scope.getStore();
  return scope.run(outer ? new Set([...outer, db]) : new Set([db]), work);
}

/** Throws when the running code is inside a transaction on `db`: call before a statement or a transaction on `db` itself. */
export function refuseInsideTransaction(db: Knex): void {
  if (scope.getStore()?.has(db)) {
    throw new Error('A statement on the database inside one of its transactions: run it on the transaction (src/platform/transaction-scope.ts)');
  }
}

/**
 * knex's own statements on the database are refused the same way, when knex has taken a connection for
 * them (`start`). On SQLite the one connection is the transaction's: its pool refuses first, when the
 * statement asks for it (src/platform/db.ts).
 */
export function guardKnexStatements(db: Knex): void {
  db.on('start', (builder: { client?: unknown }) => {
    if (builder.client === db.client) refuseInsideTransaction(db);
  });
}
