import type { Task, TaskChange } from '@task-service/sdk';

export type StatusFilter = 'open' | 'completed' | 'all';

/** The list after the change feed's changes: updated in place, new ones on top when they match the filter, deleted ones gone. */
export function applyChanges(items: Task[], changes: TaskChange[], status: StatusFilter): Task[] {
  let next = items;
  for (const change of changes) {
    if (change.kind === 'deleted') {
      next = next.filter((task) => task.id !== change.taskId);
      continue;
    }
    const task = change.task;
    const fits = status === 'all' || task.status === status;
    const at = next.findIndex((held) => held.id === task.id);
    if (at >= 0) {
      if (next[at]!.version > task.version) continue;
      next = fits ? next.map((held, index) => (index === at ? task : held)) : next.filter((_, index) => index !== at);
    } else if (fits) {
      next = [task, ...next];
    }
  }
  return next;
}
