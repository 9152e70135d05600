import type { IncomingMessage } from 'node:http';

/**
 * `fetch` over node:http(s). Node 20's global fetch compiles undici and its WebAssembly parser on the
 * first request of every process, which for a CLI costs more than the request itself; node:http uses
 * the built-in parser. Errors are shaped like fetch's (TypeError "fetch failed" with the cause).
 */
export async function nodeFetch(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (body) headers['content-length'] = String(body.length);
  const transport = url.protocol === 'https:' ? await import('node:https') : await import('node:http');
  return new Promise<Response>((resolve, reject) => {
    const failed = (cause: unknown) => reject(Object.assign(new TypeError('fetch failed'), { cause }));
    const outgoing = transport.request(url, { method: request.method, headers, signal: request.signal }, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', failed);
      res.on('end', () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (Array.isArray(value)) for (const item of value) responseHeaders.append(name, item);
          else if (value !== undefined) responseHeaders.set(name, value);
        }
        const status = res.statusCode ?? 502;
        const noBody = status === 204 || status === 304 || request.method === 'HEAD';
        resolve(new Response(noBody ? null : Buffer.concat(chunks), { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
      });
    });
    outgoing.on('error', failed);
    outgoing.end(body);
  });
}
