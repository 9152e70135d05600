import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { HTTP_HEADERS_TIMEOUT_SECONDS: '1', HTTP_REQUEST_TIMEOUT_SECONDS: '2' } });
});
afterAll(async () => {
  await server?.stop();
});

/** Writes raw bytes and collects everything the server sends until it closes the connection (or `waitMs` passes). */
function rawExchange(bytes: string, waitMs = 8000): Promise<{ answer: string; elapsedMs: number; closed: boolean }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    let answer = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer, elapsedMs: Date.now() - started, closed: false });
    }, waitMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ answer, elapsedMs: Date.now() - started, closed: true });
    });
    socket.on('error', () => undefined);
    socket.write(bytes);
  });
}

const bodyOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as Record<string, unknown>;

describe('slow and malformed requests', () => {
  it('a body promised by Content-Length that never comes is closed after HTTP_REQUEST_TIMEOUT_SECONDS with 408 in the common body', async () => {
    const { answer, elapsedMs, closed } = await rawExchange(
      'POST /tasks HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"title":',
    );
    expect(closed).toBe(true);
    expect(elapsedMs).toBeLessThan(5000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toEqual({ statusCode: 408, code: 'REQUEST_TIMEOUT', message: expect.any(String) });
  });

  it('headers that never end are closed after HTTP_HEADERS_TIMEOUT_SECONDS with 408', async () => {
    const { answer, elapsedMs, closed } = await rawExchange('GET /me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: 1\r\n');
    expect(closed).toBe(true);
    expect(elapsedMs).toBeLessThan(4000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(bodyOf(answer)).toMatchObject({ statusCode: 408, code: 'REQUEST_TIMEOUT' });
  });

  it('headers over 16 KiB get 431 HEADERS_TOO_LARGE, and bytes that are not HTTP get 400, both in the common body', async () => {
    const large = await rawExchange(`GET /me HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(large.answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(bodyOf(large.answer)).toMatchObject({ statusCode: 431, code: 'HEADERS_TOO_LARGE' });

    const garbage = await rawExchange('HELLO THERE\r\n\r\n');
    expect(garbage.answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(bodyOf(garbage.answer)).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
  });
});
