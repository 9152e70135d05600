import { createServer, request as forward, type IncomingMessage, type Server } from 'node:http';

/** What the proxy does with one request: pass it on, answer for the server, or drop the connection. */
export type Fault = { kind: 'pass' } | { kind: 'drop' } | { kind: 'hang' } | { kind: 'answer'; status: number; headers?: Record<string, string>; body?: string };

export interface FaultProxy {
  baseUrl: string;
  /** Decides each request's fate; passes everything on until set. */
  setFault: (decide: ((req: IncomingMessage) => Fault) | undefined) => void;
  /** Rewrites a JSON answer from the server before the client sees it (e.g. older metadata). */
  setRewrite: (rewrite: ((path: string, body: Record<string, unknown>) => Record<string, unknown>) | undefined) => void;
  close: () => Promise<void>;
}

/**
 * A loopback proxy in front of the real server, for the failures a real server rarely gives on
 * cue: a 503 or a dropped connection at one endpoint. Passed-through requests keep their Host, so
 * the server's metadata names the proxy's address.
 */
export async function startFaultProxy(targetPort: () => number): Promise<FaultProxy> {
  let decide: ((req: IncomingMessage) => Fault) | undefined;
  let rewrite: ((path: string, body: Record<string, unknown>) => Record<string, unknown>) | undefined;
  const server: Server = createServer((req, res) => {
    const fault = decide?.(req) ?? { kind: 'pass' };
    if (fault.kind === 'drop') return void req.socket.destroy();
    // Never answers; close() ends the connection.
    if (fault.kind === 'hang') return void req.resume();
    if (fault.kind === 'answer') {
      req.resume();
      res.writeHead(fault.status, { 'content-type': 'application/json', ...fault.headers });
      return void res.end(fault.body ?? '');
    }
    const upstream = forward({ host: '127.0.0.1', port: targetPort(), method: req.method, path: req.url, headers: req.headers }, (answer) => {
      const path = new URL(req.url ?? '/', 'http://proxy').pathname;
      if (!rewrite || !(answer.headers['content-type'] ?? '').startsWith('application/json')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        return void answer.pipe(res);
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = JSON.stringify(rewrite!(path, JSON.parse(Buffer.concat(chunks).toString()) as Record<string, unknown>));
        const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(body)) };
        res.writeHead(answer.statusCode ?? 502, headers);
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    setFault: (next) => {
      decide = next;
    },
    setRewrite: (next) => {
      rewrite = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
