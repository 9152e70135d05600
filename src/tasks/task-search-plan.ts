import { LRUCache } from 'lru-cache';
import { compiledQuery, type CompiledQuery } from '../platform/compiled-query.js';
import type { Db } from '../platform/db.js';
import { searchLabelNeedle, searchWordsNeedle } from './task-index.repository.js';
import type { TaskFilters } from './task-search.repository.js';

// How a page of `listTasks` with words or labels is read (docs/finding-tasks.md). Two ways: walk the
// account's tasks in the sort's order and test each against the words and labels, stopping at the page's
// end (quick when many tasks match), or read the list of the tasks of the condition that has the fewest,
// test those, then sort what is left (quick when few do). SQLite keeps no statistics to choose by, and
// PostgreSQL's guess of how many tasks a word leaves was off by ten times and more (bench/search.bench.ts):
// one statement counts each condition's tasks, up to a bound, and the costs below decide.

/** A query word's range of indexed words, or a label key: the tasks of the account that have it. */
export type Condition = { kind: 'word'; from: string; to: string } | { kind: 'label'; label: string };

export interface Plan {
  drive: 'order' | 'list';
  /** The conditions in the order they are tested, the one with the fewest tasks first (the list read, if any). */
  conditions: Condition[];
}

export function conditionsOf(filters: TaskFilters): Condition[] {
  return [
    ...filters.wordRanges.map(([from, to]): Condition => ({ kind: 'word', from, to })),
    ...filters.labelKeys.map((label): Condition => ({ kind: 'label', label })),
  ];
}

/** The values a condition's list in the index is read with. */
export const indexValues = (condition: Condition): string[] => (condition.kind === 'word' ? [condition.from, condition.to] : [condition.label]);

/** What the task row's search text contains when the task meets the condition (src/tasks/task-index.repository.ts). */
export const rowNeedle = (condition: Condition): string => (condition.kind === 'word' ? searchWordsNeedle(condition.from) : searchLabelNeedle(condition.label));

/**
 * Costs in units of one look-up in an index by task id (measured on SQLite with bench/search.bench.ts's
 * corpus; PostgreSQL's ratios are alike): a task the walk reads and tests by its row's search texts; an
 * entry of a list; a task of a list read by its id and sorted; an entry of another label's list joined
 * with the list read (SQLite intersects them, PostgreSQL merges them: src/tasks/task-search.repository.ts).
 */
const COST = { walked: 0.75, lookUp: 1, entry: 0.13, readAndSorted: 2.2, joined: 0.25 };

/** The share of tasks guessed to pass each filter the conditions do not count (status, priority, due): a guess, but a walk reads more tasks for each. */
const SHARE_PER_FILTER = 0.5;

/**
 * Each condition's tasks are counted up to a bound; a count that reaches it stands for the middle
 * (geometric) of it and the account's tasks. One condition is read from its list only below a few
 * hundred tasks; of several, the one with the fewest is worth it up to a thousand or two (a label's, joined
 * with another label's list, a few thousand). Counting an entry costs about an eighth of a look-up on
 * SQLite, a quarter on PostgreSQL.
 */
const countedUpTo = (condition: Condition, conditions: number) => (condition.kind === 'label' && conditions > 1 ? LABEL_COUNTED_UP_TO : conditions === 1 ? 500 : 1000);

/** A label's list joined with another costs little per entry, so it is worth reading up to a few thousand: counted that far. */
const LABEL_COUNTED_UP_TO = 2500;

/** How to read a page with these conditions and `filters` other filters (status, priorities, due times). */
export async function planPage(db: Db, accountId: string, conditions: Condition[], filters: number, limit: number): Promise<Plan> {
  if (conditions.length === 0) return { drive: 'order', conditions };
  const row = (await countsQuery(conditions).first(db, [accountId, ...conditions.flatMap((c) => [accountId, ...indexValues(c)])]))!;
  const tasks = Math.max(1, Number(row.tasks));
  const estimates = conditions.map((condition, i) => {
    const counted = Number(row[`n${i}`]);
    const bound = countedUpTo(condition, conditions.length);
    return { condition, tasks: counted < bound ? counted : Math.sqrt(bound * Math.max(tasks, bound)) };
  });
  // Of conditions counted alike, a label first (its list holds each task once), then the longest word.
  estimates.sort((a, b) => a.tasks - b.tasks || weight(b.condition) - weight(a.condition));
  const shareOf = (e: (typeof estimates)[number]) => Math.min(1, e.tasks / tasks);
  const share = estimates.reduce((product, e) => product * shareOf(e), 1);
  const found = Math.min(limit, tasks * share);
  const walk = Math.min(tasks, limit / Math.max(share * SHARE_PER_FILTER ** filters, 1 / tasks)) * COST.walked + found * conditions.length * COST.lookUp;
  // A list read: the first condition's entries, each other label's list joined with them, a look-up per
  // task left for each other word, then the tasks left read and sorted.
  const [first, ...others] = estimates;
  const labels = others.filter((e) => e.condition.kind === 'label');
  const words = others.filter((e) => e.condition.kind === 'word');
  const joined = first!.tasks * labels.reduce((product, e) => product * shareOf(e), 1);
  const list =
    first!.tasks * COST.entry +
    labels.reduce((sum, e) => sum + e.tasks * COST.joined, 0) +
    joined * lookUpsPerTask(words.map(shareOf)) * COST.lookUp +
    joined * words.reduce((product, e) => product * shareOf(e), 1) * COST.readAndSorted;
  return { drive: list < walk ? 'list' : 'order', conditions: estimates.map((e) => e.condition) };
}

const weight = (condition: Condition) => (condition.kind === 'label' ? Infinity : condition.from.length);

/** How many look-ups a task takes: the first always, each next one if it passed those before. */
function lookUpsPerTask(shares: number[]): number {
  let lookUps = 0;
  let passed = 1;
  for (const share of shares) {
    lookUps += passed;
    passed *= share;
  }
  return lookUps;
}

/** One counting statement per sequence of condition kinds in use. */
const counts = new LRUCache<string, CompiledQuery<string[], Record<string, number | string>>>({ max: 64 });

function countsQuery(conditions: Condition[]): CompiledQuery<string[], Record<string, number | string>> {
  const key = conditions.map((c) => c.kind).join();
  let query = counts.get(key);
  if (!query) {
    query = compiledQuery((db, $) => {
      let at = 1;
      const columns = conditions.map((condition, i) => {
        const where = condition.kind === 'word' ? 'task_words where account_id = ? and word >= ? and word < ?' : 'task_labels where account_id = ? and label = ?';
        return `(select count(*) from (select 1 from ${where} limit ${countedUpTo(condition, conditions.length)}) as c) as n${i}`;
      });
      const values = [$(0), ...conditions.flatMap((condition) => Array.from({ length: 1 + indexValues(condition).length }, () => $(at++)))];
      return db.raw(`select (select task_count from accounts where id = ?) as tasks, ${columns.join(', ')}`, values);
    });
    counts.set(key, query);
  }
  return query;
}
