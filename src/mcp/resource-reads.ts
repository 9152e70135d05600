import type { ListResourcesResult, ReadResourceResult, Resource, ResourceTemplate, TextResourceContents } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../http/caller.js';
import type { OperationId } from '../http/operation-table.js';
import type { OperationRequest, RunOperation } from '../http/run-operation.js';
import type { Logger } from '../platform/logger.js';
import { invalidParams, toRpcError } from './rpc-errors.js';
import { taskPage, type Task } from './task-pages.js';

export const TASK_TEMPLATE = 'task://{taskId}';
export const OPEN_TASKS_URI = 'tasks://open';
export const USAGE_URI = 'usage://me';
export const taskUri = (taskId: string) => `task://${taskId}`;

const JSON_TYPE = 'application/json';

/** The resources of docs/signing-in.md: each read is its REST operation, run for the caller. */
export interface Resources {
  /** `resources/list`: the fixed resources, then every task of the account, a page of listTasks at a time. */
  list(cursor: string | undefined, caller: Caller, requestId?: string): Promise<ListResourcesResult>;
  /** `resources/templates/list`, made once. */
  readonly templates: readonly ResourceTemplate[];
  /** `resources/read`: the REST response body as JSON; a refusal is the operation's, as a JSON-RPC error. */
  read(uri: string, caller: Caller, requestId?: string): Promise<ReadResourceResult>;
  /** The REST body behind a URI, for what embeds resources (prompts); throws the operation's AppError. */
  body(uri: string, caller: Caller): Promise<unknown>;
}

const FIXED: readonly Resource[] = [
  {
    uri: OPEN_TASKS_URI,
    name: 'open-tasks',
    title: 'Open tasks',
    description:
      'The first page of the open tasks, oldest first, as GET /tasks?status=open answers it. When `nextCursor` is not null, read `tasks://open?cursor={nextCursor}` for the next page.',
    mimeType: JSON_TYPE,
  },
  {
    uri: USAGE_URI,
    name: 'usage',
    title: 'Usage and budgets',
    description: 'What the account uses of its caps and its request budgets (the account’s windows and this client’s), as GET /me/usage answers it.',
    mimeType: JSON_TYPE,
  },
];

const TEMPLATES: readonly ResourceTemplate[] = [
  {
    uriTemplate: TASK_TEMPLATE,
    name: 'task',
    title: 'A task',
    description: 'One task of the account, as GET /tasks/{taskId} answers it. `taskId` completes from the titles of the account’s tasks.',
    mimeType: JSON_TYPE,
  },
];

/** Tasks listed per `resources/list` page: names only, so a larger page than listTasks' default. */
const LIST_PAGE_SIZE = 100;

export function createResources(runOperation: RunOperation, logger: Logger): Resources {
  const body = async (uri: string, caller: Caller) => {
    const operation = operationOf(uri);
    if (!operation) throw invalidParams(`Resource not found: ${uri}`, { uri });
    return runOperation(operation.operationId, caller, operation.request);
  };

  return {
    templates: TEMPLATES,
    async list(cursor, caller, requestId) {
      try {
        const page = await taskPage(runOperation, caller, { status: 'all', limit: LIST_PAGE_SIZE, cursor });
        const tasks = page.items.map(toListedResource);
        return { resources: cursor ? tasks : [...FIXED, ...tasks], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      } catch (err) {
        throw toRpcError(err, logger, cursor ? { cursor } : {}, requestId);
      }
    },
    async read(uri, caller, requestId) {
      try {
        return { contents: [jsonContents(uri, await body(uri, caller))] };
      } catch (err) {
        throw toRpcError(err, logger, { uri }, requestId);
      }
    },
    body,
  };
}

/** A resource's contents: its REST body as JSON text. */
export function jsonContents(uri: string, body: unknown): TextResourceContents {
  return { uri, mimeType: JSON_TYPE, text: JSON.stringify(body) };
}

function toListedResource(task: Task): Resource {
  return {
    uri: taskUri(task.id),
    name: task.title,
    description: `${task.status}, priority ${task.priority}${task.dueAt ? `, due ${task.dueAt}` : ''}`,
    mimeType: JSON_TYPE,
    annotations: { lastModified: task.updatedAt },
  };
}

const TASK_URI = /^task:\/\/([^/?#]+)$/;
const OPEN_TASKS = /^tasks:\/\/open(?:\?cursor=([^&#]+))?$/;

/** Which operation a URI reads, and with what; undefined when it names no resource of ours. */
function operationOf(uri: string): { operationId: OperationId; request: OperationRequest } | undefined {
  if (uri === USAGE_URI) return { operationId: 'getUsage', request: { path: {}, query: {} } };
  const task = TASK_URI.exec(uri);
  if (task) return { operationId: 'getTask', request: { path: { taskId: decoded(task[1]!) }, query: {} } };
  const open = OPEN_TASKS.exec(uri);
  if (open) {
    const query: Record<string, unknown> = { status: 'open' };
    if (open[1]) query.cursor = decoded(open[1]);
    return { operationId: 'listTasks', request: { path: {}, query } };
  }
  return undefined;
}

/** A percent-encoded part of a URI as text; left as it is when it is not valid percent-encoding (the operation's schema then judges it). */
function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
