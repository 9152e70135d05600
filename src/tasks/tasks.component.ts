import type { Knex } from 'knex';
import type { CoreDeps } from '../deps.js';
import type { OperationEntry } from '../http/operations.js';
import type { Db } from '../platform/db.js';
import { createChangeCursors } from './change-cursor.js';
import { createTaskChangeRecorder, type TaskChangeListener, type TaskChangeRecorder } from './task-changes.js';
import { createTasksHandlers, tasksOperations } from './tasks.operations.js';
import { createTasksService } from './tasks.service.js';
import { tasksByPrefix, type TitleMatch } from './task-titles.repository.js';
import { detachConnectorTasks, upsertExternalTasks, type ExternalTaskBatch, type UpsertCounts } from './external-tasks.repository.js';

export type { TaskChange, TaskChangeListener } from './task-changes.js';
export type { ExternalTask, UpsertCounts } from './external-tasks.repository.js';
export type { TitleMatch } from './task-titles.repository.js';

export interface TasksComponent {
  /** listTasks, listLabels, listTaskChanges, createTask, getTask, updateTask, deleteTask. */
  operations: OperationEntry[];
  /** The task cap and what the account uses of it. */
  usage: (accountId: string) => Promise<{ limit: number; used: number }>;
  /** What the connectors' sync needs of tasks. */
  sync: TasksForSync;
  /** At most `limit` tasks of the account whose title (case-insensitive) or id starts with `prefix`, by title: MCP's completions. */
  byPrefix: (accountId: string, prefix: string, limit: number) => Promise<TitleMatch[]>;
}

export interface TasksComponentOptions {
  /** Hears every task change inside the transaction or statement that makes it (API, MCP, sync, disconnect). */
  taskChangeListener?: TaskChangeListener;
  /** Signs the change feed's cursors; every instance must hold the same (see AuthComponent.deriveKey). */
  cursorKey: Buffer;
}

/** Synced items in, and a disconnected account's tasks kept; the task cap stays the tasks component's. */
export interface TasksForSync {
  /**
   * Upserts a batch by (connectorAccountId, externalId) in one transaction: known tasks update, new
   * ones insert while the account's task cap allows, the rest count as droppedOverQuota.
   */
  importExternalTasks: (batch: Omit<ExternalTaskBatch, 'maxTasks'>) => Promise<UpsertCounts>;
  /** On disconnect, in its transaction: the connector's tasks stay as local tasks (each a change of the feed). */
  detachConnectorTasks: (trx: Knex.Transaction, owner: { accountId: string; connectorAccountId: string }) => Promise<number>;
}

export function createTasksComponent({ config, db }: CoreDeps, options: TasksComponentOptions): TasksComponent {
  const changes = createTaskChangeRecorder(options.taskChangeListener);
  const service = createTasksService({
    db,
    maxTasks: config.TASKS_MAX_PER_ACCOUNT,
    changes,
    cursors: createChangeCursors(options.cursorKey),
    tombstoneRetentionDays: config.TASK_TOMBSTONE_RETENTION_DAYS,
  });
  return {
    operations: tasksOperations(createTasksHandlers(service)),
    usage: (accountId) => service.usage(accountId),
    sync: createTasksForSync({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT, changes }),
    byPrefix: (accountId, prefix, limit) => tasksByPrefix(db, accountId, prefix, limit),
  };
}

export function createTasksForSync({ db, maxTasks, changes = createTaskChangeRecorder() }: { db: Db; maxTasks: number; changes?: TaskChangeRecorder }): TasksForSync {
  return {
    importExternalTasks: (batch) => upsertExternalTasks(db, { ...batch, maxTasks }, changes),
    detachConnectorTasks: (trx, owner) => detachConnectorTasks(trx, owner, changes),
  };
}
