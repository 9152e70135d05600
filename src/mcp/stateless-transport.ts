import type { Request, Response } from 'express';
import { MAX_BATCH_SIZE } from '@modelcontextprotocol/sdk/server/requestBody.js';
import { isJsonContentType } from '@modelcontextprotocol/sdk/shared/mediaType.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  isInitializeRequest,
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';

/**
 * Streamable HTTP, stateless, one JSON body per POST, for one SDK server that lives as long as the
 * process. The SDK's StreamableHTTPServerTransport takes one POST per transport, so it needs a server
 * per request too, and goes through Web Request and Response objects: together most of what a
 * JSON-RPC request cost over its REST call (docs/benchmarks.md#mcp). This answers what it answers,
 * check for check and word for word (contract-tests/mcp/transport.test.ts), with the SDK's own
 * schemas, limits and media-type rule.
 */
export interface StatelessTransport<Context> {
  /** What the one server connects to, once. */
  readonly transport: Transport;
  /** Answers one POST /mcp whose JSON body is parsed: its requests run on the server for `context`. */
  answer(req: Request, res: Response, context: Context): Promise<void>;
  /** The context of the POST that a request, by the id the server was handed, came in. */
  contextOf(requestId: RequestId): Context;
}

interface InFlight<Context> {
  /** The id the client gave the request; the server sees one of ours, unique across POSTs. */
  clientId: RequestId;
  context: Context;
  answered: (response: JSONRPCMessage) => void;
}

export function createStatelessTransport<Context>(): StatelessTransport<Context> {
  const inFlight = new Map<RequestId, InFlight<Context>>();
  let lastId = 0;

  const transport: Transport = {
    async start() {},
    async close() {
      transport.onclose?.();
    },
    async send(message) {
      // Answers only: the server sends no requests and no notifications of its own (there is no stream to carry them).
      if (!isResponse(message)) return;
      const call = inFlight.get(message.id);
      if (!call) return;
      inFlight.delete(message.id);
      call.answered({ ...message, id: call.clientId });
    },
  };

  /** Hands a request to the server under an id of ours: two clients' POSTs may carry the same ids at once. */
  const run = (request: JSONRPCRequest, context: Context) =>
    new Promise<JSONRPCMessage>((answered) => {
      const id = ++lastId;
      inFlight.set(id, { clientId: request.id, context, answered });
      try {
        // No requestInfo: the SDK's server keys logging levels by the Mcp-Session-Id header it would carry,
        // and with one server for every client that map would keep every id a client made up.
        transport.onmessage?.({ ...request, id });
      } catch (error) {
        inFlight.delete(id);
        throw error;
      }
    });

  return {
    transport,
    contextOf(requestId) {
      const call = inFlight.get(requestId);
      if (!call) throw new Error(`No request ${String(requestId)} is in flight`);
      return call.context;
    },
    async answer(req, res, context) {
      const read = readMessages(req);
      if ('refusal' in read) return writeRefusal(res, read.refusal);
      const requests = read.messages.filter(isRequest);
      // Notifications and responses alone are accepted and not handed on: in a stateless server they can change
      // nothing (a cancellation could only name a request of another POST; the server sends no requests to answer).
      if (requests.length === 0) {
        res.writeHead(202).end();
        return;
      }
      try {
        const answers = await Promise.all(requests.map((request) => run(request, context)));
        writeJson(res, 200, answers.length === 1 ? answers[0] : answers);
      } catch (error) {
        writeRefusal(res, { status: 400, code: -32700, message: 'Parse error', data: String(error) });
      }
    },
  };
}

interface Refusal {
  status: number;
  code: number;
  message: string;
  data?: string;
}

const NOT_ACCEPTABLE = 'Not Acceptable: Client must accept both application/json and text/event-stream';
const UNSUPPORTED_MEDIA_TYPE = 'Unsupported Media Type: Content-Type must be application/json';

/** The POST's JSON-RPC messages, or why the transport refuses it, in the order the SDK's transport checks. */
function readMessages(req: Request): { messages: JSONRPCMessage[] } | { refusal: Refusal } {
  const accept = req.headers.accept;
  // A list of media ranges: the SDK's transport looks for both as substrings, and so does this.
  if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) return { refusal: { status: 406, code: -32000, message: NOT_ACCEPTABLE } };
  if (!isJsonContentType(req.headers['content-type'] ?? null)) return { refusal: { status: 415, code: -32000, message: UNSUPPORTED_MEDIA_TYPE } };
  const body: unknown = req.body;
  if (body === undefined) return { refusal: { status: 400, code: -32700, message: 'Parse error: Invalid JSON' } };
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
    return { refusal: { status: 400, code: -32600, message: `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages` } };
  }
  let messages: JSONRPCMessage[];
  try {
    messages = (Array.isArray(body) ? body : [body]).map((message) => JSONRPCMessageSchema.parse(message));
  } catch {
    return { refusal: { status: 400, code: -32700, message: 'Parse error: Invalid JSON-RPC message' } };
  }
  const initializing = messages.some((message) => 'method' in message && message.method === 'initialize' && isInitializeRequest(message));
  if (initializing && messages.length > 1) return { refusal: { status: 400, code: -32600, message: 'Invalid Request: Only one initialization request is allowed' } };
  const version = req.headers['mcp-protocol-version'];
  if (!initializing && typeof version === 'string' && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    const message = `Bad Request: Unsupported protocol version: ${version} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')})`;
    return { refusal: { status: 400, code: -32000, message } };
  }
  return { messages };
}

// The messages are the schema's already: what tells them apart is which members they have.
const isRequest = (message: JSONRPCMessage): message is JSONRPCRequest => 'method' in message && 'id' in message;
const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } => 'id' in message && !('method' in message);

function writeRefusal(res: Response, { status, code, message, data }: Refusal): void {
  writeJson(res, status, { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id: null });
}

function writeJson(res: Response, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
