import type { Knex } from 'knex';
import { LRUCache } from 'lru-cache';
import { sortKey, type TaskSort } from '../../sdk/src/task-query.js';
import { compiledQuery, type CompiledQuery } from '../platform/compiled-query.js';
import { isPostgres, type Db } from '../platform/db.js';
import { readNow } from '../platform/transaction.js';
import { NO_DUE_TIME_SQL } from '../platform/migrations/014-finding-tasks.js';
import { TERMS_TABLE } from '../platform/migrations/016-task-search-terms.js';
import { conditionsOf, planAs, planPage, planPageNow, rowNeedle, TERMS_MATCH_PG, termsQuery, type Condition, type Drive, type Plan } from './task-search-plan.js';
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
  /** How the query's first page was read, for a page after its cursor (src/tasks/task-search-plan.ts, planAs). */
  drive?: Drive;
}

export interface TaskPage {
  rows: TaskRow[];
  /** How this page was read: the next page's cursor carries it. */
  drive: Drive;
}

/** A page of the account's tasks matching `filters`, in `sort`'s order after `after`, at most `limit` rows. */
export async function findTaskPage(db: Db, accountId: string, page: PageRequest): Promise<TaskPage> {
  const conditions = conditionsOf(page.filters);
  // SQLite counts and reads the page in one read: the tasks the count listed are those the page reads.
  if (!isPostgres(db) && counted(page, conditions)) {
    return readNow(db, (trx) => {
      const plan = planPageNow(trx, accountId, conditions, otherFilters(page.filters), page.limit);
      return { rows: shapeQuery(shapeOf(page, plan)).now.all(trx, pageValues(db, accountId, page, plan)), drive: plan.drive };
    });
  }
  const plan = await planOf(db, accountId, page);
  const shape = shapeOf(page, plan);
  const values = pageValues(db, accountId, page, plan);
  // PostgreSQL plans a prepared statement once for any values after a few runs, but how many tasks a
  // word or a label leaves decides the plan: those pages are planned for their own values every time.
  if (isPostgres(db) && plan.conditions.length > 0) return { rows: (await buildPage(db, (index) => values[index] as never, shape)) as TaskRow[], drive: plan.drive };
  return { rows: await shapeQuery(shape).all(db, values), drive: plan.drive };
}

/** The same page's query with its values in place, for EXPLAIN (contract-tests/tasks/finding-plans.test.ts). */
export async function pageStatement(db: Knex, accountId: string, page: PageRequest): Promise<Knex.SqlNative> {
  const statementOf = (plan: Plan) => {
    const values = pageValues(db, accountId, page, plan);
    return buildPage(db, (index) => values[index] as never, shapeOf(page, plan))
      .toSQL()
      .toNative();
  };
  const conditions = conditionsOf(page.filters);
  // On SQLite as findTaskPage plans it: in the count's read.
  if (!isPostgres(db) && counted(page, conditions)) return readNow(db, (trx) => statementOf(planPageNow(trx, accountId, conditions, otherFilters(page.filters), page.limit)));
  return statementOf(await planOf(db, accountId, page));
}

/** Whether the page's plan is chosen by counting: a page with words or labels, first or after a cursor that names no drive. */
const counted = (page: PageRequest, conditions: Condition[]) => conditions.length > 0 && page.drive === undefined;

/** The plan the page's drive names, or one chosen by counting. */
function planOf(db: Db, accountId: string, page: PageRequest): Promise<Plan> | Plan {
  const conditions = conditionsOf(page.filters);
  if (!counted(page, conditions)) return page.drive === undefined ? { drive: 'order', conditions } : planAs(page.drive, conditions);
  return planPage(db, accountId, conditions, otherFilters(page.filters), page.limit);
}

/** How many filters a page has besides its words and labels. */
function otherFilters(filters: TaskFilters): number {
  const due = filters.dueAfter !== undefined || filters.dueBefore !== undefined || filters.hasDue !== undefined;
  return [filters.status !== 'all', filters.priorities.length > 0, due, filters.updatedSince !== undefined].filter(Boolean).length;
}

function shapeOf({ filters, sort, after }: PageRequest, plan: Plan): Shape {
  return {
    drive: plan.drive,
    byDocs: plan.docs !== undefined,
    conditions: plan.drive === 'terms' ? [] : plan.conditions.map((condition) => condition.kind),
    sort,
    after: after !== undefined,
    status: filters.status !== 'all',
    priorities: filters.priorities.length > 0,
    dueAfter: filters.dueAfter !== undefined,
    dueBefore: filters.dueBefore !== undefined,
    hasDue: filters.hasDue,
    updatedSince: filters.updatedSince !== undefined,
  };
}

/**
 * The query's values, in the order buildPage takes its placeholders: the fixed ones, then a walk's needle
 * in the row's text for each condition in the plan's order, or the full-text query of them all.
 */
function pageValues(db: Knex, accountId: string, { filters, sort, after, limit }: PageRequest, plan: Plan): unknown[] {
  const pg = isPostgres(db);
  const priorities = pg ? filters.priorities : JSON.stringify(filters.priorities);
  return [
    accountId,
    ...(after ?? SORT_COLUMNS[sort].map(() => null)),
    filters.status,
    priorities,
    filters.dueAfter ?? null,
    filters.dueBefore ?? null,
    filters.updatedSince ?? null,
    limit,
    ...(plan.drive === 'terms' ? [plan.docs ?? termsQuery(pg, accountId, plan.conditions)] : plan.conditions.map(rowNeedle)),
  ];
}

interface Shape {
  /** The sort's order of the tasks, or the full-text index's answer (src/tasks/task-search-plan.ts). */
  drive: Plan['drive'];
  /** SQLite: the full-text index's answer as its count listed it (Plan.docs), not asked again. */
  byDocs: boolean;
  /** The kind of each word or label condition a walk tests, in the order it tests them. */
  conditions: Condition['kind'][];
  sort: TaskSort;
  after: boolean;
  status: boolean;
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
  const conditions = shape.conditions.map((kind) => ({ text: kind === 'word' ? 't.search_words' : 't.search_labels', needle: next() }));

  const query = db.select(COLUMNS.map((column) => `t.${column}`));
  // The full-text index answers the tasks with every term (src/platform/migrations/016-task-search-terms.ts):
  // PostgreSQL from its GIN index of the row's terms; SQLite from the FTS5 table, each task by its `doc`
  // (CROSS JOIN: SQLite loops over the left table first), or from the `doc`s its count listed in this read.
  if (shape.drive === 'terms' && shape.byDocs) query.from(db.raw('json_each(?) as k cross join tasks as t on t.doc = k.value', [next()]));
  else if (shape.drive === 'terms' && pg) query.from('tasks as t').whereRaw(TERMS_MATCH_PG.replace('search_terms', 't.search_terms'), [next()]);
  else if (shape.drive === 'terms') query.from(db.raw(`${TERMS_TABLE} as f cross join tasks as t on t.doc = f.rowid`)).whereRaw(`f.${TERMS_TABLE} match ?`, [next()]);
  else query.from('tasks as t');
  query.andWhere('t.account_id', accountId);
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
  // A walk: each query word starts some word of the task, each label is one of its labels, the
  // fewest-matching first, tested on the row it reads by its search texts (src/tasks/task-index.repository.ts).
  // On PostgreSQL `<> 0`, not `> 0`: for a test it keeps no statistics of, PostgreSQL guesses that one
  // task in three passes `>` and 199 in 200 pass `<>`. A walk is chosen where many tasks pass; with the
  // lower guess PostgreSQL read every task after a cursor through a bitmap and sorted them, 1.2 ms where
  // the walk in the index's order took 0.36 (bench/search.bench.ts, 'q, label, priority, by priority').
  for (const { text, needle } of conditions) query.andWhereRaw(pg ? `strpos(${text}, ?) <> 0` : `instr(${text}, ?) > 0`, [needle]);
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
