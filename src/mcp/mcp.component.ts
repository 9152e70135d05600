import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { CoreDeps } from '../deps.js';
import { ownResponse, type OperationEntry } from '../http/operations.js';
import type { RunOperation } from '../http/run-operation.js';
import { createDnsRebindingGuard } from './dns-rebinding.js';
import { createMcpHandlers } from './mcp.endpoint.js';
import { createCompletions, type TasksByPrefix } from './completions.js';
import { createPrompts } from './prompt-gets.js';
import { createResources } from './resource-reads.js';
import { createToolCalls } from './tool-calls.js';

export { mcpScopes } from './mcp-scopes.js';

export interface McpComponent {
  /** DNS-rebinding protection, the first step of /mcp's routes. */
  guard: RequestHandler;
  /** postMcpMessage, run once the caller is identified and the budgets are spent. */
  operations: OperationEntry[];
  /** /mcp's renderer of a refused `tools/call`: the tool's error result. */
  renderRefusal: ErrorRequestHandler;
}

/**
 * The service as a remote MCP server (docs/signing-in.md): the tools of the catalogue, the resources,
 * the prompts and the completions, run as REST operations through `runOperation` (a task id's completion,
 * one bounded query per keystroke, through the tasks component's `byPrefix`).
 */
export function createMcpComponent({ config, logger }: CoreDeps, openApiDocument: Record<string, unknown>, runOperation: RunOperation, tasksByPrefix: TasksByPrefix): McpComponent {
  const tools = createToolCalls(openApiDocument, runOperation, logger);
  const resources = createResources(runOperation, logger);
  const prompts = createPrompts(runOperation, resources, logger);
  const complete = createCompletions(tasksByPrefix, runOperation, prompts, logger);
  const info = openApiDocument.info as { version?: unknown } | undefined;
  const serverInfo = { name: 'task-service', title: 'Task Service', version: String(info?.version ?? '0.0.0') };
  const { handle, renderRefusal } = createMcpHandlers({ tools, resources, prompts, complete }, serverInfo);
  return { guard: createDnsRebindingGuard(config), operations: [ownResponse('postMcpMessage', handle)], renderRefusal };
}
