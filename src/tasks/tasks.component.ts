import { Router } from 'express';
import type { CoreDeps } from '../deps.js';

export interface TasksComponent {
  /** /tasks and /tasks/{taskId}. */
  router: Router;
  /** The task cap and what the account uses of it. */
  usage: (accountId: string) => Promise<{ limit: number; used: number }>;
}

// Stub until the tasks issue lands.
export function createTasksComponent({ config }: CoreDeps): TasksComponent {
  return { router: Router(), usage: async () => ({ limit: config.TASKS_MAX_PER_ACCOUNT, used: 0 }) };
}
