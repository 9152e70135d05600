import type { components } from '../../generated/api.js';
import { compiledQuery, type CompiledQuery, type Queryable, type StepBuilder } from '../platform/compiled-query.js';
import { isPostgres, type Db } from '../platform/db.js';
import { afterCommit, transactionNow, type AnyTransaction, type Transaction } from '../platform/transaction.js';
import { toIso } from '../platform/time.js';
import { deleteLeavingTombstone, deleteLeavingTombstoneNow, type TaskDeletion } from './task-feed.repository.js';
import { toTask } from './tasks.presenter.js';
import { changeNumbersTaken, firstNumberTaken } from './change-numbers.js';
import { takeTaskPlaceNow } from './task-quota.js';
import { insertTaskWithinCap } from './task-create.repository.js';
import { insertTaskNow, type NewTaskRow, type TaskRow } from './tasks.repository.js';
import { indexNewTaskNow, indexTasks, indexTasksNow } from './task-index.repository.js';

export type { TaskDeletion } from './task-feed.repository.js';

type Task = components['schemas']['Task'];

/** One change of one task, as the listener sees it inside the transaction that makes it. */
export type TaskChange =
  | { kind: 'created' | 'updated'; accountId: string; task: Task }
  | { kind: 'deleted'; accountId: string; taskId: string; deletedAt: string };

/** Hears every task change, and what it writes commits or rolls back with the change (the webhooks' outbox, docs/webhooks.md). */
export interface TaskChangeListener {
  /**
   * Called inside the transaction that makes the change, after the change is recorded. A throw undoes
   * the change. The API's writes come in a transaction of ours (src/platform/transaction.ts), sync and
   * disconnect in knex's; on SQLite the API's writes run `step` instead, in their synchronous transaction.
   */
  record: (trx: AnyTransaction, change: TaskChange) => Promise<void>;
  /**
   * The same write as a step of the statement that makes a create: on PostgreSQL a step of its one
   * statement; on SQLite a statement of its own in the synchronous transaction of a create, an update
   * or a delete.
   */
  step: TaskChangeStep;
}

/**
 * A listener's write as one step of the statement that makes the change: PostgreSQL's data-modifying
 * WITH (src/tasks/task-create.repository.ts, insertTaskWithinCap).
 */
export interface TaskChangeStep {
  /** The write, its values as `$(0)`, `$(1)`, ...: compiled once (src/platform/compiled-query.ts). */
  build: StepBuilder;
  /** The step's values for a change. */
  values: (change: TaskChange) => readonly unknown[];
  /** Once the statement that ran the step has committed, when the step wrote rows. */
  committed: () => void;
}

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
  /**
   * Takes a place under the cap and the create's number, inserts the task and records the creation;
   * undefined at the cap, nothing written. On PostgreSQL one statement, the listener's write a step of
   * it (src/tasks/task-create.repository.ts, insertTaskWithinCap); on SQLite the cap's UPDATE, the
   * INSERT and the listener's step in one synchronous transaction (src/platform/transaction.ts,
   * transactionNow). Either runs in `db` when it is a transaction.
   */
  created(db: Db | Transaction, row: NewTaskRow, maxTasks: number): Promise<TaskRow | undefined>;
  /**
   * Rows written with their new numbers and versions: created or updated. Their words and labels are
   * indexed again (src/tasks/task-index.repository.ts) unless `reindex` is false: a change that left
   * title, notes and labels as they were.
   */
  upserted(trx: AnyTransaction, kind: 'created' | 'updated', rows: readonly TaskRow[], reindex?: boolean): Promise<void>;
  /**
   * Deletes the task (only at an expected version, when given) and leaves its tombstone under the
   * change number; false when there was no such task to delete.
   */
  deleted(trx: Transaction, deletion: TaskDeletion): Promise<boolean>;
  /** SQLite: takeNumbers, upserted and deleted, synchronously, in a transaction `transactionNow` runs (src/platform/transaction.ts). */
  now: {
    takeNumbers(trx: Transaction, accountId: string, count: number): number;
    upserted(trx: Transaction, kind: 'created' | 'updated', rows: readonly TaskRow[], reindex?: boolean): void;
    deleted(trx: Transaction, deletion: TaskDeletion): boolean;
  };
}

export function createTaskChangeRecorder(listener?: TaskChangeListener): TaskChangeRecorder {
  return {
    async takeNumbers(trx, accountId, count) {
      const row = await takeNumbersOf.first(trx, [accountId, count]);
      // The caller's own account: it exists for as long as its request is served.
      if (row === undefined) throw new Error(`No account ${accountId} to number a task change of`);
      return firstNumberTaken(row, count);
    },

    numbersInTaskUpdate: isPostgres,

    async created(db, row, maxTasks) {
      const step = listener?.step;
      const createdBy = (): TaskChange => ({ kind: 'created', accountId: row.account_id, task: toTask(row) });
      if (isPostgres(db)) {
        const result = await insertTaskWithinCap(db, row, maxTasks, step && { build: step.build, values: step.values(createdBy()) });
        if (step && result && result.stepWrote > 0) afterCommit(db, step.committed);
        return result?.row;
      }
      return transactionNow(db, (trx) => {
        const changeNumber = takeTaskPlaceNow(trx, row.account_id, maxTasks);
        if (changeNumber === undefined) return undefined;
        const inserted = indexNewTaskNow(trx, row, (searchTexts) => insertTaskNow(trx, row, changeNumber, searchTexts));
        if (step && statementOf(step).now.run(trx, step.values(createdBy())) > 0) trx.afterCommit(step.committed);
        return inserted;
      });
    },

    async upserted(trx, kind, rows, reindex = true) {
      if (reindex) await indexTasks(trx, rows);
      if (!listener) return;
      for (const row of rows) await listener.record(trx, { kind, accountId: row.account_id, task: toTask(row) });
    },

    async deleted(trx, deletion) {
      if (!(await deleteLeavingTombstone(trx, deletion))) return false;
      const { accountId, taskId, deletedAt } = deletion;
      if (listener) await listener.record(trx, { kind: 'deleted', accountId, taskId, deletedAt: toIso(deletedAt) });
      return true;
    },

    now: {
      takeNumbers(trx, accountId, count) {
        const row = takeNumbersOf.now.first(trx, [accountId, count]);
        if (row === undefined) throw new Error(`No account ${accountId} to number a task change of`);
        return firstNumberTaken(row, count);
      },
      upserted(trx, kind, rows, reindex = true) {
        if (reindex) indexTasksNow(trx, rows);
        for (const row of rows) heardNow(trx, { kind, accountId: row.account_id, task: toTask(row) });
      },
      deleted(trx, deletion) {
        if (!deleteLeavingTombstoneNow(trx, deletion)) return false;
        const { accountId, taskId, deletedAt } = deletion;
        heardNow(trx, { kind: 'deleted', accountId, taskId, deletedAt: toIso(deletedAt) });
        return true;
      },
    },
  };

  /** The listener's write as a statement of its own, synchronously (its step, as a create on SQLite runs it). */
  function heardNow(trx: Transaction, change: TaskChange): void {
    const step = listener?.step;
    if (step && statementOf(step).now.run(trx, step.values(change)) > 0) trx.afterCommit(step.committed);
  }
}

/** A step as a statement of its own (SQLite, where a statement has no data-modifying WITH), compiled once per step. */
const stepStatements = new Map<StepBuilder, CompiledQuery<readonly unknown[], never>>();
function statementOf(step: TaskChangeStep): CompiledQuery<readonly unknown[], never> {
  let statement = stepStatements.get(step.build);
  if (!statement) {
    statement = compiledQuery<readonly unknown[], never>((db, $) => step.build(db, $));
    stepStatements.set(step.build, statement);
  }
  return statement;
}

// Every PATCH takes its number here: compiled and prepared once (src/platform/compiled-query.ts).
const takeNumbersOf = compiledQuery<[accountId: string, count: number], { task_change_seq: number }>((db, $) =>
  db('accounts').where('id', $(0)).update(changeNumbersTaken(db, $(1))).returning('task_change_seq'),
);
