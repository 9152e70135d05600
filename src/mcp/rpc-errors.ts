import { ErrorCode } from '@modelcontextprotocol/sdk/types.js';
import { AppError, errors } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { logFailure } from './failure-log.js';

/**
 * A JSON-RPC error answer of /mcp that is not a tool's: the SDK's server writes `code`, `message` and
 * `data` of what a request handler throws as they are (McpError would prefix its message with its code).
 */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * JSON-RPC's range for errors a server defines: a refusal that is not about the request's params (a
 * missing scope, a cap), with the REST error body in `data` so that a client acts on `data.code`.
 */
export const REFUSED = -32000;

/**
 * What a run operation threw, as the JSON-RPC error of a resource read, a prompt or a completion: the
 * REST error body in `data` (with what was asked for, e.g. `uri`), under -32602 when the params were at
 * fault (as the SDK's own server and SEP-2164 answer an unknown resource), -32603 for internals.
 */
export function toRpcError(err: unknown, logger: Logger, asked: Record<string, unknown>, requestId?: string): RpcError {
  if (err instanceof RpcError) return err;
  logFailure(logger, requestId, err, asked);
  const appError = err instanceof AppError ? err : errors.internal();
  const body = { ...appError.toBody(), ...asked, ...(appError.status >= 500 && requestId !== undefined ? { requestId } : {}) };
  if (appError.status >= 500) return new RpcError(ErrorCode.InternalError, appError.message, body);
  const paramsAtFault = appError.code === 'VALIDATION_FAILED' || appError.code === 'NOT_FOUND';
  return new RpcError(paramsAtFault ? ErrorCode.InvalidParams : REFUSED, appError.message, body);
}

/** -32602 for params that name nothing this server has (an unknown URI, prompt or argument). */
export function invalidParams(message: string, data?: Record<string, unknown>): RpcError {
  return new RpcError(ErrorCode.InvalidParams, message, data);
}
