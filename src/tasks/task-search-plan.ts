import { LRUCache } from 'lru-cache';
import { compiledQuery, type CompiledQuery } from '../platform/compiled-query.js';
import { isPostgres, type Db } from '../platform/db.js';
import type { Transaction } from '../platform/transaction.js';
import { TERMS_TABLE } from '../platform/migrations/016-task-search-terms.js';
import { fitsTerm, labelTerm, searchLabelNeedle, searchWordsNeedle, wordTerm } from './task-index.repository.js';
import type { TaskFilters } from './task-search.repository.js';

// How a page of `listTasks` with words or labels is read (docs/finding-tasks.md). Two ways: walk the
// account's tasks in the sort's order and test each against the words and labels, stopping at the page's
// end (quick when many tasks match), or ask the full-text index for the tasks that have every word and
// label, then read and sort those (quick when few do). SQLite keeps no statistics to choose by, and
// PostgreSQL's guess of how many tasks a word leaves was off by ten times and more (bench/search.bench.ts):
// for a query's first page one statement counts each condition's tasks, up to a bound, and the costs below
// decide; its later pages are read the same way, as their cursor names it (planAs).

/** A query word's range of indexed words, or a label key: the tasks of the account that have it. */
export type Condition = { kind: 'word'; from: string; to: string } | { kind: 'label'; label: string };

/** A page's way of reading: the account's tasks in the sort's order (a walk), or the full-text index's answer. */
export type Drive = 'order' | 'terms';

export interface Plan {
  drive: Drive;
  /** The conditions in the order a walk tests them, the one with the fewest tasks first. */
  conditions: Condition[];
  /** SQLite: the tasks the full-text index answers, as its count listed them (a JSON array of their `doc`), for a page read in the same transaction. */
  docs?: string;
}

export function conditionsOf(filters: TaskFilters): Condition[] {
  return [
    ...filters.wordRanges.map(([from, to]): Condition => ({ kind: 'word', from, to })),
    ...filters.labelKeys.map((label): Condition => ({ kind: 'label', label })),
  ];
}

/** Whether the full-text index holds the condition's term: a word or label key longer than a term is found by a walk. */
const hasTerm = (condition: Condition) => fitsTerm(condition.kind === 'word' ? condition.from : condition.label);

/** The ways a page with these filters' words and labels can be read; none without words or labels (it is a walk of the sort's order). */
export const drivesFor = (filters: TaskFilters): Drive[] => drivesOf(conditionsOf(filters));

function drivesOf(conditions: Condition[]): Drive[] {
  if (conditions.length === 0) return [];
  return conditions.every(hasTerm) ? ['order', 'terms'] : ['order'];
}

/**
 * A query's later pages are read the way its first page was (the drive its cursor carries), with no new
 * count: the tasks after a cursor are fewer but alike, and either way gives the same page. A walk tests
 * a label first, then the longest word (the one the fewest tasks are likely to have). A client that edits
 * its cursor can choose the slower way for its own account's pages; no worse than a query that matches
 * nothing, or a word longer than a term (a walk of every task the account holds, up to its cap).
 */
export function planAs(drive: Drive, conditions: Condition[]): Plan {
  return { drive: drivesOf(conditions).includes(drive) ? drive : 'order', conditions: [...conditions].sort((a, b) => weight(b) - weight(a)) };
}

/** The values a condition's list in the index is read with. */
const indexValues = (condition: Condition): string[] => (condition.kind === 'word' ? [condition.from, condition.to] : [condition.label]);

/** What the task row's search text contains when the task meets the condition (src/tasks/task-index.repository.ts). */
export const rowNeedle = (condition: Condition): string => (condition.kind === 'word' ? searchWordsNeedle(condition.from) : searchLabelNeedle(condition.label));

/** The condition's term in the full-text index: a word's is the start of its words' terms (src/tasks/task-index.repository.ts). */
export const termOf = (accountId: string, condition: Condition): string =>
  condition.kind === 'word' ? wordTerm(accountId, condition.from) : labelTerm(accountId, condition.label);

/**
 * Costs in units of one look-up in an index by task id (measured on SQLite with bench/search.bench.ts's
 * corpus; PostgreSQL's ratios are alike): a task the walk reads and tests by its row's search texts; a
 * task the full-text index lists for a condition it answers from one list (oneList), or for another (the
 * lists of every word it starts, merged); a task it answers, read by its id and sorted.
 */
const COST = { walked: 0.75, listed: 0.02, merged: 0.13, readAndSorted: 2.2 };

/** The longest start of a word, in bytes, that SQLite's full-text index keeps a list of (src/platform/migrations/016-task-search-terms.ts). */
const PREFIX_LISTED_BYTES = 4;

/** A row's terms answer the full-text query `?` on PostgreSQL, through the GIN index of src/platform/migrations/016-task-search-terms.ts. */
export const TERMS_MATCH_PG = `array_to_tsvector(string_to_array(search_terms, ' ')) @@ ?::tsquery`;

/** The share of tasks guessed to pass each filter the conditions do not count (status, priority, due): a guess, but a walk reads more tasks for each. */
const SHARE_PER_FILTER = 0.5;

/**
 * Each condition's tasks are counted up to a bound; a count that reaches it stands for the middle
 * (geometric) of it and the account's tasks. One condition is worth the index only below a few hundred
 * tasks; of several, the tasks they have in common decide, and a thousand each tells them apart. Counting
 * an entry costs about an eighth of a look-up on SQLite, a quarter on PostgreSQL.
 */
const countedUpTo = (conditions: number) => (conditions === 1 ? 500 : 1000);

/** Tasks with every condition's term, as the engine's full-text query: the start of a word's term, a label's whole. */
export function termsQuery(pg: boolean, accountId: string, conditions: Condition[]): string {
  const terms = conditions.map((condition) => `${termOf(accountId, condition)}${condition.kind === 'word' ? (pg ? ':*' : '*') : ''}`);
  return terms.join(pg ? ' & ' : ' AND ');
}

/**
 * Whether the full-text index answers a condition from one list: a label; on SQLite also a word of up to
 * 4 bytes (its prefix indexes). PostgreSQL's GIN index gathers every task of a word's start first.
 */
const oneList = (pg: boolean, condition: Condition) => condition.kind === 'label' || (!pg && Buffer.byteLength(condition.from) <= PREFIX_LISTED_BYTES);

/** How to read a page with these conditions (at least one) and `filters` other filters (status, priorities, due times). */
export async function planPage(db: Db, accountId: string, conditions: Condition[], filters: number, limit: number): Promise<Plan> {
  const counting = countingOf(isPostgres(db), accountId, conditions);
  return chosen(counting, (await counting.query.first(db, counting.values))!, filters, limit, false);
}

/** The same on SQLite, in the synchronous read that then reads the page (src/platform/transaction.ts, readNow). */
export function planPageNow(trx: Transaction, accountId: string, conditions: Condition[], filters: number, limit: number): Plan {
  const counting = countingOf(false, accountId, conditions);
  return chosen(counting, counting.query.now.first(trx, counting.values)!, filters, limit, true);
}

interface Counting {
  pg: boolean;
  conditions: Condition[];
  /** Whether the full-text index counts the tasks the conditions have in common, rather than each condition's. */
  together: boolean;
  query: CompiledQuery<string[], CountsRow>;
  values: string[];
}

/** The account's tasks, then each condition's (`n0`, `n1`, ...) or those of all of them (`together`, on SQLite with their `docs`), each up to its bound. */
type CountsRow = Record<string, number | string | null>;

function countingOf(pg: boolean, accountId: string, conditions: Condition[]): Counting {
  // Several conditions' tasks in common, which their counts alone guess badly (two labels of a thousand
  // tasks each may share a hundred or none), are counted by the full-text index where it answers each
  // from one list (elsewhere counting them there costs as much as reading the page).
  const together = conditions.length > 1 && conditions.every(hasTerm) && conditions.every((condition) => oneList(pg, condition));
  const values = together ? [accountId, termsQuery(pg, accountId, conditions)] : [accountId, ...conditions.flatMap((c) => [accountId, ...indexValues(c)])];
  return { pg, conditions, together, query: countsQuery(conditions, together), values };
}

/** `inThisRead`: the page is read in the count's read (planPageNow), so the tasks the count listed may stand for the index's answer. */
function chosen({ pg, conditions, together }: Counting, row: CountsRow, filters: number, limit: number, inThisRead: boolean): Plan {
  const byTerms = conditions.every(hasTerm);
  const tasks = Math.max(1, Number(row.tasks));
  const bound = countedUpTo(conditions.length);
  const estimate = (counted: number) => (counted < bound ? counted : Math.sqrt(bound * Math.max(tasks, bound)));
  // Of conditions counted alike, a label first (its list holds each task once), then the longest word.
  const estimates = conditions.map((condition, i) => ({ condition, tasks: together ? 0 : estimate(Number(row[`n${i}`])) }));
  estimates.sort((a, b) => a.tasks - b.tasks || weight(b.condition) - weight(a.condition));
  const order = estimates.map((e) => e.condition);
  if (!byTerms) return { drive: 'order', conditions: order };
  const matched = together ? estimate(Number(row.together)) : estimates.reduce((product, e) => product * Math.min(1, e.tasks / tasks), 1) * tasks;
  const share = matched / tasks;
  const walk = Math.min(tasks, limit / Math.max(share * SHARE_PER_FILTER ** filters, 1 / tasks)) * COST.walked;
  // Lists counted together were read once already, and cost little: the tasks answered decide.
  const listing = estimates.reduce((sum, e) => sum + e.tasks * (oneList(pg, e.condition) ? COST.listed : COST.merged), 0);
  const terms = listing + matched * COST.readAndSorted;
  if (terms >= walk) return { drive: 'order', conditions: order };
  // SQLite's count listed every task the full-text index answers: the page reads those, not the index again.
  const docs = inThisRead && together && Number(row.together) < bound ? String(row.docs) : undefined;
  return { drive: 'terms', conditions: order, docs };
}

const weight = (condition: Condition) => (condition.kind === 'label' ? Infinity : condition.from.length);

/** One counting statement per sequence of condition kinds in use, or of their tasks in common. */
const counts = new LRUCache<string, CompiledQuery<string[], CountsRow>>({ max: 64 });

function countsQuery(conditions: Condition[], together: boolean): CompiledQuery<string[], CountsRow> {
  const key = together ? 'together' : conditions.map((c) => c.kind).join();
  let query = counts.get(key);
  if (!query) {
    query = compiledQuery((db, $) => {
      const tasks = '(select task_count from accounts where id = ?) as tasks';
      if (together && isPostgres(db)) {
        return db.raw(`select ${tasks}, (select count(*) from (select 1 from tasks where ${TERMS_MATCH_PG} limit ${countedUpTo(conditions.length)}) as c) as together`, [$(0), $(1)]);
      }
      if (together) {
        const answered = `select rowid from ${TERMS_TABLE} where ${TERMS_TABLE} match ? limit ${countedUpTo(conditions.length)}`;
        return db.raw(`select ${tasks}, count(*) as together, json_group_array(rowid) as docs from (${answered}) as c`, [$(0), $(1)]);
      }
      let at = 1;
      const columns = conditions.map((condition, i) => {
        const where = condition.kind === 'word' ? 'task_words where account_id = ? and word >= ? and word < ?' : 'task_labels where account_id = ? and label = ?';
        return `(select count(*) from (select 1 from ${where} limit ${countedUpTo(conditions.length)}) as c) as n${i}`;
      });
      const values = [$(0), ...conditions.flatMap((condition) => Array.from({ length: 1 + indexValues(condition).length }, () => $(at++)))];
      return db.raw(`select ${tasks}, ${columns.join(', ')}`, values);
    });
    counts.set(key, query);
  }
  return query;
}
