import type { operations } from '../../generated/api.js';
import { readUsage, type UsageParts } from '../account/usage.routes.js';
import type { ConnectorsComponent } from '../connectors/connectors.component.js';
import type { Caller } from '../http/caller.js';
import type { TasksComponent } from '../tasks/tasks.component.js';
import type { OperationId, OperationRequest } from './tool-catalogue.js';

type Body<Id extends OperationId> = operations[Id] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
type Query<Id extends OperationId> = NonNullable<operations[Id]['parameters']['query']>;

/** What a tool's REST operation answers: its body (undefined for a 204). */
export type RunOperation = (caller: Caller, request: OperationRequest) => Promise<unknown>;

export interface ToolOperationParts extends UsageParts {
  tasks: UsageParts['tasks'] & Pick<TasksComponent, 'operations'>;
  connectors: UsageParts['connectors'] & Pick<ConnectorsComponent, 'operations'>;
}

/**
 * The REST operations the tools are, run through the same service calls as their routes (never HTTP to
 * ourselves). The arguments were checked against the schemas the document gives those operations.
 */
export function createToolOperations(parts: ToolOperationParts): Partial<Record<OperationId, RunOperation>> {
  const { tasks, connectors } = parts;
  return {
    listTasks: (caller, { query }) => tasks.operations.list(caller.accountId, query as Query<'listTasks'>),
    getTask: (caller, { path }) => tasks.operations.get(caller.accountId, path.taskId!),
    createTask: async (caller, { body }) => (await tasks.operations.create(caller.accountId, body as Body<'createTask'>)).body,
    updateTask: (caller, { path, body }) => tasks.operations.update(caller.accountId, path.taskId!, body as Body<'updateTask'>),
    deleteTask: (caller, { path }) => tasks.operations.remove(caller.accountId, path.taskId!),
    getUsage: (caller) => readUsage(parts, caller),
    listConnectorAccounts: (caller) => connectors.operations.listAccounts(caller.accountId),
    startSync: (caller, { path }) => connectors.operations.startSync(caller.accountId, path.accountId!),
    getSyncJob: (caller, { path }) => connectors.operations.getSyncJob(caller.accountId, path.jobId!),
  };
}
