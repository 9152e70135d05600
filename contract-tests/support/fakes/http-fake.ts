import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

export interface HttpFake {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  requests: RecordedRequest[];
  close: () => Promise<void>;
}

/** A provider stand-in on 127.0.0.1; requests are recorded; `close` also drops connections left hanging. */
export async function startHttpFake(handle: (req: IncomingMessage, res: ServerResponse, url: URL) => void): Promise<HttpFake> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake.invalid');
    requests.push({ method: req.method ?? 'GET', path: `${url.pathname}${url.search}`, headers: req.headers });
    handle(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
