import type { UsageHandlers } from '../account/account.component.js';
import type { ConnectorsComponent } from '../connectors/connectors.component.js';
import type { Caller } from '../http/caller.js';
import type { Answer, OperationId, OperationInput } from '../http/operations.js';
import type { TasksComponent } from '../tasks/tasks.component.js';
import type { OperationRequest } from './tool-catalogue.js';

/** What a tool's REST operation answers: its body (undefined for a 204). */
export type RunOperation = (caller: Caller, request: OperationRequest) => Promise<unknown>;

export interface ToolOperationParts {
  tasks: Pick<TasksComponent, 'handlers'>;
  connectors: Pick<ConnectorsComponent, 'handlers'>;
  usage: UsageHandlers;
}

/**
 * The REST operations the tools are, run by the same handlers as their routes (never HTTP to ourselves).
 * The arguments were checked against the schemas the document gives those operations.
 */
export function createToolOperations(parts: ToolOperationParts): Partial<Record<OperationId, RunOperation>> {
  const { tasks, connectors, usage } = parts;
  return {
    listTasks: byHandler(tasks.handlers.listTasks),
    getTask: byHandler(tasks.handlers.getTask),
    createTask: byHandler(tasks.handlers.createTask),
    updateTask: byHandler(tasks.handlers.updateTask),
    deleteTask: byHandler(tasks.handlers.deleteTask),
    getUsage: byHandler(usage.getUsage),
    listConnectorAccounts: byHandler(connectors.handlers.listConnectorAccounts),
    startSync: byHandler(connectors.handlers.startSync),
    getSyncJob: byHandler(connectors.handlers.getSyncJob),
  };
}

/** A tool run through its operation's handler: the tool's arguments as the operation's input, the answer's body as the result. */
function byHandler<Id extends OperationId>(handler: (input: OperationInput<Id>) => Promise<Answer<Id>>): RunOperation {
  return async (caller, request) => {
    // The tool checked its arguments against the schemas this operation's parameters and body have in
    // the document, as the validator checks a REST request: the same shapes, by another door.
    const header = (name: string) => Object.entries(request.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
    const input = { caller, params: request.path, query: request.query, body: request.body, header } as unknown as OperationInput<Id>;
    return (await handler(input)).body;
  };
}
