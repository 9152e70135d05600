// What `listTasks` filters and orders mean, for clients that hold tasks of their own (a mirror kept by
// the change feed, a view the web app shows). The server applies the same functions when it indexes a
// task (src/tasks/task-index.repository.ts), and contract-tests/tasks/finding-equivalence.test.ts proves
// that its pages equal `taskMatches` and `compareTasks` applied to every stored task.
// Self-contained on purpose: the server compiles this file too.

/** The fields of a task a query reads. */
export interface QueriedTask {
  id: string;
  title: string;
  notes: string | null;
  status: 'open' | 'completed';
  priority: number;
  dueAt: string | null;
  labels: readonly string[];
  createdAt: string;
  updatedAt: string;
}

export type TaskSort = 'created' | '-created' | 'updated' | '-updated' | 'due' | 'priority';

/** `listTasks`' filters, as its query parameters name them (every one optional, combined with AND). */
export interface TaskQuery {
  status?: 'open' | 'completed' | 'all';
  q?: string;
  label?: readonly string[];
  priority?: readonly number[];
  dueAfter?: string;
  dueBefore?: string;
  hasDue?: boolean;
  /** Deprecated on the server; kept so that a view made with it matches the same tasks. */
  updatedSince?: string;
}

const NOT_WORD = /[^\p{L}\p{N}]+/u;
const COMBINING_MARK = /\p{M}/gu;

/**
 * The words of a text as `q` compares them: split at every character that is neither a letter nor a
 * digit, then each word NFKD-normalised, stripped of combining marks and lower-cased. Distinct, in order.
 */
export function searchWords(text: string | null | undefined): string[] {
  if (!text) return [];
  const words = new Set<string>();
  for (const part of text.split(NOT_WORD)) {
    if (part === '') continue;
    const word = part.normalize('NFKD').replace(COMBINING_MARK, '').toLowerCase();
    if (word !== '') words.add(word);
  }
  return [...words];
}

/** A label as `label` compares it: lower-cased (Unicode). */
export function labelKey(label: string): string {
  return label.toLowerCase();
}

/** True when `task` is one `listTasks` answers for `query`. */
export function taskMatches(query: TaskQuery, task: QueriedTask): boolean {
  if (query.status !== undefined && query.status !== 'all' && task.status !== query.status) return false;
  if (query.priority !== undefined && query.priority.length > 0 && !query.priority.includes(task.priority)) return false;
  if (query.label !== undefined && query.label.length > 0) {
    const carried = new Set(task.labels.map(labelKey));
    if (!query.label.every((label) => carried.has(labelKey(label)))) return false;
  }
  const due = task.dueAt === null ? null : Date.parse(task.dueAt);
  if (query.hasDue !== undefined && (due !== null) !== query.hasDue) return false;
  if (query.dueAfter !== undefined && (due === null || due < Date.parse(query.dueAfter))) return false;
  if (query.dueBefore !== undefined && (due === null || due >= Date.parse(query.dueBefore))) return false;
  if (query.updatedSince !== undefined && Date.parse(task.updatedAt) < Date.parse(query.updatedSince)) return false;
  const wanted = searchWords(query.q);
  if (wanted.length > 0) {
    const words = [...searchWords(task.title), ...searchWords(task.notes)];
    if (!wanted.every((start) => words.some((word) => word.startsWith(start)))) return false;
  }
  return true;
}

/** Sorts tasks without a due time after all others. */
export const NO_DUE_TIME = 253402300800000; // 10000-01-01T00:00:00Z: later than any date-time's milliseconds

/** The sort key of a task under `sort`, compared element by element (the id, a string, last). */
export function sortKey(sort: TaskSort, task: QueriedTask): (number | string)[] {
  const created = Date.parse(task.createdAt);
  const due = task.dueAt === null ? NO_DUE_TIME : Date.parse(task.dueAt);
  switch (sort) {
    case 'created':
    case '-created':
      return [created, task.id];
    case 'updated':
    case '-updated':
      return [Date.parse(task.updatedAt), task.id];
    case 'due':
      return [due, created, task.id];
    case 'priority':
      return [task.priority, due, created, task.id];
  }
}

/** A comparator giving `listTasks`' order for `sort` (a total order: no two tasks compare equal). */
export function compareTasks(sort: TaskSort = 'created'): (a: QueriedTask, b: QueriedTask) => number {
  const direction = sort.startsWith('-') ? -1 : 1;
  return (a, b) => direction * compareKeys(sortKey(sort, a), sortKey(sort, b));
}

function compareKeys(a: readonly (number | string)[], b: readonly (number | string)[]): number {
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return 0;
}
