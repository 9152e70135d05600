import { operation, type OperationEntry, type OperationInput } from '../http/operations.js';
import type { TasksService } from './tasks.service.js';

/**
 * listTasks, createTask, getTask, updateTask and deleteTask: the validator has checked the caller,
 * scopes and shapes before these run. The MCP tools run the same handlers.
 */
export function createTasksHandlers(service: TasksService) {
  return {
    listTasks: async ({ caller, query }: OperationInput<'listTasks'>) => ({ status: 200 as const, body: await service.list(caller.accountId, query) }),
    createTask: async ({ caller, body, header }: OperationInput<'createTask'>) => {
      // A replay answers the stored response: a 201 too, the only status a create has.
      const { body: task } = await service.create(caller.accountId, body, header('Idempotency-Key'));
      return { status: 201 as const, headers: { Location: `/tasks/${task.id}` }, body: task };
    },
    getTask: async ({ caller, params }: OperationInput<'getTask'>) => ({ status: 200 as const, body: await service.get(caller.accountId, params.taskId) }),
    updateTask: async ({ caller, params, body }: OperationInput<'updateTask'>) => ({
      status: 200 as const,
      body: await service.update(caller.accountId, params.taskId, body),
    }),
    deleteTask: async ({ caller, params }: OperationInput<'deleteTask'>) => {
      await service.remove(caller.accountId, params.taskId);
      return { status: 204 as const };
    },
  };
}

export type TasksHandlers = ReturnType<typeof createTasksHandlers>;

export function tasksOperations(handlers: TasksHandlers): OperationEntry[] {
  return [
    operation('listTasks', handlers.listTasks),
    operation('createTask', handlers.createTask),
    operation('getTask', handlers.getTask),
    operation('updateTask', handlers.updateTask),
    operation('deleteTask', handlers.deleteTask),
  ];
}
