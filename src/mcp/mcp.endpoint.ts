import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type Implementation,
  type RequestId,
  type ServerCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { callerOf, type Caller } from '../http/caller.js';
import { requestIdOf } from '../http/request-log.js';
import { callerIn } from '../http/request-state.js';
import { AppError } from '../platform/errors.js';
import type { Complete } from './completions.js';
import type { Prompts } from './prompt-gets.js';
import type { Resources } from './resource-reads.js';
import { createStatelessTransport } from './stateless-transport.js';
import type { ToolCalls } from './tool-calls.js';

/** What /mcp serves: the tools, the resources, the prompts and the completions of their arguments. */
export interface McpFeatures {
  tools: ToolCalls;
  resources: Resources;
  prompts: Prompts;
  complete: Complete;
}

/**
 * No `listChanged` (nothing changes while the server runs) and no resource subscriptions: stateless,
 * each POST answered with one JSON body, there is no stream to notify on. `logging` only takes the level
 * (the SDK's server answers logging/setLevel): nothing here sends log messages.
 */
const CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
  logging: {},
};

const INSTRUCTIONS =
  'Tools over the signed-in account of the Task Service: its tasks, connected accounts and sync jobs. ' +
  'A refused call answers with `code` in its structured content; on RATE_LIMIT_EXCEEDED wait `retryAfterSeconds` before calling again. ' +
  'Resources: task://{taskId} (one task), tasks://open (the open tasks, a page at a time) and usage://me (caps and budgets), as the REST API answers them.';

/** Who a message of /mcp runs for, and the rate-limit refusal that stands in for a tool call. */
interface CallContext {
  caller: Caller;
  refusal?: AppError;
  /** The POST's request id, carried by the line logged when a message fails (mcp/failure-log.ts). */
  requestId?: string;
}

/**
 * POST /mcp, the handle step of its route (after the caller is identified and the budgets are spent):
 * one SDK server, its handlers registered once, for every request; stateless (stateless-transport.ts),
 * each request's handler reads its caller from the POST it came in.
 */
export function createMcpHandlers({ tools, resources, prompts, complete }: McpFeatures, serverInfo: Implementation): { handle: RequestHandler; renderRefusal: ErrorRequestHandler } {
  const { transport, answer, contextOf } = createStatelessTransport<CallContext>();
  const server = new Server(serverInfo, { capabilities: CAPABILITIES, instructions: INSTRUCTIONS });
  const contextOfRequest = (extra: { requestId: RequestId }) => contextOf(extra.requestId);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.listed] }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    const { caller, refusal, requestId } = contextOf(extra.requestId);
    return tools.call(request.params.name, request.params.arguments, caller, refusal, requestId);
  });
  server.setRequestHandler(ListResourcesRequestSchema, (request, extra) => {
    const { caller, requestId } = contextOfRequest(extra);
    return resources.list(request.params?.cursor, caller, requestId);
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: [...resources.templates] }));
  server.setRequestHandler(ReadResourceRequestSchema, (request, extra) => {
    const { caller, requestId } = contextOfRequest(extra);
    return resources.read(request.params.uri, caller, requestId);
  });
  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [...prompts.listed] }));
  server.setRequestHandler(GetPromptRequestSchema, (request, extra) => {
    const { caller, requestId } = contextOfRequest(extra);
    return prompts.get(request.params.name, request.params.arguments, caller, requestId);
  });
  server.setRequestHandler(CompleteRequestSchema, (request, extra) => {
    const { caller, requestId } = contextOfRequest(extra);
    return complete(request.params, caller, requestId);
  });
  const connected = server.connect(transport);
  const serve = async (req: Request, res: Response, caller: Caller, refusal?: AppError) => {
    await connected;
    await answer(req, res, { caller, refusal, requestId: requestIdOf(req) });
  };

  const renderRefusal: ErrorRequestHandler = async function renderRefusedToolCall(err: unknown, req, res, next) {
    const isRateLimit = err instanceof AppError && err.code === 'RATE_LIMIT_EXCEEDED';
    const caller = callerIn(res.locals.identity);
    if (!isRateLimit || !caller || res.headersSent) return next(err);
    // The limiter refuses before any body is read; a tool call's answer needs its id, so a small one is read here.
    if (req.body === undefined && !(await readSmallJsonBody(req, res))) return next(err);
    if (!isToolCall(req.body)) return next(err);
    // The HTTP answer keeps what a REST 429 says in its headers; the model reads the result.
    for (const [name, value] of Object.entries(err.headers)) res.setHeader(name, value);
    try {
      await serve(req, res, caller, err);
    } catch (error) {
      next(error);
    }
  };

  // Stateless: no stream to open with GET and no session to end with DELETE (the document has POST only: a 405).
  const handle: RequestHandler = async function handleMcpMessage(req, res) {
    await serve(req, res, callerOf(res.locals.identity));
  };

  return { handle, renderRefusal };
}

const REFUSED_BODY_LIMIT = '64kb';
const smallJson = express.json({ limit: REFUSED_BODY_LIMIT });

/** Parses a JSON body of at most 64 KiB; false when it is larger or not JSON (the refusal then stays a 429). */
function readSmallJsonBody(req: Request, res: Response): Promise<boolean> {
  return new Promise((resolve) => smallJson(req, res, (parseError?: unknown) => resolve(!parseError && req.body !== undefined)));
}

function isToolCall(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === 'tools/call';
}
