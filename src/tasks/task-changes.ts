import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import { compiledQuery, type Queryable } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import type { AnyTransaction, Transaction } from '../platform/transaction.js';
import { toIso } from '../platform/time.js';
import { deleteLeavingTombstone, type TaskDeletion } from './task-feed.repository.js';
import { toTask } from './tasks.presenter.js';
import type { TaskRow } from './tasks.repository.js';

export type { TaskDeletion } from './task-feed.repository.js';

type Task = components['schemas']['Task'];

/** One change of one task, as the listener sees it inside the transaction that makes it. */
export type TaskChange =
  | { kind: 'created' | 'updated'; accountId: string; task: Task }
  | { kind: 'deleted'; accountId: string; taskId: string; deletedAt: string };

/**
 * Called inside the transaction that makes the change, after the change is recorded: what it writes
 * commits or rolls back with the change (the webhooks' outbox, docs/webhooks.md). A throw undoes the change.
 * The API's writes come in a transaction of ours (src/platform/transaction.ts), sync and disconnect in knex's.
 */
export type TaskChangeListener = (trx: AnyTransaction, change: TaskChange) => Promise<void>;

/**
 * The one place where task writes are recorded for the change feed (docs/change-feed.md): the change
 * numbers, the tombstones, and the listener. Every write (API, MCP, sync, disconnect) goes through it,
 * in the transaction of the write.
 */
export interface TaskChangeRecorder {
  /**
   * Takes `count` numbers of the account's change counter; answers the first (the others follow it).
   * The UPDATE holds the account row until the transaction ends, so on PostgreSQL a later number is
   * only handed out once the earlier one's transaction committed: numbers are in commit order, and a
   * reader that sees number n sees every change below it.
   */
  takeNumbers(trx: AnyTransaction, accountId: string, count: number): Promise<number>;
  /**
   * True when a change of one task takes its number in the task's own UPDATE rather than from
   * takeNumbers before it (src/tasks/tasks.repository.ts, updateTask): on PostgreSQL, one round trip less.
   */
  numbersInTaskUpdate(db: Queryable): boolean;
  /** Rows written with their new numbers and versions: created or updated. */
  upserted(trx: AnyTransaction, kind: 'created' | 'updated', rows: readonly TaskRow[]): Promise<void>;
  /**
   * Deletes the task (only at an expected version, when given) and leaves its tombstone under the
   * change number; false when there was no such task to delete.
   */
  deleted(trx: Transaction, deletion: TaskDeletion): Promise<boolean>;
}

/**
 * What an UPDATE of the account row sets to take `count` change numbers; the task cap's updates
 * (src/tasks/task-quota.ts) take them in the same statement, one round trip fewer per create and delete.
 */
export const changeNumbersTaken = (db: Knex, count: number) => ({ task_change_seq: db.raw('task_change_seq + ?', [count]) });

/** The first of `count` numbers, from the counter an UPDATE ... RETURNING answered. */
export const firstNumberTaken = (row: { task_change_seq: number | string }, count: number): number => Number(row.task_change_seq) - count + 1;

export function createTaskChangeRecorder(onTaskChange?: TaskChangeListener): TaskChangeRecorder {
  return {
    async takeNumbers(trx, accountId, count) {
      const row = await takeNumbersOf.first(trx, [accountId, count]);
      // The caller's own account: it exists for as long as its request is served.
      if (row === undefined) throw new Error(`No account ${accountId} to number a task change of`);
      return firstNumberTaken(row, count);
    },

    numbersInTaskUpdate: isPostgres,

    async upserted(trx, kind, rows) {
      if (!onTaskChange) return;
      for (const row of rows) await onTaskChange(trx, { kind, accountId: row.account_id, task: toTask(row) });
    },

    async deleted(trx, deletion) {
      if (!(await deleteLeavingTombstone(trx, deletion))) return false;
      const { accountId, taskId, deletedAt } = deletion;
      if (onTaskChange) await onTaskChange(trx, { kind: 'deleted', accountId, taskId, deletedAt: toIso(deletedAt) });
      return true;
    },
  };
}

// Every PATCH takes its number here: compiled and prepared once (src/platform/compiled-query.ts).
const takeNumbersOf = compiledQuery<[accountId: string, count: number], { task_change_seq: number }>((db, $) =>
  db('accounts').where('id', $(0)).update(changeNumbersTaken(db, $(1))).returning('task_change_seq'),
);
