import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import type { Db } from '../platform/db.js';
import { errors } from '../platform/errors.js';
import { isPostgres } from '../platform/db.js';
import { transaction, transactionNow, type Transaction } from '../platform/transaction.js';
import { toIso } from '../platform/time.js';
import type { ChangeCursors } from './change-cursor.js';
import { forgetExpiredKeys, onceForKey, type StoredResponse } from './idempotency.js';
import type { TaskChangeRecorder } from './task-changes.js';
import { sortKey, type TaskSort } from '../../sdk/src/task-query.js';
import { taskFilters, toEpoch } from './task-filters.js';
import { decodeTaskCursor, encodeTaskCursor, viewDigest } from './task-list-cursor.js';
import { drivesFor } from './task-search-plan.js';
import { findTaskPage, listLabels } from './task-search.repository.js';
import { lastChangeNumber, listChangesAfter, purgeTombstones, type FeedRow } from './task-feed.repository.js';
import { releaseTaskPlaceForDelete, releaseTaskPlaceForDeleteNow, usedTaskPlaces } from './task-quota.js';
import { toTask } from './tasks.presenter.js';
import * as repository from './tasks.repository.js';
import type { ExpectedVersions, StatusFilter, Task } from './tasks.repository.js';

// `priority` has a default in the document; callers other than the validated edge may leave it out.
type TaskCreate = Omit<components['schemas']['TaskCreate'], 'priority'> & { priority?: number };
type TaskUpdate = components['schemas']['TaskUpdate'];
type TaskList = components['schemas']['TaskList'];
type LabelList = components['schemas']['LabelList'];
type TaskChangeList = components['schemas']['TaskChangeList'];
type TaskChangeItem = components['schemas']['TaskChange'];

export interface ListQuery {
  status?: StatusFilter;
  limit?: number;
  cursor?: string;
  updatedSince?: string;
  q?: string;
  label?: string[];
  priority?: number[];
  dueAfter?: string;
  dueBefore?: string;
  hasDue?: boolean;
  sort?: TaskSort;
}

export interface ChangesQuery {
  cursor?: string;
  limit?: number;
}

export interface TasksServiceDeps {
  db: Db;
  maxTasks: number;
  /** Every write records its change here, in its own transaction (src/tasks/task-changes.ts). */
  changes: TaskChangeRecorder;
  cursors: ChangeCursors;
  tombstoneRetentionDays: number;
}

export type TasksService = ReturnType<typeof createTasksService>;

export function createTasksService({ db, maxTasks, changes: recorder, cursors, tombstoneRetentionDays }: TasksServiceDeps) {
  const retentionMs = tombstoneRetentionDays * DAY_MS;

  /** Inserts the task and takes its place under the cap, or refuses at the cap. */
  async function insertWithinCap(db: Db | Transaction, accountId: string, input: TaskCreate, now: number): Promise<StoredResponse<Task>> {
    const row = repository.newTaskRow(
      accountId,
      {
        id: randomUUID(),
        title: input.title,
        notes: input.notes ?? null,
        status: input.status ?? 'open',
        priority: input.priority ?? DEFAULT_PRIORITY,
        dueAt: toEpochOrNull(input.dueAt, '/body/dueAt'),
        labels: input.labels ?? [],
      },
      now,
    );
    const inserted = await recorder.created(db, row, maxTasks);
    if (inserted === undefined) {
      // Read after the refusal: a delete since may have freed a place, but at the refusal all were taken.
      const used = Math.max(await usedTaskPlaces(db, accountId), maxTasks);
      throw errors.quotaExceeded('tasks', maxTasks, used, `This account has reached its limit of ${maxTasks} tasks; delete some to make room.`);
    }
    return { status: 201, body: toTask(inserted) };
  }

  /** Why a conditional write found nothing to change: no such task (404), or another version (412). */
  async function missingOrChanged(trx: Db | Transaction, accountId: string, taskId: string): Promise<Error> {
    const version = await repository.findVersion(trx, accountId, taskId);
    return version === undefined ? errors.notFound('Task') : errors.preconditionFailed(version);
  }

  return {
    async list(accountId: string, query: ListQuery): Promise<TaskList> {
      const limit = query.limit ?? DEFAULT_PAGE_SIZE;
      const sort = query.sort ?? 'created';
      const filters = taskFilters(query);
      const view = viewDigest(filters, sort);
      const drives = drivesFor(filters);
      const after = query.cursor === undefined ? undefined : decodeTaskCursor(query.cursor, { view, sort, drives, legacyView: PLAIN_LIST_VIEW });
      // One more than the page: whether it exists says if there is a next page, without a count.
      const { rows, drive } = await findTaskPage(db, accountId, { filters, sort, after: after?.position, drive: after?.drive, limit: limit + 1 });
      const items = rows.slice(0, limit).map(toTask);
      const last = items.at(-1);
      const next = last && rows.length > limit ? { position: sortKey(sort, last), drive: drives.length > 0 ? drive : undefined } : undefined;
      return { items, nextCursor: next ? encodeTaskCursor(view, next) : null };
    },

    async labels(accountId: string): Promise<LabelList> {
      return { items: await listLabels(db, accountId) };
    },

    /** 201 with the new task; with an idempotency key, a repeat within the window answers the first response. */
    async create(accountId: string, input: TaskCreate, idempotencyKey?: string): Promise<StoredResponse<Task>> {
      const now = Date.now();
      if (idempotencyKey === undefined) return insertWithinCap(db, accountId, input, now);
      const response = await onceForKey(db, { accountId, key: idempotencyKey, body: input, now }, (trx) =>
        insertWithinCap(trx, accountId, input, now),
      );
      if (!response.replayed) await forgetExpiredKeys(db, accountId, now);
      return response;
    },

    async get(accountId: string, taskId: string): Promise<Task> {
      const row = await repository.findTask(db, accountId, taskId);
      if (!row) throw errors.notFound('Task');
      return toTask(row);
    },

    /** With `expected` (If-Match), the change applies only to a task at one of those versions. */
    async update(accountId: string, taskId: string, changes: TaskUpdate, expected?: ExpectedVersions): Promise<Task> {
      const fields = {
        title: changes.title,
        notes: changes.notes,
        status: changes.status,
        priority: changes.priority,
        dueAt: changes.dueAt === undefined ? undefined : toEpochOrNull(changes.dueAt, '/body/dueAt'),
        labels: changes.labels,
      };
      const now = Date.now();
      const textChanged = fields.title !== undefined || fields.notes !== undefined || fields.labels !== undefined;
      if (!isPostgres(db)) {
        // SQLite: one synchronous transaction (nothing else runs on the connection meanwhile); when no task
        // matched, it rolls back the number it took, and why is read after.
        const row = await transactionNow(db, (trx) => {
          const changeNumber = recorder.now.takeNumbers(trx, accountId, 1);
          const updated = repository.updateTaskNow(trx, { accountId, taskId, expected }, fields, { now, changeNumber });
          if (!updated) throw NOTHING_CHANGED;
          recorder.now.upserted(trx, 'updated', [updated], textChanged);
          return updated;
        }).catch(async (error: unknown) => {
          throw error === NOTHING_CHANGED ? await missingOrChanged(db, accountId, taskId) : error;
        });
        return toTask(row);
      }
      return transaction(db, async (trx) => {
        const changeNumber = recorder.numbersInTaskUpdate(trx) ? undefined : await recorder.takeNumbers(trx, accountId, 1);
        const row = await repository.updateTask(trx, { accountId, taskId, expected }, fields, { now, changeNumber });
        if (!row) throw await missingOrChanged(trx, accountId, taskId);
        await recorder.upserted(trx, 'updated', [row], textChanged);
        return toTask(row);
      });
    },

    /**
     * Deleting, freeing its place and leaving its tombstone are one transaction: the cap's counter
     * never drifts from the rows, and the feed never misses the deletion.
     */
    async remove(accountId: string, taskId: string, expected?: ExpectedVersions): Promise<void> {
      const now = Date.now();
      const deletion = { accountId, taskId, expected, deletedAt: now };
      const changeNumber = isPostgres(db)
        ? await transaction(db, async (trx) => {
            const taken = await releaseTaskPlaceForDelete(trx, accountId);
            if (!(await recorder.deleted(trx, { ...deletion, changeNumber: taken }))) throw await missingOrChanged(trx, accountId, taskId);
            return taken;
          })
        : await transactionNow(db, (trx) => {
            const taken = releaseTaskPlaceForDeleteNow(trx, accountId);
            if (!recorder.now.deleted(trx, { ...deletion, changeNumber: taken })) throw NOTHING_CHANGED;
            return taken;
          }).catch(async (error: unknown) => {
            throw error === NOTHING_CHANGED ? await missingOrChanged(db, accountId, taskId) : error;
          });
      // Now and then, not on every delete: tombstones only need to go some time after their retention.
      if (changeNumber % PURGE_EVERY_NTH_CHANGE === 0) await purgeTombstones(db, accountId, now - retentionMs - Math.min(retentionMs, HOUR_MS));
    },

    /**
     * The change feed (docs/change-feed.md): without a cursor every stored task (an initial sync), else every
     * change numbered after it, tombstones included, oldest first.
     */
    async changes(accountId: string, query: ChangesQuery, lastChangeRead?: number): Promise<TaskChangeList> {
      const now = Date.now();
      const limit = query.limit ?? DEFAULT_CHANGES_PAGE_SIZE;
      const from = query.cursor === undefined ? undefined : cursors.decode(accountId, query.cursor);
      if (from && from.issuedAt < now - retentionMs) throw errors.cursorExpired(tombstoneRetentionDays);
      // A number read earlier in the request (the identify step's) is as good: a change committed since
      // is seen by the next poll, as if this one had come a moment earlier.
      if (from && (lastChangeRead ?? (await lastChangeNumber(db, accountId))) === from.after) {
        // A cursor issued within the minute goes back as it came (it stands for the same place, and is
        // older by less than a minute of its retention): most polls of a quiet account sign nothing.
        const nextCursor = now - from.issuedAt < CURSOR_REISSUE_AFTER_MS ? query.cursor! : cursors.encode(accountId, { after: from.after, issuedAt: now });
        return { changes: [], nextCursor, hasMore: false };
      }
      const rows = await listChangesAfter(db, accountId, { after: from?.after ?? 0, limit: limit + 1, withTombstones: from !== undefined });
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      // A cursor is as old as the oldest change it has not shown: with more to come, the unseen ones may
      // be as old as the cursor it came from, and their tombstones go by that age.
      const issuedAt = hasMore ? (from?.issuedAt ?? now) : now;
      return {
        changes: page.map(toChange),
        nextCursor: cursors.encode(accountId, { after: page.at(-1)?.change_seq ?? from?.after ?? 0, issuedAt }),
        hasMore,
      };
    },

    async usage(accountId: string): Promise<{ limit: number; used: number }> {
      return { limit: maxTasks, used: await usedTaskPlaces(db, accountId) };
    },
  };
}

/** Thrown inside a synchronous transaction whose conditional write matched no task: it rolls back, and the caller says why. */
const NOTHING_CHANGED = Symbol('nothing changed');

const DEFAULT_PAGE_SIZE = 50;
const DEFAULT_CHANGES_PAGE_SIZE = 100;
const DEFAULT_PRIORITY = 3;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const PURGE_EVERY_NTH_CHANGE = 16;
const CURSOR_REISSUE_AFTER_MS = 60 * 1000;

function toChange(row: FeedRow): TaskChangeItem {
  if (row.change_kind === 'deleted') return { kind: 'deleted', taskId: row.id, deletedAt: toIso(Number(row.deleted_at)) };
  return { kind: 'upserted', task: toTask(row) };
}

/** The view of a list with no filters and the default sort: what a cursor from before filters existed was made for. */
const PLAIN_LIST_VIEW = viewDigest(taskFilters({}), 'created');

function toEpochOrNull(value: string | null | undefined, path: string): number | null {
  return value === null || value === undefined ? null : toEpoch(value, path);
}
