import type { TaskChange, TaskChangeListener } from '../tasks/tasks.component.js';
import type { Outbox, WebhookEvent } from './outbox.js';

/**
 * Every task change (API, MCP, taskctl, sync) as an event in the outbox: written in the change's
 * transaction, or as a step of the statement that makes it where a change is one statement (a create on
 * PostgreSQL, src/tasks/task-changes.ts).
 */
export function taskChangeListener(outbox: Outbox): TaskChangeListener {
  return {
    record: (trx, change) => outbox.record(trx, change.accountId, taskEvent(change)),
    step: {
      build: outbox.step.build,
      values: (change) => outbox.step.values(change.accountId, taskEvent(change)),
      committed: outbox.step.committed,
    },
  };
}

function taskEvent(change: TaskChange): WebhookEvent {
  if (change.kind === 'deleted') return { type: 'task.deleted', data: { taskId: change.taskId, deletedAt: change.deletedAt } };
  return { type: change.kind === 'created' ? 'task.created' : 'task.updated', data: change.task };
}
