import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd } from '../support/limits.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let strict: TestServer;
beforeAll(async () => {
  [server, strict] = await Promise.all([startServer(), startServer({ env: { RATE_LIMIT_STRICT_BURST_PER_MINUTE: '3' } })]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), strict?.stop()]);
});

/** Opens a request whose headers promise a body that never comes; resolves with the raw answer, if any. */
function heldRequest(target: TestServer, path: string, contentLength = 100): { socket: Socket; answer: Promise<string> } {
  const socket = connect(target.port, '127.0.0.1');
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\n\r\n`);
  let received = '';
  const answer = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (/\r\n\r\n[\s\S]*\}/.test(received)) resolve(received);
    });
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  return { socket, answer };
}

const post = (target: TestServer, path: string, body: string, type = 'application/json') =>
  fetch(`${target.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': type }, body });

describe('a request is counted before its body is read', () => {
  it('sign-in, refresh and OAuth bodies over 16 KiB are refused with 413, in the common body with the rate-limit headers', async () => {
    const padding = 'x'.repeat(17 * 1024);
    const answers = await Promise.all([
      post(server, '/auth/login', JSON.stringify({ email: 'a@example.com', password: padding })),
      post(server, '/auth/register', JSON.stringify({ email: 'a@example.com', password: 'long enough', name: padding })),
      post(server, '/auth/refresh', JSON.stringify({ refreshToken: padding })),
      post(server, '/oauth/token', new URLSearchParams({ grant_type: 'refresh_token', client_id: 'taskctl', refresh_token: padding }).toString(), 'application/x-www-form-urlencoded'),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(413);
      expect(await answer.json()).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE', message: expect.stringContaining('16 KiB') });
      expect(answer.headers.get('x-ratelimit-remaining')).not.toBeNull();
    }
  });

  it('a request whose body never arrives is counted when its headers do, and a spent budget answers 429 without waiting for the body', async () => {
    await awayFromMinuteEnd();
    const held = [heldRequest(strict, '/auth/login'), heldRequest(strict, '/auth/login'), heldRequest(strict, '/auth/login')];
    await new Promise((resolve) => setTimeout(resolve, 500));
    try {
      const refused = heldRequest(strict, '/auth/login');
      const answer = await Promise.race([refused.answer, new Promise<string>((resolve) => setTimeout(() => resolve('no answer within 3 s'), 3000))]);
      refused.socket.destroy();
      expect(answer).toMatch(/^HTTP\/1\.1 429 /);
      expect(answer).toMatch(/"code":"RATE_LIMIT_EXCEEDED"/);
      expect(answer).toMatch(/"window":"strict-burst"/);
    } finally {
      for (const { socket } of held) socket.destroy();
    }
  });
});

/** A POST that announces its body and waits, as a client sending `Expect: 100-continue` does: what comes back before the body is sent. */
function expectingContinue(target: TestServer, path: string, contentLength: number): { socket: Socket; first: Promise<string> } {
  const socket = connect(target.port, '127.0.0.1');
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${contentLength}\r\nExpect: 100-continue\r\n\r\n`);
  const first = new Promise<string>((resolve) => {
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      if (/^HTTP\/1\.1 100 /.test(received) ? received.includes('\r\n\r\n') : /\r\n\r\n[\s\S]*\}/.test(received)) resolve(received);
    });
    socket.on('close', () => resolve(received));
    socket.on('error', () => resolve(received));
  });
  return { socket, first };
}

describe('a client that waits for 100 Continue (docs/security.md: over the limit, refused without reading a byte)', () => {
  it('announcing a body over the limit gets 413 at once, never 100 Continue', async () => {
    const { socket, first } = expectingContinue(server, '/auth/login', 17 * 1024);
    try {
      const answer = await first;
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).not.toContain('100 Continue');
      expect(answer).toContain('"code":"PAYLOAD_TOO_LARGE"');
    } finally {
      socket.destroy();
    }
  });

  it('announcing a body within the limit is invited with 100 Continue, then answered', async () => {
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
    const { socket, first } = expectingContinue(server, '/auth/login', Buffer.byteLength(body));
    try {
      expect(await first).toBe('HTTP/1.1 100 Continue\r\n\r\n');
      const answer = new Promise<string>((resolve) => {
        let received = '';
        socket.on('data', (chunk) => {
          received += chunk.toString('latin1');
          if (/\r\n\r\n[\s\S]*\}/.test(received)) resolve(received);
        });
      });
      socket.write(body);
      expect(await answer).toMatch(/^HTTP\/1\.1 401 [\s\S]*"code":"INVALID_CREDENTIALS"/);
    } finally {
      socket.destroy();
    }
  });
});
