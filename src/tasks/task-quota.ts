import type { Knex } from 'knex';
import { compiledQuery } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';

// The task cap lives in accounts.task_count, moved only inside the transaction that inserts or
// deletes the tasks it counts, so the counter and the rows never disagree.

/** Takes one place under the cap, or none when the account is at it: one conditional UPDATE. */
export async function takeTaskPlace(trx: Knex.Transaction, accountId: string, maxTasks: number): Promise<boolean> {
  return (await takePlace.run(trx, [accountId, maxTasks])) === 1;
}

// The same conditional UPDATE, compiled and prepared once (src/platform/compiled-query.ts).
const takePlace = compiledQuery<[string, number], never>((db, $) => db('accounts').where('id', $(0)).andWhere('task_count', '<', $(1)).increment('task_count', 1));

/** Reserves up to `wanted` places and answers how many it got; the account row stays locked until the transaction ends. */
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

export async function releaseTaskPlaces(trx: Knex.Transaction, accountId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await trx('accounts')
    .where('id', accountId)
    .update({ task_count: trx.raw('case when task_count > ? then task_count - ? else 0 end', [count, count]) });
}

export async function usedTaskPlaces(db: Knex, accountId: string): Promise<number> {
  const row: { task_count: number } | undefined = await db('accounts').select('task_count').where('id', accountId).first();
  return row ? Number(row.task_count) : 0;
}
