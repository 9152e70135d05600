import type { Knex } from 'knex';
import { isPostgres } from '../platform/db.js';
import { COLUMNS, type TaskRow } from './tasks.repository.js';

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
  const taskColumns = COLUMNS.join(', ');
  const tasks = `select 'upserted' as change_kind, ${taskColumns}, cast(null as ${bigint(db)}) as deleted_at
    from tasks where account_id = ? and change_seq > ? order by change_seq limit ?`;
  const taskBindings = [accountId, page.after, page.limit];
  if (!page.withTombstones) return rowsOf(await db.raw(tasks, taskBindings));

  const tombstoneColumns = COLUMNS.map((column) => (column in TOMBSTONE_COLUMNS ? `${TOMBSTONE_COLUMNS[column]} as ${column}` : `cast(null as ${NULL_TYPES[column]}) as ${column}`));
  const tombstones = `select 'deleted' as change_kind, ${tombstoneColumns.join(', ')}, deleted_at
    from task_tombstones where account_id = ? and change_seq > ? order by change_seq limit ?`;
  const result: unknown = await db.raw(
    `select * from (${tasks}) as changed_tasks union all select * from (${tombstones}) as deleted_tasks order by change_seq limit ?`,
    [...taskBindings, accountId, page.after, page.limit, page.limit],
  );
  return rowsOf(result);
}

/** Forgets the account's tombstones of deletions before `before` (epoch ms). */
export async function purgeTombstones(db: Knex, accountId: string, before: number): Promise<number> {
  return db('task_tombstones').where('account_id', accountId).andWhere('deleted_at', '<', before).delete();
}

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

/** pg answers { rows }, better-sqlite3 an array of rows. */
function rowsOf(result: unknown): FeedRow[] {
  return (Array.isArray(result) ? result : (result as { rows: FeedRow[] }).rows) as FeedRow[];
}
