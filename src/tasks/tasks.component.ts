import type { CoreDeps } from '../deps.js';
import type { OperationEntry } from '../http/operations.js';
import { createTasksHandlers, tasksOperations, type TasksHandlers } from './tasks.routes.js';
import { createTasksService } from './tasks.service.js';

export interface TasksComponent {
  /** listTasks, createTask, getTask, updateTask, deleteTask. */
  operations: OperationEntry[];
  /** The same handlers by operationId, for other front ends of the same API (the MCP tools). */
  handlers: TasksHandlers;
  /** The task cap and what the account uses of it. */
  usage: (accountId: string) => Promise<{ limit: number; used: number }>;
}

export function createTasksComponent({ config, db }: CoreDeps): TasksComponent {
  const service = createTasksService({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT });
  const handlers = createTasksHandlers(service);
  return { operations: tasksOperations(handlers), handlers, usage: (accountId) => service.usage(accountId) };
}
