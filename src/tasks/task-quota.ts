import type { Knex } from 'knex';
import { compiledQuery, type Queryable } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import type { Transaction } from '../platform/transaction.js';
import { changeNumbersTaken, firstNumberTaken } from './change-numbers.js';

// The task cap lives in accounts.task_count, moved only inside the transaction that inserts or
// deletes the tasks it counts, so the counter and the rows never disagree.

/**
 * Takes one place under the cap and the create's change number, or nothing when the account is at the
 * cap: one conditional UPDATE, in SQLite's synchronous transaction (src/platform/transaction.ts,
 * transactionNow). Answers the change number, or undefined at the cap.
 */
export function takeTaskPlaceNow(trx: Transaction, accountId: string, maxTasks: number): number | undefined {
  const row = takePlace.now.first(trx, [accountId, maxTasks]);
  return row === undefined ? undefined : firstNumberTaken(row, 1);
}

/**
 * Reserves up to `wanted` places and answers how many it got; the account row stays locked until the
 * transaction ends. The sync's imports only (src/tasks/external-tasks.repository.ts), in knex's transaction.
 */
export async function reserveTaskPlaces(trx: Knex.Transaction, accountId: string, wanted: number, maxTasks: number): Promise<number> {
  // PostgreSQL: the row lock makes the read and the raise one step against parallel creates.
  // SQLite: the single pooled connection runs one transaction at a time.
  const query = trx('accounts').select('task_count').where('id', accountId).first();
  const row: { task_count: number } | undefined = await (isPostgres(trx) ? query.forUpdate() : query);
  if (!row) return 0;
  const granted = Math.max(0, Math.min(wanted, maxTasks - Number(row.task_count)));
  if (granted > 0) await trx('accounts').where('id', accountId).increment('task_count', granted);
  return granted;
}

/**
 * Frees one place and takes the delete's change number in one UPDATE, before the task is deleted (the
 * account row is locked first, as by every task write); if the task is not there, the transaction rolls
 * both back.
 */
export async function releaseTaskPlaceForDelete(trx: Transaction, accountId: string): Promise<number> {
  const row = await releasePlace.first(trx, [accountId]);
  if (row === undefined) throw new Error(`No account ${accountId} to delete a task of`);
  return firstNumberTaken(row, 1);
}

/** The same on SQLite, synchronously, in a transaction `transactionNow` runs. */
export function releaseTaskPlaceForDeleteNow(trx: Transaction, accountId: string): number {
  const row = releasePlace.now.first(trx, [accountId]);
  if (row === undefined) throw new Error(`No account ${accountId} to delete a task of`);
  return firstNumberTaken(row, 1);
}

export async function usedTaskPlaces(db: Queryable, accountId: string): Promise<number> {
  const row = await placesUsed.first(db, [accountId]);
  return row ? Number(row.task_count) : 0;
}

// Every create and delete runs these: the same conditional statements, compiled and prepared once
// (src/platform/compiled-query.ts).
const takePlace = compiledQuery<[accountId: string, maxTasks: number], { task_change_seq: number }>((db, $) => placeTaken(db, $(0), $(1)));

/**
 * The conditional UPDATE that takes a place and a change number (`RETURNING task_change_seq`, no row at
 * the cap); PostgreSQL's one-statement create runs it as its first step (src/tasks/task-create.repository.ts).
 */
export const placeTaken = (db: Knex, accountId: string, maxTasks: number) =>
  db('accounts')
    .where('id', accountId)
    .andWhere('task_count', '<', maxTasks)
    .update({ task_count: db.raw('task_count + 1'), ...changeNumbersTaken(db, 1) })
    .returning('task_change_seq');

const releasePlace = compiledQuery<[accountId: string], { task_change_seq: number }>((db, $) =>
  db('accounts')
    .where('id', $(0))
    .update({ task_count: db.raw('case when task_count > 0 then task_count - 1 else 0 end'), ...changeNumbersTaken(db, 1) })
    .returning('task_change_seq'),
);

const placesUsed = compiledQuery<[accountId: string], { task_count: number }>((db, $) => db('accounts').select('task_count').where('id', $(0)));
