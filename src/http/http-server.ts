import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config.js';
import { messageClassesOf } from './message-classes.js';
import { errors, type AppError } from '../platform/errors.js';

/** How often Node looks for requests past their timeouts (its default, 30 s, would let a 10 s limit run to 40 s). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * The HTTP server with bounded header and request times, so a request that never finishes its body
 * is closed (it was counted by the rate limits when its headers arrived), and with the parser's own
 * refusals answered in the common error body instead of Node's bare status line.
 */
export function createHttpServer(app: RequestListener, config: Pick<Config, 'HTTP_HEADERS_TIMEOUT_SECONDS' | 'HTTP_REQUEST_TIMEOUT_SECONDS'>): Server {
  const server = createServer(
    {
      headersTimeout: config.HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeout: config.HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS,
      ...messageClassesOf(app),
    },
    app,
  );
  server.on('request', trackResponse);
  // `Expect: 100-continue`: no automatic `100 Continue`; the read-the-body step sends it for a body it
  // will read (src/http/body-parsing.ts), so a refusal (413, 401, 429) comes before any byte is sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => server.emit('request', req, res));
  server.on('clientError', answerClientError);
  return server;
}

/** Each socket's responses not yet finished, oldest first: Node answers a socket's requests in order, so the first is on the wire. */
const unfinished = new WeakMap<Socket, ServerResponse[]>();

function trackResponse(req: IncomingMessage, res: ServerResponse): void {
  const responses = unfinished.get(req.socket);
  if (!responses) return void unfinished.set(req.socket, [res]);
  while (responses[0]?.writableFinished) responses.shift();
  responses.push(res);
}

const REFUSALS: Record<string, () => AppError> = {
  ERR_HTTP_REQUEST_TIMEOUT: errors.requestTimeout,
  HPE_HEADER_OVERFLOW: errors.headersTooLarge,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: errors.chunkExtensionsTooLarge,
};

/** Node's default handler, with our body: nothing once a response has begun or the socket is gone. */
function answerClientError(err: Error & { code?: string }, socket: Socket): void {
  const onTheWire = unfinished.get(socket)?.find((res) => !res.writableFinished);
  if (err.code === 'ECONNRESET' || !socket.writable || onTheWire?.headersSent) {
    socket.destroy();
    return;
  }
  const refusal = (REFUSALS[err.code ?? ''] ?? errors.notHttp)();
  const { status } = refusal;
  const body = JSON.stringify(refusal.toBody());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
