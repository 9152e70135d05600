import type { Task, TaskChange } from '@task-service/sdk';

export type StatusFilter = 'open' | 'completed' | 'all';

export interface ListShape {
  /** Whether a task belongs in the view (the SDK's `taskMatches` with the view's query). */
  fits: (task: Task) => boolean;
  /** The view's order (the SDK's `compareTasks`). */
  order: (a: Task, b: Task) => number;
  /** False while more pages wait behind "Load more": a task ordered after the last one shown comes with them. */
  complete: boolean;
}

/**
 * The list after the change feed's changes: kept in the view's order, a task that now fits added
 * where it belongs, one that no longer fits or was deleted gone. A task in `kept` (one being
 * edited) stays where it is whatever the change, so an edit in progress is never taken away; its id
 * is in `gone` when it was deleted.
 */
export function applyChanges(items: Task[], changes: TaskChange[], shape: ListShape, kept: ReadonlySet<string> = new Set()): { items: Task[]; gone: string[] } {
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
    if (at >= 0 && next[at]!.version > task.version) continue;
    if (kept.has(task.id) && at >= 0) {
      next = next.map((held, index) => (index === at ? task : held));
      continue;
    }
    const rest = at >= 0 ? next.filter((_, index) => index !== at) : next;
    const last = rest.at(-1);
    const beyond = !shape.complete && last !== undefined && shape.order(task, last) > 0;
    if (!shape.fits(task) || beyond) {
      next = rest;
      continue;
    }
    const place = rest.findIndex((held) => shape.order(task, held) < 0);
    next = place < 0 ? [...rest, task] : [...rest.slice(0, place), task, ...rest.slice(place)];
  }
  return { items: next, gone };
}
