import type { CoreDeps } from '../deps.js';
import type { OperationEntry } from '../http/operations.js';
import type { Db } from '../platform/db.js';
import { createTasksHandlers, tasksOperations } from './tasks.operations.js';
import { createTasksService } from './tasks.service.js';
import { detachConnectorTasks, upsertExternalTasks, type ExternalTaskBatch, type UpsertCounts } from './external-tasks.repository.js';

export type { ExternalTask, UpsertCounts } from './external-tasks.repository.js';

export interface TasksComponent {
  /** listTasks, createTask, getTask, updateTask, deleteTask. */
  operations: OperationEntry[];
  /** The task cap and what the account uses of it. */
  usage: (accountId: string) => Promise<{ limit: number; used: number }>;
  /** What the connectors' sync needs of tasks. */
  sync: TasksForSync;
}

/** Synced items in, and a disconnected account's tasks kept; the task cap stays the tasks component's. */
export interface TasksForSync {
  /**
   * Upserts a batch by (connectorAccountId, externalId) in one transaction: known tasks update, new
   * ones insert while the account's task cap allows, the rest count as droppedOverQuota.
   */
  importExternalTasks: (batch: Omit<ExternalTaskBatch, 'maxTasks'>) => Promise<UpsertCounts>;
  /** On disconnect, in its transaction: the connector's tasks stay as local tasks. */
  detachConnectorTasks: (trx: Db, connectorAccountId: string) => Promise<number>;
}

export function createTasksComponent({ config, db }: CoreDeps): TasksComponent {
  const service = createTasksService({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT });
  return {
    operations: tasksOperations(createTasksHandlers(service)),
    usage: (accountId) => service.usage(accountId),
    sync: createTasksForSync({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT }),
  };
}

export function createTasksForSync({ db, maxTasks }: { db: Db; maxTasks: number }): TasksForSync {
  return {
    importExternalTasks: (batch) => upsertExternalTasks(db, { ...batch, maxTasks }),
    detachConnectorTasks,
  };
}
