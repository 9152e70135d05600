import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import { toIso } from '../platform/time.js';
import { toTask } from './tasks.presenter.js';
import type { TaskRow } from './tasks.repository.js';

type Task = components['schemas']['Task'];

/** One change of one task, as the listener sees it inside the transaction that makes it. */
export type TaskChange =
  | { kind: 'created' | 'updated'; accountId: string; task: Task }
  | { kind: 'deleted'; accountId: string; taskId: string; deletedAt: string };

/**
 * Called inside the transaction that makes the change, after the change is recorded: what it writes
 * commits or rolls back with the change (the webhooks' outbox, decisions §16). A throw undoes the change.
 */
export type TaskChangeListener = (trx: Knex.Transaction, change: TaskChange) => Promise<void>;

/**
 * The one place where task writes are recorded for the change feed (decisions §15): the change
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
  takeNumbers(trx: Knex.Transaction, accountId: string, count: number): Promise<number>;
  /** Rows written with their new numbers and versions: created or updated. */
  upserted(trx: Knex.Transaction, kind: 'created' | 'updated', rows: readonly TaskRow[]): Promise<void>;
  /** Leaves the deleted task's tombstone under its change number. */
  deleted(trx: Knex.Transaction, deletion: { accountId: string; taskId: string; changeNumber: number; deletedAt: number }): Promise<void>;
}

export function createTaskChangeRecorder(onTaskChange?: TaskChangeListener): TaskChangeRecorder {
  return {
    async takeNumbers(trx, accountId, count) {
      const rows: { task_change_seq: number }[] = await trx('accounts')
        .where('id', accountId)
        .update({ task_change_seq: trx.raw('task_change_seq + ?', [count]) })
        .returning('task_change_seq');
      const last = rows[0]?.task_change_seq;
      // The caller's own account: it exists for as long as its request is served.
      if (last === undefined) throw new Error(`No account ${accountId} to number a task change of`);
      return Number(last) - count + 1;
    },

    async upserted(trx, kind, rows) {
      if (!onTaskChange) return;
      for (const row of rows) await onTaskChange(trx, { kind, accountId: row.account_id, task: toTask(row) });
    },

    async deleted(trx, { accountId, taskId, changeNumber, deletedAt }) {
      await trx('task_tombstones').insert({ account_id: accountId, change_seq: changeNumber, task_id: taskId, deleted_at: deletedAt });
      if (onTaskChange) await onTaskChange(trx, { kind: 'deleted', accountId, taskId, deletedAt: toIso(deletedAt) });
    },
  };
}
