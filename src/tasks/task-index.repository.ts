import type { Knex } from 'knex';
import { labelKey, searchWords } from '../../sdk/src/task-query.js';
import { compiledQuery, type Queryable } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import type { Transaction } from '../platform/transaction.js';

// What finding a task reads from indexes (docs/finding-tasks.md): each task's words (title and notes)
// and labels, one row each, written with the task in its transaction, deleted with it (ON DELETE
// CASCADE). The words are made by the SDK's own functions (sdk/src/task-query.ts), so the server and
// every client mean the same by a word.
//
// The task's row carries the same words and label keys as one text each (`search_words`,
// `search_labels`): a walk through the account's tasks tests the row it reads anyway, where a look-up
// in the index per task cost several times more (bench/search.bench.ts). Such a text contains a query
// word's `searchWordsNeedle` exactly when one of the task's words starts with it (each word written
// without spaces after a space), and a label key's `searchLabelNeedle` exactly when the task carries it
// (each key written without line breaks between line breaks), so the walk's test of the row is the whole
// test.
//
// The row also carries its search terms (`search_terms`): each word and label key as a token of the
// account's own, in a full-text index (SQLite FTS5, PostgreSQL GIN), which intersects the lists of
// several words and labels without reading each task (src/platform/migrations/016-task-search-terms.ts).

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

/**
 * A word as `search_words` holds it: NFKD makes a space of a few letters (U+FDFA, U+FE70 and others), so a
 * space within a word is written as a line break, which no word holds, and a space only ever starts a word.
 */
const wordInText = (word: string): string => word.replaceAll(' ', '\n');
/** A row's `search_words`: a space before each word. */
const searchWordsText = (words: readonly string[]): string | null => (words.length === 0 ? null : words.map((word) => ` ${wordInText(word)}`).join(''));
/**
 * A label key as `search_labels` holds it: a key may hold a line break, written `\n` (and a backslash
 * `\\`), so that a line break only ever stands between two keys.
 */
const keyInText = (key: string): string => key.replaceAll('\\', '\\\\').replaceAll('\n', '\\n');
/** A row's `search_labels`: each key between line breaks. */
const searchLabelsText = (keys: readonly string[]): string | null => (keys.length === 0 ? null : `\n${keys.map(keyInText).join('\n')}\n`);

/** What a row's `search_words` contains when one of its words starts with `word`. */
export const searchWordsNeedle = (word: string): string => ` ${wordInText(word)}`;
/** What a row's `search_labels` contains when it carries the label key `key`. */
export const searchLabelNeedle = (key: string): string => `\n${keyInText(key)}\n`;

/**
 * The longest start of a word or label key a term holds, in UTF-8 bytes: PostgreSQL keeps a lexeme under
 * 2 KB. A query word or label longer than that is not looked for by terms (src/tasks/task-search-plan.ts).
 */
export const TERM_BYTES = 256;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * What every term of the account starts with: its UUID's hex digits (another id: `x` and its bytes in
 * hex). Terms are hex digits and letters only, which both engines take as one token: the account's part,
 * `w` (a word) or `l` (a label key), then the word's or key's UTF-8 bytes in hex, so that the start of a
 * word is the start of its term.
 */
const accountTerm = (accountId: string): string => (UUID.test(accountId) ? accountId.replaceAll('-', '') : `x${Buffer.from(accountId, 'utf8').toString('hex')}`);
const termOf = (account: string, kind: 'w' | 'l', text: string): string => `${account}${kind}${Buffer.from(text, 'utf8').subarray(0, TERM_BYTES).toString('hex')}`;
/** The term of a task's word; a query word's term is the start of it. */
export const wordTerm = (accountId: string, word: string): string => termOf(accountTerm(accountId), 'w', word);
/** The term of a task's label key. */
export const labelTerm = (accountId: string, key: string): string => termOf(accountTerm(accountId), 'l', key);
/** Whether a query word or label key is whole in its term. */
export const fitsTerm = (text: string): boolean => Buffer.byteLength(text, 'utf8') <= TERM_BYTES;

/** A row's `search_terms`: its terms, a space between each. */
function searchTermsText(accountId: string, words: readonly string[], keys: readonly string[]): string | null {
  if (words.length + keys.length === 0) return null;
  const account = accountTerm(accountId);
  return [...words.map((word) => termOf(account, 'w', word)), ...keys.map((key) => termOf(account, 'l', key))].join(' ');
}

/** The row's search texts, in the order indexNewTaskNow gives them and the statements that write them take them. */
export const SEARCH_TEXT_COLUMNS = ['search_words', 'search_labels', 'search_terms'] as const;

/** The index rows of tasks as column arrays, the shape both engines' statements take. */
function indexRows(rows: readonly IndexedFields[]) {
  const words: [string, string, string][] = [];
  const labels: [string, string, string, string][] = [];
  const texts: [id: string, words: string | null, labels: string | null, terms: string | null][] = [];
  for (const row of rows) {
    const taskWords = wordsOf(row);
    const taskLabels = labelsOf(JSON.parse(row.labels) as string[]);
    for (const word of taskWords) words.push([row.id, row.account_id, word]);
    for (const [key, name] of taskLabels) labels.push([row.id, row.account_id, key, name]);
    const keys = taskLabels.map(([key]) => key);
    texts.push([row.id, searchWordsText(taskWords), searchLabelsText(keys), searchTermsText(row.account_id, taskWords, keys)]);
  }
  return { ids: rows.map((row) => row.id), words, labels, texts };
}

/** Writes the index rows and search texts of tasks just inserted or changed, replacing what they had: in the transaction of the write. */
export async function indexTasks(trx: Queryable, rows: readonly IndexedFields[]): Promise<void> {
  if (rows.length === 0) return;
  await writeIndexRows(trx, rows);
  const { texts } = indexRows(rows);
  await updateTexts.run(trx, textValues(trx, texts));
}

/** Calls `write` with the stored tasks, 500 at a time in id order: how the migrations index today's tasks. */
export async function inTaskBatches(db: Knex, write: (batch: IndexedFields[]) => Promise<void>): Promise<void> {
  let after = '';
  for (;;) {
    const batch: IndexedFields[] = await db('tasks').select('id', 'account_id', 'title', 'notes', 'labels').where('id', '>', after).orderBy('id').limit(500);
    if (batch.length === 0) return;
    await write(batch);
    after = batch.at(-1)!.id;
  }
}

/** The rows' search words and labels texts alone (src/platform/migrations/015-task-search-texts.ts). */
export async function writeSearchTexts(trx: Queryable, rows: readonly IndexedFields[]): Promise<void> {
  if (rows.length === 0) return;
  const { texts } = indexRows(rows);
  await updateWordAndLabelTexts.run(trx, textValues(trx, texts.map(([id, words, labels]) => [id, words, labels])));
}

/** The rows' search terms alone (src/platform/migrations/016-task-search-terms.ts). */
export async function writeSearchTerms(trx: Queryable, rows: readonly IndexedFields[]): Promise<void> {
  if (rows.length === 0) return;
  const { texts } = indexRows(rows);
  await updateTerms.run(trx, textValues(trx, texts.map(([id, , , terms]) => [id, terms])));
}

/** Rows of [id, ...texts] as the update statements below take them: a column array each (PostgreSQL) or one JSON array (SQLite). */
const textValues = (trx: Queryable, texts: readonly (string | null)[][]): unknown[] =>
  isPostgres(trx) ? texts[0]!.map((_, i) => texts.map((text) => text[i])) : [JSON.stringify(texts)];

/** The index rows alone, as migration 014 wrote them (src/platform/migrations/014-finding-tasks.ts). */
export async function writeIndexRows(trx: Queryable, rows: readonly IndexedFields[]): Promise<void> {
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
  const { ids, words, labels, texts } = indexRows(rows);
  forgetWords.now.run(trx, [JSON.stringify(ids)]);
  forgetLabels.now.run(trx, [JSON.stringify(ids)]);
  if (words.length > 0) insertWordsSqlite.now.run(trx, [JSON.stringify(words)]);
  if (labels.length > 0) insertLabelsSqlite.now.run(trx, [JSON.stringify(labels)]);
  updateTexts.now.run(trx, [JSON.stringify(texts)]);
}

/**
 * The same for a task about to be inserted, synchronously, in SQLite's synchronous transaction
 * (src/platform/transaction.ts, transactionNow): `insert` writes the row with the search texts it is
 * given, then the index rows are written.
 */
export function indexNewTaskNow<T>(trx: Transaction, row: IndexedFields, insert: (searchTexts: (string | null)[]) => T): T {
  const { words, labels, texts } = indexRows([row]);
  const inserted = insert(texts[0]!.slice(1));
  if (words.length > 0) insertWordsSqlite.now.run(trx, [JSON.stringify(words)]);
  if (labels.length > 0) insertLabelsSqlite.now.run(trx, [JSON.stringify(labels)]);
  return inserted;
}

/** The values PostgreSQL's one-statement create (src/tasks/task-create.repository.ts) indexes a task with: its row's search texts, then its index rows. */
export function newTaskIndexValues(
  row: IndexedFields,
): [searchWords: string | null, searchLabels: string | null, searchTerms: string | null, words: string[], labelKeys: string[], labelNames: string[]] {
  const words = wordsOf(row);
  const labels = labelsOf(JSON.parse(row.labels) as string[]);
  const keys = labels.map(([key]) => key);
  return [searchWordsText(words), searchLabelsText(keys), searchTermsText(row.account_id, words, keys), words, keys, labels.map(([, name]) => name)];
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
/** Sets `columns` of the tasks given as [id, ...columns] rows (textValues). */
const updateColumns = (columns: readonly string[]) =>
  compiledQuery<unknown[], never>((db, $) => {
    if (isPostgres(db)) {
      const arrays = ['id', ...columns].map((_, i) => $(i));
      return db.raw(
        `update tasks as t set ${columns.map((c) => `${c} = v.${c}`).join(', ')} from unnest(${arrays.map(() => '?::text[]').join(', ')}) as v(id, ${columns.join(', ')}) where t.id = v.id`,
        arrays,
      );
    }
    return db.raw(`update tasks set ${columns.map((c, i) => `${c} = v.value ->> ${i + 1}`).join(', ')} from json_each(?) as v where tasks.id = v.value ->> 0`, [$(0)]);
  });
const updateTexts = updateColumns(SEARCH_TEXT_COLUMNS);
const updateWordAndLabelTexts = updateColumns(['search_words', 'search_labels']);
const updateTerms = updateColumns(['search_terms']);
