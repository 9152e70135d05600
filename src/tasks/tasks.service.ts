import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import type { Db } from '../platform/db.js';
import { errors } from '../platform/errors.js';
import { isRfc3339Instant } from '../platform/time.js';
import { forgetExpiredKeys, onceForKey, type StoredResponse } from './idempotency.js';
import { decodeCursor, encodeCursor } from './task-cursor.js';
import { releaseTaskPlaces, takeTaskPlace, usedTaskPlaces } from './task-quota.js';
import { toTask } from './tasks.presenter.js';
import * as repository from './tasks.repository.js';
import type { StatusFilter, Task } from './tasks.repository.js';

// `priority` has a default in the document; callers other than the validated edge may leave it out.
type TaskCreate = Omit<components['schemas']['TaskCreate'], 'priority'> & { priority?: number };
type TaskUpdate = components['schemas']['TaskUpdate'];
type TaskList = components['schemas']['TaskList'];

export interface ListQuery {
  status?: StatusFilter;
  limit?: number;
  cursor?: string;
  updatedSince?: string;
}

export type TasksService = ReturnType<typeof createTasksService>;

export function createTasksService({ db, maxTasks }: { db: Db; maxTasks: number }) {
  /** Inserts the task and takes its place under the cap in one transaction, or refuses at the cap. */
  async function insertWithinCap(trx: Knex.Transaction, accountId: string, input: TaskCreate, now: number): Promise<StoredResponse<Task>> {
    if (!(await takeTaskPlace(trx, accountId, maxTasks))) {
      const used = await usedTaskPlaces(trx, accountId);
      throw errors.quotaExceeded('tasks', maxTasks, used, `This account has reached its limit of ${maxTasks} tasks; delete some to make room.`);
    }
    const row = await repository.insertTask(
      trx,
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
    return { status: 201, body: toTask(row) };
  }

  return {
    async list(accountId: string, query: ListQuery): Promise<TaskList> {
      const limit = query.limit ?? DEFAULT_PAGE_SIZE;
      const rows = await repository.listTaskPage(db, accountId, {
        status: query.status ?? 'all',
        updatedSince: query.updatedSince === undefined ? undefined : toEpoch(query.updatedSince, '/query/updatedSince'),
        after: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
        // One more than the page: whether it exists says if there is a next page, without a count.
        limit: limit + 1,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        items: page.map(toTask),
        nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: Number(last.created_at), id: last.id }) : null,
      };
    },

    /** 201 with the new task; with an idempotency key, a repeat within the window answers the first response. */
    async create(accountId: string, input: TaskCreate, idempotencyKey?: string): Promise<StoredResponse<Task>> {
      const now = Date.now();
      if (idempotencyKey === undefined) return db.transaction((trx) => insertWithinCap(trx, accountId, input, now));
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

    async update(accountId: string, taskId: string, changes: TaskUpdate): Promise<Task> {
      const row = await repository.updateTask(
        db,
        accountId,
        taskId,
        {
          title: changes.title,
          notes: changes.notes,
          status: changes.status,
          priority: changes.priority,
          dueAt: changes.dueAt === undefined ? undefined : toEpochOrNull(changes.dueAt, '/body/dueAt'),
          labels: changes.labels,
        },
        Date.now(),
      );
      if (!row) throw errors.notFound('Task');
      return toTask(row);
    },

    /** Deleting and freeing its place are one transaction: the counter never drifts from the rows. */
    async remove(accountId: string, taskId: string): Promise<void> {
      await db.transaction(async (trx) => {
        if (!(await repository.deleteTask(trx, accountId, taskId))) throw errors.notFound('Task');
        await releaseTaskPlaces(trx, accountId, 1);
      });
    },

    async usage(accountId: string): Promise<{ limit: number; used: number }> {
      return { limit: maxTasks, used: await usedTaskPlaces(db, accountId) };
    },
  };
}

const DEFAULT_PAGE_SIZE = 50;
const DEFAULT_PRIORITY = 3;

function toEpochOrNull(value: string | null | undefined, path: string): number | null {
  return value === null || value === undefined ? null : toEpoch(value, path);
}

/** The document has checked the RFC 3339 shape; a few valid ones (a leap second, a year outside 0000–9999 in UTC) still have no instant here. */
function toEpoch(value: string, path: string): number {
  const epochMs = Date.parse(value.toUpperCase());
  // An offset can carry a valid RFC 3339 time past year 0000 or 9999 once it is in UTC.
  if (!isRfc3339Instant(epochMs)) {
    throw errors.validation([{ path, message: 'is not a time this service can store' }]);
  }
  return epochMs;
}
