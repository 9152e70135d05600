import type { Knex } from 'knex';
import { compiledQuery, type CompiledQuery, type Placeholder } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import type { Transaction } from '../platform/transaction.js';
import { COLUMNS, versionSlots, type ExpectedVersions, type TaskRow } from './tasks.repository.js';

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
export async function deleteLeavingTombstone(trx: Transaction, deletion: TaskDeletion): Promise<boolean> {
  const { accountId, taskId, expected, changeNumber, deletedAt } = deletion;
  // An If-Match that allows no version: no task matches (the statements have no shape for an empty list).
  if (expected !== undefined && expected.length === 0) return false;
  const versions = versionSlots(expected);
  const params: DeletionParams = [taskId, accountId, changeNumber, deletedAt, ...versions];
  const shape = deletionShapeOf(versions.length);
  if (isPostgres(trx)) return (await shape.deleteLeavingTombstone.run(trx, params)) === 1;
  if ((await shape.deleteTask.run(trx, params)) !== 1) return false;
  await insertTombstone.run(trx, [accountId, changeNumber, taskId, deletedAt]);
  return true;
}

/** The same on SQLite, synchronously, in a transaction `transactionNow` runs (src/platform/transaction.ts). */
export function deleteLeavingTombstoneNow(trx: Transaction, deletion: TaskDeletion): boolean {
  const { accountId, taskId, expected, changeNumber, deletedAt } = deletion;
  if (expected !== undefined && expected.length === 0) return false;
  const versions = versionSlots(expected);
  const shape = deletionShapeOf(versions.length);
  if (shape.deleteTask.now.run(trx, [taskId, accountId, changeNumber, deletedAt, ...versions]) !== 1) return false;
  insertTombstone.now.run(trx, [accountId, changeNumber, taskId, deletedAt]);
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

/**
 * Forgets the account's oldest tombstones, by change number, up to the first of a deletion at or after
 * `before` (epoch ms): what it reads is what it deletes and one row more, on the primary key (no index
 * on deleted_at for every DELETE to write: src/platform/migrations/012-tombstones-without-age-index.ts).
 * A deletion numbered after that first one is older only by a clock's difference between instances;
 * it goes at a later purge.
 */
export async function purgeTombstones(db: Knex, accountId: string, before: number): Promise<number> {
  return purgeBefore.run(db, [accountId, before, Number.MAX_SAFE_INTEGER]);
}

type DeletionParams = [taskId: string, accountId: string, changeNumber: number, deletedAt: number, ...versions: number[]];
const DELETION_FIXED_PARAMS = 4;

interface DeletionShape {
  /** PostgreSQL: the DELETE and the tombstone's INSERT in one statement; the rows it inserted. */
  deleteLeavingTombstone: CompiledQuery<DeletionParams, never>;
  /** SQLite: the DELETE alone, then insertTombstone. */
  deleteTask: CompiledQuery<DeletionParams, never>;
}

// Every DELETE /tasks/{taskId} runs these: compiled and prepared once,
// one shape per number of expected versions (src/platform/compiled-query.ts).
const deletionShapes = new Map<number, DeletionShape>();

function deletionShapeOf(versions: number): DeletionShape {
  let shape = deletionShapes.get(versions);
  if (!shape) {
    const versionCheck = versions === 0 ? '' : ` and version in (${Array.from({ length: versions }, () => '?').join(', ')})`;
    const target = ($: Placeholder) => [$(0), $(1), ...Array.from({ length: versions }, (_, i) => $(DELETION_FIXED_PARAMS + i))];
    shape = {
      deleteLeavingTombstone: compiledQuery((db, $) =>
        db.raw(
          `with gone as (delete from tasks where id = ? and account_id = ?${versionCheck} returning id)
           insert into task_tombstones (account_id, change_seq, task_id, deleted_at) select ?, ?, id, ? from gone`,
          [...target($), $(1), $(2), $(3)],
        ),
      ),
      deleteTask: compiledQuery((db, $) => db.raw(`delete from tasks where id = ? and account_id = ?${versionCheck}`, target($))),
    };
    deletionShapes.set(versions, shape);
  }
  return shape;
}

const insertTombstone = compiledQuery<[accountId: string, changeNumber: number, taskId: string, deletedAt: number], never>((db, $) =>
  db('task_tombstones').insert({ account_id: $(0), change_seq: $(1), task_id: $(2), deleted_at: $(3) }),
);

const purgeBefore = compiledQuery<[accountId: string, before: number, noneKept: number], never>((db, $) =>
  db.raw(
    `delete from task_tombstones where account_id = ? and change_seq < coalesce(
       (select change_seq from task_tombstones where account_id = ? and deleted_at >= ? order by change_seq limit 1), ?)`,
    [$(0), $(0), $(1), $(2)],
  ),
);

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
