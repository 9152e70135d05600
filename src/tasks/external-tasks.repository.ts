import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isPostgres, type Db } from '../platform/db.js';
import type { TaskChangeRecorder } from './task-changes.js';
import { reserveTaskPlaces } from './task-quota.js';
import { COLUMNS, type TaskRow } from './tasks.repository.js';
import { knexTransaction } from '../platform/transaction.js';

/** One item as a connector read it from the provider; times are epoch milliseconds. */
export interface ExternalTask {
  externalId: string;
  title: string;
  notes: string | null;
  status: 'open' | 'completed';
  completedAt: number | null;
  dueAt: number | null;
  url: string | null;
}

export interface UpsertCounts {
  created: number;
  updated: number;
  unchanged: number;
  droppedOverQuota: number;
}

export interface ExternalTaskBatch {
  accountId: string;
  connectorAccountId: string;
  connectorType: 'github' | 'ical';
  maxTasks: number;
  items: ExternalTask[];
  /**
   * When the sync job importing the batch first started: a task of the connector account inserted since
   * was inserted by an earlier attempt of the same job (one job of a connector account runs at a time,
   * src/connectors/sync.service.ts), and counts as created, not as updated or unchanged.
   */
  insertedSince?: number;
}

/**
 * Upserts one batch by (connectorAccountId, externalId) in one transaction: known tasks always
 * update (or count unchanged when nothing differs), new ones insert while the account's task cap
 * allows, the rest count as droppedOverQuota.
 */
export async function upsertExternalTasks(db: Db, batch: ExternalTaskBatch, changes: TaskChangeRecorder): Promise<UpsertCounts> {
  const now = Date.now();
  // Normalised first: ids that differ only in a removed character are one item, not a unique-key violation.
  const items = lastOccurrenceOfEachExternalId(batch.items.map(normaliseItem));
  if (items.length === 0) return { created: 0, updated: 0, unchanged: 0, droppedOverQuota: 0 };

  return knexTransaction(db, async (trx) => {
    const known = await selectKnown(trx, batch.connectorAccountId, items);
    const fresh: NormalisedItem[] = [];
    const changed: ChangedRow[] = [];
    let insertedEarlier = 0;
    let updated = 0;
    let unchanged = 0;
    for (const item of items) {
      const row = known.get(item.externalId);
      if (!row) {
        fresh.push(item);
        continue;
      }
      const different = differs(row, item);
      if (different) changed.push({ id: row.id, item: keepCompletionTime(row, item, now) });
      if (batch.insertedSince !== undefined && Number(row.created_at) >= batch.insertedSince) insertedEarlier += 1;
      else if (different) updated += 1;
      else unchanged += 1;
    }

    const granted = fresh.length === 0 ? 0 : await reserveTaskPlaces(trx, batch.accountId, fresh.length, batch.maxTasks);
    // A sync's creates and updates are changes like any other: numbered, versioned, heard (docs/change-feed.md).
    if (granted + changed.length > 0) {
      const firstNumber = await changes.takeNumbers(trx, batch.accountId, granted + changed.length);
      await changes.upserted(trx, 'created', await insertNew(trx, batch, fresh.slice(0, granted), { now, firstNumber }));
      await changes.upserted(trx, 'updated', await updateChanged(trx, changed, { now, firstNumber: firstNumber + granted }));
    }
    return { created: granted + insertedEarlier, updated, unchanged, droppedOverQuota: fresh.length - granted };
  });
}

/**
 * On disconnect, in its transaction: the connector's tasks stay as local tasks (source becomes null),
 * each one a change of the feed. The account row is locked first, as every task write does, so a sync
 * batch cannot add tasks between the read of the ids and their update.
 */
export async function detachConnectorTasks(
  trx: Knex.Transaction,
  owner: { accountId: string; connectorAccountId: string },
  changes: TaskChangeRecorder,
): Promise<number> {
  const { accountId, connectorAccountId } = owner;
  if (isPostgres(trx)) await trx('accounts').select('id').where('id', accountId).forUpdate();
  const ids: { id: string }[] = await trx('tasks')
    .select('id')
    .where({ connector_account_id: connectorAccountId, account_id: accountId })
    .orderBy([{ column: 'created_at' }, { column: 'id' }]);
  if (ids.length === 0) return 0;
  const firstNumber = await changes.takeNumbers(trx, accountId, ids.length);
  const now = Date.now();
  const detached: TaskRow[] = [];
  for (const [index, chunk] of [...chunks(ids, ROWS_PER_STATEMENT)].entries()) {
    const tuple = `(cast(? as varchar(36)), cast(? as ${bigintType(trx)}))`;
    const bindings = chunk.flatMap(({ id }, offset) => [id, firstNumber + index * ROWS_PER_STATEMENT + offset]);
    detached.push(
      ...rowsOf(
        await trx.raw(
          `update tasks set connector_account_id = null, connector_type = null, external_id = null, external_url = null,
             updated_at = ?, version = version + 1, change_seq = v.column2
           from (values ${chunk.map(() => tuple).join(', ')}) as v
           where tasks.id = v.column1
           returning ${returningColumns}`,
          [now, ...bindings],
        ),
      ),
    );
  }
  await changes.upserted(trx, 'updated', detached, false);
  return detached.length;
}

// Both engines accept this many bound parameters per statement with room to spare
// (SQLite 32766, PostgreSQL 65535).
const ROWS_PER_STATEMENT = 500;
// The limits TaskCreate puts on what a client may store (labels: synced tasks have none).
const TITLE_MAX_CHARS = 500;
const NOTES_MAX_CHARS = 10_000;

type NormalisedItem = ExternalTask;
interface KnownRow {
  id: string;
  external_id: string;
  title: string;
  notes: string | null;
  status: string;
  completed_at: number | null;
  due_at: number | null;
  external_url: string | null;
  created_at: number | string;
}
interface ChangedRow {
  id: string;
  item: NormalisedItem;
}

function lastOccurrenceOfEachExternalId(items: ExternalTask[]): ExternalTask[] {
  return [...new Map(items.map((item) => [item.externalId, item])).values()];
}

function normaliseItem(item: ExternalTask): NormalisedItem {
  const chars = Array.from(withoutNul(item.title).trim());
  const title = chars.length === 0 ? '(untitled)' : chars.slice(0, TITLE_MAX_CHARS).join('');
  return {
    ...item,
    externalId: withoutNul(item.externalId),
    title,
    notes: item.notes === null ? null : firstChars(withoutNul(item.notes), NOTES_MAX_CHARS),
    url: item.url === null ? null : withoutNul(item.url),
    completedAt: item.status === 'completed' ? item.completedAt : null,
  };
}

/** PostgreSQL refuses U+0000 in text (22021), which would fail the whole batch; SQLite would keep it. */
const withoutNul = (text: string) => text.replaceAll('\u0000', '');

/** Counts code points, as the document's maxLength does (a string of at most `max` UTF-16 units has at most `max` of them). */
const firstChars = (text: string, max: number) => (text.length <= max ? text : Array.from(text).slice(0, max).join(''));

async function selectKnown(trx: Knex.Transaction, connectorAccountId: string, items: NormalisedItem[]): Promise<Map<string, KnownRow>> {
  const known = new Map<string, KnownRow>();
  for (const chunk of chunks(items, ROWS_PER_STATEMENT)) {
    const rows: KnownRow[] = await trx('tasks')
      .select('id', 'external_id', 'title', 'notes', 'status', 'completed_at', 'due_at', 'external_url', 'created_at')
      .where('connector_account_id', connectorAccountId)
      .whereIn(
        'external_id',
        chunk.map((item) => item.externalId),
      );
    for (const row of rows) known.set(row.external_id, row);
  }
  return known;
}

function differs(row: KnownRow, item: NormalisedItem): boolean {
  const completedAtDiffers = item.completedAt !== null && Number(row.completed_at) !== item.completedAt;
  return (
    row.title !== item.title ||
    row.notes !== item.notes ||
    row.status !== item.status ||
    (item.status === 'completed' && completedAtDiffers) ||
    nullableNumber(row.due_at) !== item.dueAt ||
    row.external_url !== item.url
  );
}

/** A completed item without a provider time keeps the time we first saw it completed. */
function keepCompletionTime(row: KnownRow, item: NormalisedItem, now: number): NormalisedItem {
  if (item.status !== 'completed' || item.completedAt !== null) return item;
  return { ...item, completedAt: row.status === 'completed' && row.completed_at !== null ? Number(row.completed_at) : now };
}

async function insertNew(trx: Knex.Transaction, batch: ExternalTaskBatch, items: NormalisedItem[], stamp: Stamp): Promise<TaskRow[]> {
  const { now, firstNumber } = stamp;
  const inserted: TaskRow[] = [];
  for (const [index, chunk] of [...chunks(items, ROWS_PER_STATEMENT)].entries()) {
    const rows: TaskRow[] = chunk.map((item, offset) => ({
        id: randomUUID(),
        account_id: batch.accountId,
        title: item.title,
        notes: item.notes,
        status: item.status,
        priority: DEFAULT_PRIORITY,
        due_at: item.dueAt,
        labels: '[]',
        completed_at: item.status === 'completed' ? (item.completedAt ?? now) : null,
        created_at: now,
        updated_at: now,
        connector_account_id: batch.connectorAccountId,
        connector_type: batch.connectorType,
        external_id: item.externalId,
        external_url: item.url,
        version: 1,
        change_seq: firstNumber + index * ROWS_PER_STATEMENT + offset,
      }));
    await trx('tasks').insert(rows);
    inserted.push(...rows);
  }
  return inserted;
}

interface Stamp {
  now: number;
  /** The change number of the first row; the others follow in order. */
  firstNumber: number;
}

const DEFAULT_PRIORITY = 3;

/** One UPDATE ... FROM (VALUES ...) per chunk: one round trip instead of one per changed task. */
async function updateChanged(trx: Knex.Transaction, rows: ChangedRow[], stamp: Stamp): Promise<TaskRow[]> {
  const { now, firstNumber } = stamp;
  const bigint = bigintType(trx);
  const updated: TaskRow[] = [];
  for (const [index, chunk] of [...chunks(rows, ROWS_PER_STATEMENT)].entries()) {
    const tuple = `(cast(? as varchar(36)), cast(? as text), cast(? as text), cast(? as varchar(16)), cast(? as ${bigint}), cast(? as ${bigint}), cast(? as text), cast(? as ${bigint}))`;
    const bindings = chunk.flatMap(({ id, item }, offset) => [
      id,
      item.title,
      item.notes,
      item.status,
      item.completedAt,
      item.dueAt,
      item.url,
      firstNumber + index * ROWS_PER_STATEMENT + offset,
    ]);
    const result: unknown = await trx.raw(
      `update tasks set title = v.column2, notes = v.column3, status = v.column4, completed_at = v.column5,
         due_at = v.column6, external_url = v.column7, updated_at = ?, version = version + 1, change_seq = v.column8
       from (values ${chunk.map(() => tuple).join(', ')}) as v
       where tasks.id = v.column1
       returning ${returningColumns}`,
      [now, ...bindings],
    );
    updated.push(...rowsOf(result));
  }
  return updated;
}

// Unqualified: SQLite's RETURNING names only the updated table's columns (the VALUES list has none of these names).
const returningColumns = COLUMNS.join(', ');
const bigintType = (db: Db) => (isPostgres(db) ? 'bigint' : 'integer');

/** pg answers { rows }, better-sqlite3 an array of rows. */
function rowsOf(result: unknown): TaskRow[] {
  return (Array.isArray(result) ? result : (result as { rows: TaskRow[] }).rows) as TaskRow[];
}

function nullableNumber(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
