import type { Command } from 'commander';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describeTools, toListedTool, toOperationRequest, type DescribedTool } from '../../../src/mcp/tool-catalogue.js';
import { toolErrorResult, toolResult } from '../../../src/mcp/tool-results.js';
import type { Context } from '../context.js';
import { CliError } from '../errors.js';

type WithContext = (action: (context: Context, ...args: never[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;
type ErrorBody = Parameters<typeof toolErrorResult>[0];

export function mcpCommand(program: Command, run: WithContext): void {
  program
    .command('mcp')
    .description("Serve the Task Service's MCP tools over stdio with the saved login (for MCP hosts that start local servers)")
    .addHelpText(
      'after',
      '\nThe tools are those of the server\'s POST /mcp, described from its /openapi.json.\nIn an MCP host\'s configuration:\n  { "command": "npx", "args": ["taskctl", "mcp"] }',
    )
    .action(run(async (context) => serveMcp(context)));
}

/**
 * The tools of docs/signing-in.md, described by the catalogue the server uses (from the server's own
 * OpenAPI document) and run as REST calls through the SDK with the saved login. A rate-limit or
 * cap refusal is a tool result the model can act on, never a wait: the host decides.
 */
async function serveMcp(context: Context): Promise<void> {
  const client = context.client({ waitOnThrottle: false });
  const response = await context.send(new Request(`${context.server}/openapi.json`, { headers: { accept: 'application/json' } }));
  if (!response.ok) throw new CliError(`Could not read ${context.server}/openapi.json (HTTP ${response.status}).`);
  const tools = new Map(describeTools((await response.json()) as object).map((tool) => [tool.name as string, tool]));

  const [{ Server }, { StdioServerTransport }, types] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const server = new Server({ name: 'taskctl', title: 'Task Service (taskctl)', version: '0.1.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(types.ListToolsRequestSchema, async () => ({ tools: [...tools.values()].map(toListedTool) }));
  server.setRequestHandler(types.CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = tools.get(request.params.name);
    if (!tool) throw new types.McpError(types.ErrorCode.InvalidParams, `Unknown tool ${request.params.name}.`);
    return callTool(client.api, tool, request.params.arguments ?? {});
  });

  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close();
}

type Api = ReturnType<Context['client']>['api'];

async function callTool(api: Api, tool: DescribedTool, args: Record<string, unknown>): Promise<CallToolResult> {
  const { path, query, body } = toOperationRequest(tool, args);
  const request = api.request as unknown as (
    method: string,
    url: string,
    init: { params: { path: Record<string, string>; query: Record<string, unknown> }; body?: unknown },
  ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
  const { data, error, response } = await request(tool.method, tool.path, { params: { path, query }, ...(body ? { body } : {}) });
  if (response.ok) return toolResult(tool.name, response.status === 204 ? undefined : data);
  const errorBody =
    typeof error === 'object' && error !== null && 'code' in error
      ? (error as ErrorBody)
      : ({ statusCode: response.status, code: 'INTERNAL_ERROR', message: `HTTP ${response.status}` } as ErrorBody);
  return toolErrorResult(errorBody);
}
