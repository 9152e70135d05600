import { operation, type OperationEntry, type OperationInput } from '../http/operations.js';
import { etagOf, ifMatchVersions, ifNoneMatchHits } from './entity-tags.js';
import type { TasksService } from './tasks.service.js';

/**
 * listTasks, listLabels, listTaskChanges, createTask, getTask, updateTask and deleteTask: the validator has
 * checked the caller, scopes and shapes before these run. The MCP tools run the same handlers.
 * One task's answers carry its version as ETag; the app sets no other (src/app.ts).
 */
export function createTasksHandlers(service: TasksService) {
  return {
    listTasks: async ({ caller, query }: OperationInput<'listTasks'>) => ({ status: 200 as const, body: await service.list(caller.accountId, query) }),
    listLabels: async ({ caller }: OperationInput<'listLabels'>) => ({ status: 200 as const, body: await service.labels(caller.accountId) }),
    listTaskChanges: async ({ caller, callerAccount, query }: OperationInput<'listTaskChanges'>) => ({
      status: 200 as const,
      body: await service.changes(caller.accountId, query, callerAccount?.lastTaskChange),
    }),
    createTask: async ({ caller, body, header }: OperationInput<'createTask'>) => {
      // A replay answers the stored response: a 201 too, the only status a create has.
      const { body: task } = await service.create(caller.accountId, body, header('Idempotency-Key'));
      return { status: 201 as const, headers: { Location: `/tasks/${task.id}`, ETag: etagOf(task.version) }, body: task };
    },
    getTask: async ({ caller, params, header }: OperationInput<'getTask'>) => {
      const task = await service.get(caller.accountId, params.taskId);
      const headers = { ETag: etagOf(task.version) };
      if (ifNoneMatchHits(header('If-None-Match'), task.version)) return { status: 304 as const, headers };
      return { status: 200 as const, headers, body: task };
    },
    updateTask: async ({ caller, params, body, header }: OperationInput<'updateTask'>) => {
      const task = await service.update(caller.accountId, params.taskId, body, ifMatchVersions(header('If-Match')));
      return { status: 200 as const, headers: { ETag: etagOf(task.version) }, body: task };
    },
    deleteTask: async ({ caller, params, header }: OperationInput<'deleteTask'>) => {
      await service.remove(caller.accountId, params.taskId, ifMatchVersions(header('If-Match')));
      return { status: 204 as const };
    },
  };
}

export type TasksHandlers = ReturnType<typeof createTasksHandlers>;

export function tasksOperations(handlers: TasksHandlers): OperationEntry[] {
  return [
    operation('listTasks', handlers.listTasks),
    operation('listLabels', handlers.listLabels),
    operation('listTaskChanges', handlers.listTaskChanges),
    operation('createTask', handlers.createTask),
    operation('getTask', handlers.getTask),
    operation('updateTask', handlers.updateTask),
    operation('deleteTask', handlers.deleteTask),
  ];
}
