import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { ErrorCode, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../http/caller.js';
import { isDatabaseUnavailable } from '../platform/database-errors.js';
import { AppError, errors } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { describeTools, toListedTool, toOperationRequest, type DescribedTool, type OperationId } from './tool-catalogue.js';
import type { RunOperation } from './tool-operations.js';
import { toolErrorResult, toolResult } from './tool-results.js';

export interface ToolCalls {
  /** The `tools/list` answer, made once from the document. */
  readonly listed: readonly Tool[];
  /** Runs a tool for the caller; `refusal` is a rate-limit answer that stands in for the run. */
  call: (name: string, args: Record<string, unknown> | undefined, caller: Caller, refusal?: AppError) => Promise<CallToolResult>;
}

interface Runnable {
  tool: DescribedTool;
  validate: ValidateFunction;
  run: RunOperation;
}

/** The tools of the catalogue bound to the operations that run them, their arguments checked as REST checks them. */
export function createToolCalls(document: object, operations: Partial<Record<OperationId, RunOperation>>, logger: Logger): ToolCalls {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv, { mode: 'full' });
  const tools = new Map<string, Runnable>();
  for (const tool of describeTools(document)) {
    const run = operations[tool.operationId];
    if (!run) throw new Error(`No operation runs the tool ${tool.name}`);
    tools.set(tool.name, { tool, validate: ajv.compile(tool.inputSchema), run });
  }
  const listed = Object.freeze([...tools.values()].map(({ tool }) => toListedTool(tool)));

  return {
    listed,
    async call(name, args = {}, caller, refusal) {
      const runnable = tools.get(name);
      // A JSON-RPC error, as the protocol has it for a tool that does not exist.
      if (!runnable) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      if (refusal) return toolErrorResult(refusal.toBody());
      const { tool, validate, run } = runnable;
      if (tool.requiredScope && !caller.scopes.includes(tool.requiredScope)) {
        return toolErrorResult(errors.insufficientScope(tool.requiredScope).toBody());
      }
      if (!validate(args)) return toolErrorResult(errors.validation((validate.errors ?? []).map(toDetail), 'The arguments do not match the tool’s input schema.').toBody());
      try {
        return toolResult(tool.name, await run(caller, toOperationRequest(tool, args)));
      } catch (err) {
        if (err instanceof AppError) return toolErrorResult(err.toBody());
        if (isDatabaseUnavailable(err)) return toolErrorResult(errors.serviceUnavailable().toBody());
        logger.error({ err, tool: name }, 'tool call failed');
        return toolErrorResult(errors.internal().toBody());
      }
    },
  };
}

function toDetail(error: ErrorObject): { path: string; message: string } {
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  const path = `${error.instancePath}${missing ? `/${missing}` : ''}${extra ? `/${extra}` : ''}`;
  return { path: path || '/', message: extra ? 'is not an argument of this tool' : (error.message ?? 'is invalid') };
}
