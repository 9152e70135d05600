import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import type { TaskSort } from '../../sdk/src/task-query.js';
import { compiledQuery, type CompiledQuery } from '../platform/compiled-query.js';
import { isPostgres, type Db } from '../platform/db.js';
import { NO_DUE_TIME_SQL } from '../platform/migrations/014-finding-tasks.js';
import { COLUMNS, type StatusFilter, type TaskRow } from './tasks.repository.js';

// A page of `listTasks` (docs/finding-tasks.md): the filters as SQL over the tasks' indexes and the
// words and labels of src/tasks/task-index.repository.ts, in the sort's total order, after a position.

/** `listTasks`' filters, checked and normalised (words and label keys as the index keeps them). */
export interface TaskFilters {
  status: StatusFilter;
  /** Each query word's range of indexed words: [word, word + the last code point]. */
  wordRanges: [from: string, to: string][];
  labelKeys: string[];
  priorities: number[];
  dueAfter?: number;
  dueBefore?: number;
  hasDue?: boolean;
  updatedSince?: number;
}

/** A row's place in a sort's order: the values of its sort key (the id last). */
export type SortPosition = (number | string)[];

/** The SQL of each sort key's parts, in order. */
const SORT_COLUMNS: Record<TaskSort, string[]> = {
  created: ['created_at', 'id'],
  '-created': ['created_at', 'id'],
  updated: ['updated_at', 'id'],
  '-updated': ['updated_at', 'id'],
  due: [NO_DUE_TIME_SQL, 'created_at', 'id'],
  priority: ['priority', NO_DUE_TIME_SQL, 'created_at', 'id'],
};

/** A row's position under a sort, for the cursor after it. */
export function positionOf(sort: TaskSort, row: TaskRow): SortPosition {
  const due = row.due_at === null ? NO_DUE_TIME : Number(row.due_at);
  switch (sort) {
    case 'created':
    case '-created':
      return [Number(row.created_at), row.id];
    case 'updated':
    case '-updated':
      return [Number(row.updated_at), row.id];
    case 'due':
      return [due, Number(row.created_at), row.id];
    case 'priority':
      return [Number(row.priority), due, Number(row.created_at), row.id];
  }
}
const NO_DUE_TIME = 253402300800000;

export function sortKeyLength(sort: TaskSort): number {
  return SORT_COLUMNS[sort].length;
}

/** A page of the account's tasks matching `filters`, in `sort`'s order after `after`, at most `limit` rows. */
export async function findTaskPage(
  db: Db,
  accountId: string,
  page: { filters: TaskFilters; sort: TaskSort; after?: SortPosition; limit: number },
): Promise<TaskRow[]> {
  const { filters, sort, after, limit } = page;
  const shape: Shape = {
    sort,
    after: after !== undefined,
    status: filters.status !== 'all',
    words: filters.wordRanges.length > 0,
    labels: filters.labelKeys.length > 0,
    priorities: filters.priorities.length > 0,
    dueAfter: filters.dueAfter !== undefined,
    dueBefore: filters.dueBefore !== undefined,
    hasDue: filters.hasDue,
    updatedSince: filters.updatedSince !== undefined,
  };
  const pg = isPostgres(db);
  const list = (values: readonly unknown[]) => (pg ? values : JSON.stringify(values));
  // The most selective word and label (the longest word, the first label) drive the query from their index.
  const leading = [...filters.wordRanges].sort((a, b) => b[0].length - a[0].length)[0];
  const params: unknown[] = [
    accountId,
    ...(after ?? SORT_COLUMNS[sort].map(() => null)),
    filters.status,
    leading?.[0] ?? null,
    leading?.[1] ?? null,
    pg ? filters.wordRanges.map(([from]) => from) : JSON.stringify(filters.wordRanges),
    pg ? filters.wordRanges.map(([, to]) => to) : null,
    filters.labelKeys[0] ?? null,
    list(filters.labelKeys),
    list(filters.priorities),
    filters.dueAfter ?? null,
    filters.dueBefore ?? null,
    filters.updatedSince ?? null,
    limit,
  ];
  return shapeQuery(shape).all(db, params);
}

interface Shape {
  sort: TaskSort;
  after: boolean;
  status: boolean;
  words: boolean;
  labels: boolean;
  priorities: boolean;
  dueAfter: boolean;
  dueBefore: boolean;
  hasDue: boolean | undefined;
  updatedSince: boolean;
}

/** Each shape of the query compiled once (src/platform/compiled-query.ts); the shapes in use are few. */
const shapes = new LRUCache<string, CompiledQuery<unknown[], TaskRow>>({ max: 256 });

function shapeQuery(shape: Shape): CompiledQuery<unknown[], TaskRow> {
  const key = JSON.stringify(shape);
  let query = shapes.get(key);
  if (!query) {
    query = compiledQuery<unknown[], TaskRow>((db, $) => buildPage(db, $, shape));
    shapes.set(key, query);
  }
  return query;
}

function buildPage(db: Knex, $: (index: number) => never, shape: Shape): Knex.QueryBuilder {
  const pg = isPostgres(db);
  const columns = SORT_COLUMNS[shape.sort];
  const descending = shape.sort.startsWith('-');
  let at = 0;
  const next = () => $(at++);
  const accountId = next();
  const position = columns.map(() => next());
  // In the order of findTaskPage's values.
  const status = next();
  const leadFrom = next();
  const leadTo = next();
  const wordFroms = next();
  const wordTos = next();
  const leadLabel = next();
  const labelKeys = next();
  const priorities = next();
  const dueAfter = next();
  const dueBefore = next();
  const updatedSince = next();
  const limit = next();

  const query = db('tasks as t').select(COLUMNS.map((column) => `t.${column}`)).where('t.account_id', accountId);
  if (shape.after) query.andWhereRaw(`(${columns.map((c) => qualified(c)).join(', ')}) ${descending ? '<' : '>'} (${columns.map(() => '?').join(', ')})`, position);
  if (shape.status) query.andWhere('t.status', status);
  if (shape.updatedSince) query.andWhere('t.updated_at', '>=', updatedSince);
  if (shape.dueAfter) query.andWhere('t.due_at', '>=', dueAfter);
  if (shape.dueBefore) query.andWhere('t.due_at', '<', dueBefore);
  if (shape.hasDue === true) query.whereNotNull('t.due_at');
  if (shape.hasDue === false) query.whereNull('t.due_at');
  if (shape.priorities) {
    if (pg) query.andWhereRaw('t.priority = any(?::int[])', [priorities]);
    else query.andWhereRaw('t.priority in (select value from json_each(?))', [priorities]);
  }
  if (shape.words) {
    query.andWhereRaw('t.id in (select w.task_id from task_words w where w.account_id = ? and w.word >= ? and w.word < ?)', [accountId, leadFrom, leadTo]);
    // Every query word starts some word of the task.
    if (pg) {
      query.andWhereRaw(
        'not exists (select 1 from unnest(?::text[], ?::text[]) as q(f, t) where not exists (select 1 from task_words w where w.task_id = t.id and w.word >= q.f and w.word < q.t))',
        [wordFroms, wordTos],
      );
    } else {
      query.andWhereRaw(
        'not exists (select 1 from json_each(?) as q where not exists (select 1 from task_words w where w.task_id = t.id and w.word >= q.value ->> 0 and w.word < q.value ->> 1))',
        [wordFroms],
      );
    }
  }
  if (shape.labels) {
    query.andWhereRaw('t.id in (select l.task_id from task_labels l where l.account_id = ? and l.label = ?)', [accountId, leadLabel]);
    const keys = pg ? 'select k from unnest(?::text[]) as q(k)' : 'select value as k from json_each(?)';
    query.andWhereRaw(`not exists (select 1 from (${keys}) as q where not exists (select 1 from task_labels l where l.task_id = t.id and l.label = q.k))`, [labelKeys]);
  }
  return query.orderByRaw(columns.map((c) => `${qualified(c)} ${descending ? 'desc' : 'asc'}`).join(', ')).limit(limit);
}

/** A sort column of the tasks table as `t`'s. */
function qualified(column: string): string {
  return column === NO_DUE_TIME_SQL ? NO_DUE_TIME_SQL.replace('due_at', 't.due_at') : `t.${column}`;
}

export interface LabelCount {
  name: string;
  openTasks: number;
}

/** The account's labels, spelled as on the oldest task carrying each, with their open tasks: the most used first, then by name. */
export async function listLabels(db: Db, accountId: string): Promise<LabelCount[]> {
  const rows = await labelsOf.all(db, [accountId]);
  return rows
    .map((row) => ({ name: row.name, openTasks: Number(row.open_tasks) }))
    .sort((a, b) => b.openTasks - a.openTasks || compareText(a.name.toLowerCase(), b.name.toLowerCase()) || compareText(a.name, b.name));
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

const labelsOf = compiledQuery<[accountId: string], { name: string; open_tasks: number | string }>((db, $) =>
  db.raw(
    `select name, open_tasks from (
       select l.name,
              row_number() over (partition by l.label order by t.created_at, t.id) as nth,
              sum(case when t.status = 'open' then 1 else 0 end) over (partition by l.label) as open_tasks
       from task_labels l join tasks t on t.id = l.task_id
       where l.account_id = ?
     ) as labelled where nth = 1`,
    [$(0)],
  ),
);
