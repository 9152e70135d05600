import type { Router } from 'express';
import type { CoreDeps } from '../deps.js';
import { createTasksRouter } from './tasks.routes.js';
import { createTasksService } from './tasks.service.js';

export interface TasksComponent {
  /** /tasks and /tasks/{taskId}. */
  router: Router;
  /** The task cap and what the account uses of it. */
  usage: (accountId: string) => Promise<{ limit: number; used: number }>;
}

export function createTasksComponent({ config, db }: CoreDeps): TasksComponent {
  const service = createTasksService({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT });
  return { router: createTasksRouter(service), usage: (accountId) => service.usage(accountId) };
}
