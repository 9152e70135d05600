import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { baseUrlOf } from '../test-support/app.js';
import { createHttpServer } from './http-server.js';

const limits = { HTTP_HEADERS_TIMEOUT_SECONDS: 5, HTTP_REQUEST_TIMEOUT_SECONDS: 5 };
// GET /stream begins a response and never ends it; any other request is answered at once.
const serve = () => createHttpServer((req, res) => (req.url === '/stream' ? res.writeHead(200).write('begun') : res.end('done')), limits).listen(0, '127.0.0.1');

/** On one connection: writes `request`, then `then` once the answer holds `seen`; everything the server sends until it closes. */
async function exchange(request: string, seen: string, then: string): Promise<string> {
  const { port } = new URL(await baseUrlOf(serve()));
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    let followed = false;
    socket.on('data', (chunk) => {
      answer += chunk;
      if (followed || !answer.includes(seen)) return;
      followed = true;
      socket.write(then);
    });
    socket.on('close', () => resolve(answer)).on('error', () => undefined);
    socket.write(request);
  });
}

describe('bytes that are not HTTP on a connection', () => {
  it('after a finished response are answered 400 in the common body, then the connection is closed', async () => {
    const answer = await exchange('GET /now HTTP/1.1\r\nHost: x\r\n\r\n', 'done', 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 [^]*done(HTTP\/1\.1 400 [^]*)$/);
    expect(answer).toContain('"code":"VALIDATION_FAILED"');
  });

  it('while a response is under way close the connection without writing into that response', async () => {
    const answer = await exchange('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n', 'begun', 'HELLO THERE\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 200 [^]*begun\r\n$/);
  });
});
