import type { Knex } from 'knex';

// Each account's change counter (accounts.task_change_seq) numbers its task changes for the feed
// (src/tasks/task-changes.ts).

/**
 * What an UPDATE of the account row sets to take `count` change numbers; the task cap's updates
 * (src/tasks/task-quota.ts) take them in the same statement, one round trip fewer per create and delete.
 */
export const changeNumbersTaken = (db: Knex, count: number) => ({ task_change_seq: db.raw('task_change_seq + ?', [count]) });

/** The first of `count` numbers, from the counter an UPDATE ... RETURNING answered. */
export const firstNumberTaken = (row: { task_change_seq: number | string }, count: number): number => Number(row.task_change_seq) - count + 1;
