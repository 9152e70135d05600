import type { Task, TaskChange } from '@task-service/sdk';

export type StatusFilter = 'open' | 'completed' | 'all';

/**
 * The list after the change feed's changes: updated in place, new ones on top when they match the
 * filter, deleted ones gone. A task in `kept` (one being edited) stays where it is whatever the
 * change, so an edit in progress is never taken away; its id is in `gone` when it was deleted.
 */
export function applyChanges(items: Task[], changes: TaskChange[], fits: (task: Task) => boolean, kept: ReadonlySet<string> = new Set()): { items: Task[]; gone: string[] } {
  let next = items;
  const gone: string[] = [];
  for (const change of changes) {
    if (change.kind === 'deleted') {
      if (kept.has(change.taskId)) gone.push(change.taskId);
      else next = next.filter((task) => task.id !== change.taskId);
      continue;
    }
    const task = change.task;
    const at = next.findIndex((held) => held.id === task.id);
    if (at >= 0) {
      if (next[at]!.version > task.version) continue;
      next = fits(task) || kept.has(task.id) ? next.map((held, index) => (index === at ? task : held)) : next.filter((_, index) => index !== at);
    } else if (fits(task)) {
      next = [task, ...next];
    }
  }
  return { items: next, gone };
}

export function statusFits(status: StatusFilter): (task: Task) => boolean {
  return (task) => status === 'all' || task.status === status;
}
