import { labelKey, searchWords } from '../../sdk/src/task-query.js';
import { compiledQuery, type Queryable } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import type { Transaction } from '../platform/transaction.js';

// What finding a task reads from indexes (docs/finding-tasks.md): each task's words (title and notes)
// and labels, one row each, written with the task in its transaction, deleted with it (ON DELETE
// CASCADE). The words are made by the SDK's own functions (sdk/src/task-query.ts), so the server and
// every client mean the same by a word.

/** The fields of a task row its index is made from. */
export interface IndexedFields {
  id: string;
  account_id: string;
  title: string;
  notes: string | null;
  labels: string;
}

/**
 * The longest word kept, in UTF-16 units: an index entry has a size limit (PostgreSQL's B-tree, about
 * 2,700 bytes). `q` has at most 200 characters, so only a query word that NFKD more than doubles in
 * length could need more of a word than is kept.
 */
export const MAX_INDEXED_WORD = 512;

export function wordsOf(task: Pick<IndexedFields, 'title' | 'notes'>): string[] {
  return [...new Set([...searchWords(task.title), ...searchWords(task.notes)].map((word) => word.slice(0, MAX_INDEXED_WORD)))];
}

/** A task's labels as [key, name]: one per key, spelled as the task first carries it. */
export function labelsOf(labels: readonly string[]): [key: string, name: string][] {
  const byKey = new Map<string, string>();
  for (const name of labels) if (!byKey.has(labelKey(name))) byKey.set(labelKey(name), name);
  return [...byKey];
}

/** The index rows of tasks as column arrays, the shape both engines' statements take. */
function indexRows(rows: readonly IndexedFields[]) {
  const words: [string, string, string][] = [];
  const labels: [string, string, string, string][] = [];
  for (const row of rows) {
    for (const word of wordsOf(row)) words.push([row.id, row.account_id, word]);
    for (const [key, name] of labelsOf(JSON.parse(row.labels) as string[])) labels.push([row.id, row.account_id, key, name]);
  }
  return { ids: rows.map((row) => row.id), words, labels };
}

/** Writes the index rows of tasks just inserted or changed, replacing what they had: in the transaction of the write. */
export async function indexTasks(trx: Queryable, rows: readonly IndexedFields[]): Promise<void> {
  if (rows.length === 0) return;
  const { ids, words, labels } = indexRows(rows);
  const pg = isPostgres(trx);
  const list = (values: readonly unknown[]) => (pg ? values : JSON.stringify(values));
  const columns = <T extends unknown[]>(tuples: readonly T[], width: number) =>
    pg ? Array.from({ length: width }, (_, i) => tuples.map((tuple) => tuple[i])) : [JSON.stringify(tuples)];
  await forgetWords.run(trx, [list(ids)]);
  await forgetLabels.run(trx, [list(ids)]);
  if (words.length > 0) await (pg ? insertWordsPg : insertWordsSqlite).run(trx, columns(words, 3));
  if (labels.length > 0) await (pg ? insertLabelsPg : insertLabelsSqlite).run(trx, columns(labels, 4));
}

/** The same, synchronously, in SQLite's synchronous transaction (src/platform/transaction.ts, transactionNow). */
export function indexTasksNow(trx: Transaction, rows: readonly IndexedFields[]): void {
  if (rows.length === 0) return;
  const { ids, words, labels } = indexRows(rows);
  forgetWords.now.run(trx, [JSON.stringify(ids)]);
  forgetLabels.now.run(trx, [JSON.stringify(ids)]);
  if (words.length > 0) insertWordsSqlite.now.run(trx, [JSON.stringify(words)]);
  if (labels.length > 0) insertLabelsSqlite.now.run(trx, [JSON.stringify(labels)]);
}

/** The same for a task just inserted, synchronously, in SQLite's synchronous transaction (src/platform/transaction.ts, transactionNow). */
export function indexNewTaskNow(trx: Transaction, row: IndexedFields): void {
  const { words, labels } = indexRows([row]);
  if (words.length > 0) insertWordsSqlite.now.run(trx, [JSON.stringify(words)]);
  if (labels.length > 0) insertLabelsSqlite.now.run(trx, [JSON.stringify(labels)]);
}

/** The values of the steps that index a task in PostgreSQL's one-statement create (src/tasks/task-create.repository.ts). */
export function newTaskIndexValues(row: IndexedFields): [words: string[], labelKeys: string[], labelNames: string[]] {
  const labels = labelsOf(JSON.parse(row.labels) as string[]);
  return [wordsOf(row), labels.map(([key]) => key), labels.map(([, name]) => name)];
}

const forgetWords = compiledQuery<[ids: unknown], never>((db, $) =>
  isPostgres(db) ? db.raw('delete from task_words where task_id = any(?::text[])', [$(0)]) : db.raw('delete from task_words where task_id in (select value from json_each(?))', [$(0)]),
);
const forgetLabels = compiledQuery<[ids: unknown], never>((db, $) =>
  isPostgres(db) ? db.raw('delete from task_labels where task_id = any(?::text[])', [$(0)]) : db.raw('delete from task_labels where task_id in (select value from json_each(?))', [$(0)]),
);
const insertWordsPg = compiledQuery<unknown[], never>((db, $) =>
  db.raw('insert into task_words (task_id, account_id, word) select * from unnest(?::text[], ?::text[], ?::text[])', [$(0), $(1), $(2)]),
);
const insertLabelsPg = compiledQuery<unknown[], never>((db, $) =>
  db.raw('insert into task_labels (task_id, account_id, label, name) select * from unnest(?::text[], ?::text[], ?::text[], ?::text[])', [$(0), $(1), $(2), $(3)]),
);
const insertWordsSqlite = compiledQuery<unknown[], never>((db, $) =>
  db.raw("insert into task_words (task_id, account_id, word) select value ->> 0, value ->> 1, value ->> 2 from json_each(?)", [$(0)]),
);
const insertLabelsSqlite = compiledQuery<unknown[], never>((db, $) =>
  db.raw("insert into task_labels (task_id, account_id, label, name) select value ->> 0, value ->> 1, value ->> 2, value ->> 3 from json_each(?)", [$(0)]),
);
