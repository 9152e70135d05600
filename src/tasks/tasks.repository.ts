import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import { compiledQuery, type CompiledQuery, type Queryable } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import type { Transaction } from '../platform/transaction.js';
import { changeNumbersTaken } from './change-numbers.js';
import type { PagePosition } from '../platform/page-cursor.js';
import { SEARCH_TEXT_COLUMNS } from './task-index.repository.js';

export type Task = components['schemas']['Task'];
export type TaskStatus = components['schemas']['TaskStatus'];
export type StatusFilter = TaskStatus | 'all';

export type { PagePosition } from '../platform/page-cursor.js';

export interface TaskRow {
  id: string;
  account_id: string;
  title: string;
  notes: string | null;
  status: TaskStatus;
  priority: number;
  due_at: number | null;
  labels: string;
  completed_at: number | null;
  created_at: number;
  updated_at: number;
  connector_account_id: string | null;
  connector_type: 'github' | 'ical' | null;
  external_id: string | null;
  external_url: string | null;
  /** 1 on create, one more on every change: the ETag. */
  version: number;
  /** The account's change number of the task's last change (src/tasks/change-numbers.ts). */
  change_seq: number;
}

/** Versions a conditional write may apply to (If-Match); undefined: any. */
export type ExpectedVersions = readonly number[] | undefined;

export interface NewTask {
  id: string;
  title: string;
  notes: string | null;
  status: TaskStatus;
  priority: number;
  dueAt: number | null;
  labels: string[];
}

/** The fields a change may set; `undefined` leaves a field as it is. */
export interface TaskChanges {
  title?: string;
  notes?: string | null;
  status?: TaskStatus;
  priority?: number;
  dueAt?: number | null;
  labels?: string[];
}

/** A new task's row, but for the change number its insert takes. */
export type NewTaskRow = Omit<TaskRow, 'change_seq'>;

export function newTaskRow(accountId: string, task: NewTask, now: number): NewTaskRow {
  return {
    id: task.id,
    account_id: accountId,
    title: task.title,
    notes: task.notes,
    status: task.status,
    priority: task.priority,
    due_at: task.dueAt,
    labels: JSON.stringify(task.labels),
    completed_at: task.status === 'completed' ? now : null,
    created_at: now,
    updated_at: now,
    connector_account_id: null,
    connector_type: null,
    external_id: null,
    external_url: null,
    version: 1,
  };
}

export async function insertTask(db: Queryable, row: NewTaskRow, changeNumber: number): Promise<TaskRow> {
  const inserted: TaskRow = { ...row, change_seq: changeNumber };
  await insertRow.run(db, COLUMNS.map((column) => inserted[column]));
  return inserted;
}

/**
 * The same with its search texts (src/tasks/task-index.repository.ts), synchronously, in SQLite's
 * synchronous transaction (src/platform/transaction.ts, transactionNow). The row takes its number in the
 * full-text index here, so that no trigger rewrites it (src/platform/migrations/016-task-search-terms.ts).
 */
export function insertTaskNow(trx: Transaction, row: NewTaskRow, changeNumber: number, searchTexts: (string | null)[]): TaskRow {
  const inserted: TaskRow = { ...row, change_seq: changeNumber };
  insertNumberedRow.now.run(trx, [...COLUMNS.map((column) => inserted[column]), ...searchTexts]);
  return inserted;
}

export async function findTask(db: Knex, accountId: string, taskId: string): Promise<TaskRow | undefined> {
  return taskById.first(db, [taskId, accountId]);
}

export async function listTaskPage(
  db: Knex,
  accountId: string,
  page: { status: StatusFilter; updatedSince?: number; after?: PagePosition; limit: number },
): Promise<TaskRow[]> {
  const { after, status, updatedSince } = page;
  const shape = pageShapes[(after ? 4 : 0) + (status !== 'all' ? 2 : 0) + (updatedSince !== undefined ? 1 : 0)]!;
  return shape.all(db, [accountId, after?.createdAt, after?.id, status, updatedSince, page.limit]);
}

/**
 * One UPDATE ... RETURNING: `completed_at` follows `status` from the stored row, not from a read before
 * it, and an expected version is checked by the same statement (of parallel writes naming one version,
 * one applies). One statement shape for every change: each field is set from its value when the
 * change gives it, else kept, so the statement is compiled and prepared once.
 *
 * Without a `changeNumber`, the statement takes the account's next change number itself (PostgreSQL
 * only: a data-modifying WITH on the account row, src/tasks/task-changes.ts), one round trip less
 * per change. The WITH's UPDATE runs when the SET first needs the number, so the account row is
 * locked before the task row, as by every task write.
 */
export async function updateTask(
  db: Queryable,
  target: { accountId: string; taskId: string; expected: ExpectedVersions },
  changes: TaskChanges,
  stamp: { now: number; changeNumber?: number },
): Promise<TaskRow | undefined> {
  if (stamp.changeNumber === undefined && !isPostgres(db)) throw new Error('updateTask: only PostgreSQL takes the change number in the same statement');
  const update = updateOf(target, changes, stamp);
  return update && update.shape.first(db, update.params);
}

/** The same on SQLite, synchronously, in a transaction `transactionNow` runs (src/platform/transaction.ts). */
export function updateTaskNow(trx: Transaction, target: { accountId: string; taskId: string; expected: ExpectedVersions }, changes: TaskChanges, stamp: { now: number; changeNumber: number }): TaskRow | undefined {
  const update = updateOf(target, changes, stamp);
  return update && update.shape.now.first(trx, update.params);
}

/** The update's statement shape and its values; undefined when an If-Match allows no version. */
function updateOf(target: { accountId: string; taskId: string; expected: ExpectedVersions }, changes: TaskChanges, stamp: { now: number; changeNumber?: number }) {
  const { expected } = target;
  const takesNumber = stamp.changeNumber === undefined;
  // An If-Match that allows no version: no task matches (the statement has no shape for an empty list).
  if (expected !== undefined && expected.length === 0) return undefined;
  const given = <T>(value: T | undefined) => [value !== undefined, value ?? null] as const;
  const params: UpdateParams = [
    target.taskId,
    target.accountId,
    stamp.now,
    stamp.changeNumber ?? null,
    ...given(changes.title),
    ...given(changes.notes),
    ...given(changes.priority),
    ...given(changes.dueAt),
    ...given(changes.labels === undefined ? undefined : JSON.stringify(changes.labels)),
    changes.status === 'open',
    changes.status === 'completed',
  ];
  const versions = versionSlots(expected);
  const slots = versions.length;
  const key = `${slots}${takesNumber ? '+number' : ''}`;
  let shape = updateShapes.get(key);
  if (!shape) {
    shape = updateShape(slots, takesNumber);
    updateShapes.set(key, shape);
  }
  return { shape, params: [...params, ...versions] as Parameters<typeof shape.first>[1] };
}

/**
 * An If-Match's versions as the statements with a version check take them: statements are compiled in
 * shapes for any version (none), or 1, 2, 4, 8, ... versions, and a list shorter than its shape repeats
 * its last version. A non-empty list only (an empty one matches no task: its callers answer that first).
 */
export function versionSlots(expected: ExpectedVersions): number[] {
  if (expected === undefined) return [];
  const slots = 2 ** Math.ceil(Math.log2(expected.length));
  return Array.from({ length: slots }, (_, i) => expected[Math.min(i, expected.length - 1)]!);
}

/** The version of a task, or undefined when the account has no such task. */
export async function findVersion(db: Queryable, accountId: string, taskId: string): Promise<number | undefined> {
  const row = await versionById.first(db, [taskId, accountId]);
  return row === undefined ? undefined : Number(row.version);
}

type UpdateParams = [
  taskId: string,
  accountId: string,
  now: number,
  changeNumber: number | null,
  hasTitle: boolean,
  title: string | null,
  hasNotes: boolean,
  notes: string | null,
  hasPriority: boolean,
  priority: number | null,
  hasDueAt: boolean,
  dueAt: number | null,
  hasLabels: boolean,
  labels: string | null,
  opens: boolean,
  completes: boolean,
  ...versions: number[],
];

const UPDATE_FIXED_PARAMS = 16;

/**
 * The update, checking the version against `versions` placeholders after the others (none: any version);
 * `takesNumber`: the change number from the account row, in the same statement.
 */
function updateShape(versions: number, takesNumber: boolean) {
  return compiledQuery<UpdateParams, TaskRow>((db, $) => {
    const keptUnlessGiven = (column: string, flag: number) => db.raw(`case when ? then ? else ${column} end`, [$(flag), $(flag + 1)]);
    const query = db('tasks');
    if (takesNumber) query.with(NUMBER_TAKEN, (account) => account.from('accounts').where('id', $(1)).update(changeNumbersTaken(db, 1)).returning('task_change_seq'));
    query.where('id', $(0)).andWhere('account_id', $(1));
    if (versions > 0) query.whereIn('version', Array.from({ length: versions }, (_, i) => $(UPDATE_FIXED_PARAMS + i)));
    return query
      .update({
        updated_at: $(2),
        version: db.raw('version + 1'),
        change_seq: takesNumber ? db.raw(`(select task_change_seq from ${NUMBER_TAKEN})`) : $(3),
        title: keptUnlessGiven('title', 4),
        notes: keptUnlessGiven('notes', 6),
        priority: keptUnlessGiven('priority', 8),
        due_at: keptUnlessGiven('due_at', 10),
        labels: keptUnlessGiven('labels', 12),
        status: db.raw("case when ? then 'open' when ? then 'completed' else status end", [$(14), $(15)]),
        // Completing a completed task keeps the time it was first completed.
        completed_at: db.raw("case when ? then null when ? then (case when status = 'completed' then completed_at else ? end) else completed_at end", [$(14), $(15), $(2)]),
      })
      .returning(COLUMNS);
  });
}
const NUMBER_TAKEN = 'number_taken';
const updateShapes = new Map<string, ReturnType<typeof updateShape>>();

const versionById = compiledQuery<[taskId: string, accountId: string], { version: number }>((db, $) =>
  db('tasks').select('version').where('id', $(0)).andWhere('account_id', $(1)).limit(1),
);

/** A page's query in each of its eight shapes (after a position or not, by status or not, since a time or not), compiled once each. */
const pageShapes: CompiledQuery<PageParams, TaskRow>[] = Array.from({ length: 8 }, (_, shape) =>
  compiledQuery<PageParams, TaskRow>((db, $) => {
    const query = db('tasks').select(COLUMNS).where('account_id', $(0));
    // A row-value comparison, not `a > x OR (a = x AND b > y)`: both engines seek the (account_id,
    // created_at, id) index to the position, where the OR form makes SQLite scan from the account's first task.
    if (shape & 4) query.andWhereRaw('(created_at, id) > (?, ?)', [$(1), $(2)]);
    if (shape & 2) query.andWhere('status', $(3));
    if (shape & 1) query.andWhere('updated_at', '>=', $(4));
    return query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit($(5));
  }),
);
type PageParams = [accountId: string, afterCreatedAt: number | undefined, afterId: string | undefined, status: StatusFilter, updatedSince: number | undefined, limit: number];

const insertRow = compiledQuery<unknown[], never>((db, $) => db('tasks').insert(Object.fromEntries(COLUMNS.map((column, i) => [column, $(i)]))));
const insertNumberedRow = compiledQuery<unknown[], never>((db, $) => {
  const columns = [...COLUMNS, ...SEARCH_TEXT_COLUMNS];
  return db.raw(`insert into tasks (??, doc) values (${columns.map(() => '?').join(', ')}, (select coalesce(max(doc), 0) + 1 from tasks))`, [
    columns,
    ...columns.map((_, i) => $(i)),
  ]);
});

const taskById = compiledQuery<[string, string], TaskRow>((db, $) => db('tasks').select(COLUMNS).where('id', $(0)).andWhere('account_id', $(1)).limit(1));

export const COLUMNS: (keyof TaskRow)[] = [
  'id',
  'account_id',
  'title',
  'notes',
  'status',
  'priority',
  'due_at',
  'labels',
  'completed_at',
  'created_at',
  'updated_at',
  'connector_account_id',
  'connector_type',
  'external_id',
  'external_url',
  'version',
  'change_seq',
];
