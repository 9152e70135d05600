import { createServer, STATUS_CODES, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { RequestListener } from 'node:http';
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
  server.on('clientError', answerClientError);
  return server;
}

interface ClientError extends Error {
  code?: string;
}

const REFUSALS: Record<string, () => AppError> = {
  ERR_HTTP_REQUEST_TIMEOUT: errors.requestTimeout,
  HPE_HEADER_OVERFLOW: errors.headersTooLarge,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: errors.chunkExtensionsTooLarge,
};

/** Node's default handler, with our body: nothing once a response has begun or the socket is gone. */
export function answerClientError(err: ClientError, socket: Socket): void {
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || response?.headersSent) {
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
