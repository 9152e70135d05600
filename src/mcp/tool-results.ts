import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { components } from '../../generated/api.js';
import type { ToolName } from './tool-catalogue.js';

type Schemas = components['schemas'];

/**
 * A tool's answer: `structuredContent` is the REST operation's response body, and the text says what it
 * holds in a short line (the data itself is in the structured content, not serialised a second time).
 * Pure, like the catalogue: whoever runs the tools (the server, `taskctl mcp`) answers alike.
 */
export function toolResult(name: ToolName, body: unknown): CallToolResult {
  const line = summary(name, body);
  if (body === undefined) return { content: [{ type: 'text', text: line }] };
  return { content: [{ type: 'text', text: line }], structuredContent: body as Record<string, unknown> };
}

/** A refusal the model can act on: the common error body (code, and retryAfterSeconds, window, requiredScope... as REST gives them). */
export function toolErrorResult(error: Schemas['Error']): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `${error.code}: ${error.message}${retryHint(error)}` }],
    structuredContent: error as unknown as Record<string, unknown>,
  };
}

const retryHint = (error: Schemas['Error']) =>
  typeof error.retryAfterSeconds === 'number' ? ` Retry after ${error.retryAfterSeconds} seconds.` : '';

function summary(name: ToolName, body: unknown): string {
  switch (name) {
    case 'list_tasks': {
      const page = body as Schemas['TaskList'];
      return `${count(page.items.length, 'task')} on this page${page.nextCursor ? '; more with cursor=' + page.nextCursor : ', the last page'}.`;
    }
    case 'get_task':
    case 'create_task':
    case 'update_task': {
      const task = body as Schemas['Task'];
      return `Task ${task.id} "${task.title}": ${task.status}, priority ${task.priority}${task.dueAt ? `, due ${task.dueAt}` : ''}, version ${task.version}.`;
    }
    case 'delete_task':
      return 'Task deleted.';
    case 'get_usage': {
      const usage = body as Schemas['Usage'];
      const { burst } = usage.rateLimits.client;
      return `Tasks: ${usage.tasks.used} of ${usage.tasks.limit}; this client has ${burst.remaining} of ${burst.limit} requests left this minute.`;
    }
    case 'list_connector_accounts':
      return `${count((body as Schemas['ConnectorAccountList']).items.length, 'connected account')}.`;
    case 'start_sync':
    case 'get_sync_job': {
      const job = body as Schemas['SyncJob'];
      return `Sync job ${job.id}: ${job.status}${job.error ? ` (${job.error})` : ''}.`;
    }
  }
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
