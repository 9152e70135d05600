import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { CallToolRequestSchema, ListToolsRequestSchema, type Implementation } from '@modelcontextprotocol/sdk/types.js';
import { callerOf, type Caller } from '../http/caller.js';
import { callerIn } from '../http/request-state.js';
import { AppError } from '../platform/errors.js';
import type { ToolCalls } from './tool-calls.js';

const INSTRUCTIONS =
  'Tools over the signed-in account of the Task Service: its tasks, connected accounts and sync jobs. ' +
  'A refused call answers with `code` in its structured content; on RATE_LIMIT_EXCEEDED wait `retryAfterSeconds` before calling again.';

/**
 * POST /mcp, the handle step of its route (after the caller is identified and the budgets are spent):
 * a stateless Streamable HTTP server (a fresh SDK server and transport per request, as the SDK requires
 * without sessions). `renderRefusal`, the route's MCP-style renderer, turns a spent-out budget into the
 * tool result of a `tools/call`.
 */
export function createMcpHandlers(tools: ToolCalls, serverInfo: Implementation): { handle: RequestHandler; renderRefusal: ErrorRequestHandler } {
  // Shared: left to itself, every SDK server builds an Ajv of its own, which costs more than the rest of a call.
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const serve = async (req: Request, res: Response, caller: Caller, refusal?: AppError) => {
    const server = new Server(serverInfo, { capabilities: { tools: { listChanged: false } }, instructions: INSTRUCTIONS, jsonSchemaValidator });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.listed] }));
    server.setRequestHandler(CallToolRequestSchema, (request) => tools.call(request.params.name, request.params.arguments, caller, refusal));
    // One JSON answer per POST, no event stream: the tools answer at once and send no notifications.
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
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
