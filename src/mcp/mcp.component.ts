import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { CoreDeps } from '../deps.js';
import { createDnsRebindingGuard } from './dns-rebinding.js';
import { createMcpHandlers } from './mcp.routes.js';
import { createToolCalls } from './tool-calls.js';
import { createToolOperations, type ToolOperationParts } from './tool-operations.js';

export interface McpComponent {
  /** DNS-rebinding protection, mounted at /mcp before anything else. */
  guard: RequestHandler;
  /** Mounted at /mcp once the caller is identified and the budgets are spent. */
  handlers: (RequestHandler | ErrorRequestHandler)[];
}

/** The service as a remote MCP server (decisions §11): the tools of the catalogue over the components' operations. */
export function createMcpComponent({ config, logger }: CoreDeps, openApiDocument: Record<string, unknown>, parts: ToolOperationParts): McpComponent {
  const tools = createToolCalls(openApiDocument, createToolOperations(parts), logger);
  const info = openApiDocument.info as { version?: unknown } | undefined;
  const serverInfo = { name: 'task-service', title: 'Task Service', version: String(info?.version ?? '0.0.0') };
  return { guard: createDnsRebindingGuard(config), handlers: createMcpHandlers(tools, serverInfo) };
}
