import type { Knex } from 'knex';
import { compiledQuery } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import { COLUMNS, type ExpectedVersions, type TaskRow } from './tasks.repository.js';

export interface TaskDeletion {
  accountId: string;
  taskId: string;
  /** If-Match: only a task at one of these versions is deleted. */
  expected: ExpectedVersions;
  changeNumber: number;
  deletedAt: number;
}

/** A row of the change feed: a task in its latest state, or a tombstone (only its id and deletion time). */
export type FeedRow = ({ change_kind: 'upserted' } & TaskRow) | { change_kind: 'deleted'; change_seq: number; id: string; deleted_at: number };

/**
 * The changes of one account after change number `after`, in number order: tasks at their latest
 * number and, unless `withTombstones` is false, tombstones. One statement, so both tables are read in
 * one snapshot: two reads could see a later tombstone and miss an earlier update committed in between.
 */
export async function listChangesAfter(
  db: Knex,
  accountId: string,
  page: { after: number; limit: number; withTombstones: boolean },
): Promise<FeedRow[]> {
  return (page.withTombstones ? changesWithTombstones : changedTasks).all(db, [accountId, page.after, page.limit]);
}

/**
 * Deletes the task and leaves its tombstone: on PostgreSQL one statement (a round trip less on every
 * DELETE), on SQLite two in the caller's transaction. False when there was no such task (at that version).
 */
export async function deleteLeavingTombstone(trx: Knex.Transaction, deletion: TaskDeletion): Promise<boolean> {
  const { accountId, taskId, expected, changeNumber, deletedAt } = deletion;
  if (expected !== undefined && expected.length === 0) return false;
  const versionCheck = expected === undefined ? '' : ` and version in (${expected.map(() => '?').join(', ')})`;
  const target = [taskId, accountId, ...(expected ?? [])];
  if (isPostgres(trx)) {
    const result: { rows: unknown[] } = await trx.raw(
      `with gone as (delete from tasks where id = ? and account_id = ?${versionCheck} returning id)
       insert into task_tombstones (account_id, change_seq, task_id, deleted_at) select ?, ?, id, ? from gone returning task_id`,
      [...target, accountId, changeNumber, deletedAt],
    );
    return result.rows.length === 1;
  }
  const deleted = await trx('tasks')
    .whereRaw(`id = ? and account_id = ?${versionCheck}`, target)
    .delete();
  if (deleted !== 1) return false;
  await trx('task_tombstones').insert({ account_id: accountId, change_seq: changeNumber, task_id: taskId, deleted_at: deletedAt });
  return true;
}

/**
 * The account's last change number. Numbers are handed out in commit order (src/tasks/task-changes.ts),
 * so when it is still a cursor's, nothing has changed since: an empty poll reads one row by key.
 */
export async function lastChangeNumber(db: Knex, accountId: string): Promise<number | undefined> {
  const row = await lastNumberOf.first(db, [accountId]);
  return row === undefined ? undefined : Number(row.task_change_seq);
}

/** Forgets the account's tombstones of deletions before `before` (epoch ms). */
export async function purgeTombstones(db: Knex, accountId: string, before: number): Promise<number> {
  return db('task_tombstones').where('account_id', accountId).andWhere('deleted_at', '<', before).delete();
}

type FeedParams = [accountId: string, after: number, limit: number];

// The feed's reads are compiled once (src/platform/compiled-query.ts): an empty poll is one read by key,
// and knex's building and preparing it again on every poll cost as much as the read (docs/change-feed.md).
const lastNumberOf = compiledQuery<[string], { task_change_seq: number }>((db, $) => db('accounts').select('task_change_seq').where('id', $(0)).limit(1));

const changedTasksSql = (db: Knex) => `select 'upserted' as change_kind, ${COLUMNS.join(', ')}, cast(null as ${bigint(db)}) as deleted_at
  from tasks where account_id = ? and change_seq > ? order by change_seq limit ?`;

const changedTasks = compiledQuery<FeedParams, FeedRow>((db, $) => db.raw(changedTasksSql(db), [$(0), $(1), $(2)]));

const changesWithTombstones = compiledQuery<FeedParams, FeedRow>((db, $) => {
  const tombstoneColumns = COLUMNS.map((column) => (column in TOMBSTONE_COLUMNS ? `${TOMBSTONE_COLUMNS[column]} as ${column}` : `cast(null as ${NULL_TYPES[column]}) as ${column}`));
  const tombstones = `select 'deleted' as change_kind, ${tombstoneColumns.join(', ')}, deleted_at
    from task_tombstones where account_id = ? and change_seq > ? order by change_seq limit ?`;
  return db.raw(`select * from (${changedTasksSql(db)}) as changed_tasks union all select * from (${tombstones}) as deleted_tasks order by change_seq limit ?`, [
    $(0),
    $(1),
    $(2),
    $(0),
    $(1),
    $(2),
    $(2),
  ]);
});

const TOMBSTONE_COLUMNS: Record<string, string> = { id: 'task_id', account_id: 'account_id', change_seq: 'change_seq' };
// PostgreSQL types a bare null in a subquery as text, which a union with a bigint column refuses.
const NULL_TYPES: Record<string, string> = {
  title: 'varchar(500)',
  notes: 'text',
  status: 'varchar(16)',
  priority: 'integer',
  due_at: 'bigint',
  labels: 'text',
  completed_at: 'bigint',
  created_at: 'bigint',
  updated_at: 'bigint',
  connector_account_id: 'varchar(36)',
  connector_type: 'varchar(32)',
  external_id: 'varchar(1024)',
  external_url: 'text',
  version: 'integer',
};

const bigint = (db: Knex) => (isPostgres(db) ? 'bigint' : 'integer');
