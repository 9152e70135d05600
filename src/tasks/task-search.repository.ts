import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { sortKey, type TaskSort } from '../../sdk/src/task-query.js';
import { compiledQuery, type CompiledQuery } from '../platform/compiled-query.js';
import { isPostgres, type Db } from '../platform/db.js';
import { NO_DUE_TIME_SQL } from '../platform/migrations/014-finding-tasks.js';
import { toTask } from './tasks.presenter.js';
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

/** A row's position under a sort, for the cursor after it: the SDK's sort key (sdk/src/task-query.ts), one definition for both. */
export function positionOf(sort: TaskSort, row: TaskRow): SortPosition {
  return sortKey(sort, toTask(row));
}

export function sortKeyLength(sort: TaskSort): number {
  return SORT_COLUMNS[sort].length;
}

export interface PageRequest {
  filters: TaskFilters;
  sort: TaskSort;
  after?: SortPosition;
  limit: number;
}

/** A page of the account's tasks matching `filters`, in `sort`'s order after `after`, at most `limit` rows. */
export async function findTaskPage(db: Db, accountId: string, page: PageRequest): Promise<TaskRow[]> {
  const filtered = page.filters.wordRanges.length > 0 || page.filters.labelKeys.length > 0;
  const shape = shapeOf(page, filtered ? await driver(db, accountId, page.filters) : 'order');
  const values = pageValues(db, accountId, page);
  // PostgreSQL plans a prepared statement once for any values after a few runs, but how many tasks a
  // word or a label leaves decides the plan: those pages are planned for their own values every time.
  if (isPostgres(db) && (shape.words > 0 || shape.labels > 0)) return (await buildPage(db, (index) => values[index] as never, shape)) as TaskRow[];
  return shapeQuery(shape).all(db, values);
}

/** The same page's query with its values in place, for EXPLAIN (contract-tests/tasks/finding-plans.test.ts). */
export async function pageStatement(db: Knex, accountId: string, page: PageRequest): Promise<Knex.SqlNative> {
  const values = pageValues(db, accountId, page);
  return buildPage(db, (index) => values[index] as never, shapeOf(page, await driver(db, accountId, page.filters)))
    .toSQL()
    .toNative();
}

/**
 * Where a filtered page starts. Walking the account's tasks in the sort's order and testing each
 * against the words and labels is quick when many match and slow when few do: with few, the page starts
 * from the first word's or label's list of tasks and sorts what it finds. SQLite keeps no statistics
 * to choose by, and PostgreSQL's guess of how many tasks a word leaves was off by ten times and more
 * (bench/search.bench.ts): one bounded count of that list decides on both.
 */
async function driver(db: Knex, accountId: string, filters: TaskFilters): Promise<Shape['drive']> {
  if (filters.wordRanges.length === 0 && filters.labelKeys.length === 0) return 'order';
  const [from, to] = leadingFirst(filters.wordRanges)[0] ?? [];
  const words = from === undefined ? Infinity : Number((await wordEntries.first(db, [accountId, from, to!]))!.n);
  const labels = filters.labelKeys.length === 0 ? Infinity : Number((await labelEntries.first(db, [accountId, filters.labelKeys[0]!]))!.n);
  if (Math.min(words, labels) > FEW_ENOUGH_TO_SORT) return 'order';
  return words <= labels ? 'words' : 'labels';
}

/**
 * Below this many matches, sorting them beats walking the account's tasks in order (bench/search.bench.ts:
 * walking takes about a fifth of the time per task that fetching and sorting a match does, and a page
 * of 50 in 10,000 tasks walks about 10,000 x 50 / matches of them).
 */
const FEW_ENOUGH_TO_SORT = 400;

const wordEntries = compiledQuery<[accountId: string, from: string, to: string], { n: number }>((db, $) =>
  db.raw(`select count(*) as n from (select 1 from task_words where account_id = ? and word >= ? and word < ? limit ${FEW_ENOUGH_TO_SORT + 1}) as m`, [$(0), $(1), $(2)]),
);
const labelEntries = compiledQuery<[accountId: string, label: string], { n: number }>((db, $) =>
  db.raw(`select count(*) as n from (select 1 from task_labels where account_id = ? and label = ? limit ${FEW_ENOUGH_TO_SORT + 1}) as m`, [$(0), $(1)]),
);

function shapeOf({ filters, sort, after }: PageRequest, drive: Shape['drive']): Shape {
  return {
    drive,
    sort,
    after: after !== undefined,
    status: filters.status !== 'all',
    words: filters.wordRanges.length,
    labels: filters.labelKeys.length,
    priorities: filters.priorities.length > 0,
    dueAfter: filters.dueAfter !== undefined,
    dueBefore: filters.dueBefore !== undefined,
    hasDue: filters.hasDue,
    updatedSince: filters.updatedSince !== undefined,
  };
}

/** The query's values, in the order buildPage takes its placeholders: the fixed ones, then each word's range, then each label. */
function pageValues(db: Knex, accountId: string, { filters, sort, after, limit }: PageRequest): unknown[] {
  const priorities = isPostgres(db) ? filters.priorities : JSON.stringify(filters.priorities);
  return [
    accountId,
    ...(after ?? SORT_COLUMNS[sort].map(() => null)),
    filters.status,
    priorities,
    filters.dueAfter ?? null,
    filters.dueBefore ?? null,
    filters.updatedSince ?? null,
    limit,
    ...leadingFirst(filters.wordRanges).flat(),
    ...filters.labelKeys,
  ];
}

/** The longest word first: the most selective, it drives the query from the words' index. */
const leadingFirst = (ranges: TaskFilters['wordRanges']) => [...ranges].sort((a, b) => b[0].length - a[0].length);

interface Shape {
  /** The sort's order of the tasks, or the first word's or label's list of matches (SQLite only: see `driver`). */
  drive: 'order' | 'words' | 'labels';
  sort: TaskSort;
  after: boolean;
  status: boolean;
  /** How many query words and labels: one condition each. */
  words: number;
  labels: number;
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
  // In the order of pageValues.
  const status = next();
  const priorities = next();
  const dueAfter = next();
  const dueBefore = next();
  const updatedSince = next();
  const limit = next();
  const words = Array.from({ length: shape.words }, () => [next(), next()] as const);
  const labels = Array.from({ length: shape.labels }, () => next());

  const query = db.select(COLUMNS.map((column) => `t.${column}`));
  // CROSS JOIN: SQLite loops over the left table first (PostgreSQL, which takes no ON with it, plans a few ids alike).
  const join = pg ? 'join' : 'cross join';
  if (shape.drive === 'words') {
    query.from(db.raw(`(select distinct task_id from task_words where account_id = ? and word >= ? and word < ?) as m ${join} tasks as t on t.id = m.task_id`, [accountId, ...words[0]!]));
  } else if (shape.drive === 'labels') {
    query.from(db.raw(`(select task_id from task_labels where account_id = ? and label = ?) as m ${join} tasks as t on t.id = m.task_id`, [accountId, labels[0]!]));
  } else {
    query.from('tasks as t');
  }
  query.where('t.account_id', accountId);
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
  // Each query word starts some word of the task, each label is one of its labels. A page driven by
  // a list has its first condition in that list; walking in order, SQLite tests the first word or label
  // against a list it makes once, and the others (and every one, on PostgreSQL) task by task.
  // PostgreSQL would turn such a test into a join planned from its guess of how many tasks match;
  // `offset 0` keeps it a test of the task at hand, so the walk stops at the page's end.
  const perTask = pg ? ' offset 0' : '';
  const conditions = [
    ...words.map(([from, to]) => ({ table: 'task_words', sql: 'word >= ? and word < ?', values: [from, to] })),
    ...labels.map((label) => ({ table: 'task_labels', sql: 'label = ?', values: [label] })),
  ];
  const driving = shape.drive === 'words' ? 0 : shape.drive === 'labels' ? words.length : -1;
  conditions.forEach(({ table, sql, values }, i) => {
    if (i === driving) return;
    const firstOfItsKind = i === 0 || i === words.length;
    if (!pg && shape.drive === 'order' && firstOfItsKind) query.andWhereRaw(`t.id in (select task_id from ${table} where account_id = ? and ${sql})`, [accountId, ...values]);
    else query.andWhereRaw(`exists (select 1 from ${table} x where x.task_id = t.id and x.${sql.replaceAll(' and ', ' and x.')}${perTask})`, values);
  });
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
