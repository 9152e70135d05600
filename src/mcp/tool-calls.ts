import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../http/caller.js';
import type { RunOperation } from '../http/run-operation.js';
import { AppError, errors } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { logFailure } from './failure-log.js';
import { describeTools, toListedTool, toOperationRequest, type DescribedTool } from './tool-catalogue.js';
import { toolErrorResult, toolResult } from './tool-results.js';

export interface ToolCalls {
  /** The `tools/list` answer, made once from the document. */
  readonly listed: readonly Tool[];
  /** Runs a tool for the caller; `refusal` is a rate-limit answer that stands in for the run. */
  call: (name: string, args: Record<string, unknown> | undefined, caller: Caller, refusal?: AppError, requestId?: string) => Promise<CallToolResult>;
}

/**
 * The tools of the catalogue, each run as its REST operation through `runOperation` (http/run-operation.ts):
 * the same check of access, the same schemas, the same handler and the same errors as its route. A
 * refusal is the tool's error result, its details named by argument.
 */
export function createToolCalls(document: object, runOperation: RunOperation, logger: Logger): ToolCalls {
  const tools = new Map<string, DescribedTool>(describeTools(document).map((tool) => [tool.name, tool]));
  const listed = Object.freeze([...tools.values()].map(toListedTool));

  return {
    listed,
    async call(name, args = {}, caller, refusal, requestId) {
      const tool = tools.get(name);
      // A JSON-RPC error, as the protocol has it for a tool that does not exist.
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      if (refusal) return toolErrorResult(refusal.toBody());
      const unknown = Object.keys(args).filter((argument) => !(argument in (tool.inputSchema.properties ?? {})));
      if (unknown.length > 0) {
        return toolErrorResult(errors.validation(unknown.map((argument) => ({ path: `/${argument}`, message: 'is not an argument of this tool' })), ARGUMENTS_REFUSED).toBody());
      }
      try {
        return toolResult(tool.name, await runOperation(tool.operationId, caller, toOperationRequest(tool, args)));
      } catch (err) {
        logFailure(logger, requestId, err, { tool: name });
        const appError = err instanceof AppError ? err : errors.internal();
        return toolErrorResult(appError.status >= 500 && requestId !== undefined ? { ...appError.toBody(), requestId } : byArgument(appError));
      }
    },
  };
}

const ARGUMENTS_REFUSED = 'The arguments do not match the tool’s input schema.';

/** A tool's arguments are its operation's parameters and body fields side by side: `/body/priority` is the argument `/priority`. */
function byArgument(error: AppError) {
  const body = error.toBody();
  if (error.code !== 'VALIDATION_FAILED' || !body.details) return body;
  const details = body.details.map((detail) => ({ ...detail, path: detail.path.replace(/^\/(path|query|body)(?=\/|$)/, '') || '/' }));
  return { ...body, message: ARGUMENTS_REFUSED, details };
}
