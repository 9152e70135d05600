import type { Router } from 'express';
import type { CoreDeps } from '../deps.js';
import { createTasksRouter } from './tasks.routes.js';
import { createTasksService, type TasksService } from './tasks.service.js';

export interface TasksComponent {
  /** /tasks and /tasks/{taskId}. */
  router: Router;
  /** The task cap and what the account uses of it. */
  usage: (accountId: string) => Promise<{ limit: number; used: number }>;
  /** The operations behind the routes, for other front ends of the same API (the MCP tools). */
  operations: Pick<TasksService, 'list' | 'get' | 'create' | 'update' | 'remove'>;
}

export function createTasksComponent({ config, db }: CoreDeps): TasksComponent {
  const service = createTasksService({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT });
  return { router: createTasksRouter(service), usage: (accountId) => service.usage(accountId), operations: service };
}
