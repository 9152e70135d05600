import type { IncomingMessage } from 'node:http';
import type { IssuedTokens, TaskClientOptions } from '@task-service/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, type Fault, type FaultProxy } from '../support/fault-proxy.js';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
let proxy: FaultProxy;
beforeAll(async () => {
  server = await startServer();
  // The SDK talks to the real server through a loopback proxy that can fail on cue.
  proxy = await startFaultProxy(() => server.port);
});
afterAll(async () => {
  await proxy?.close();
  await server?.stop();
});

/** The first `times` requests that match get `fault`; everything else passes. */
function failFirst(times: number, match: (req: IncomingMessage) => boolean, fault: Fault): void {
  let left = times;
  proxy.setFault((req) => (match(req) && left-- > 0 ? fault : { kind: 'pass' }));
}
const is = (method: string, path: string) => (req: IncomingMessage) => req.method === method && new URL(req.url!, 'http://x').pathname === path;

/** A signed-in client through the proxy that counts the requests it sends per "METHOD /path". */
async function proxiedClient(options: Partial<TaskClientOptions> = {}) {
  const { tokens } = await signedInClient(server);
  const sent: string[] = [];
  const client = server.client({
    baseUrl: proxy.baseUrl,
    accessToken: tokens.accessToken,
    refreshToken: tokens.refreshToken,
    fetch: (request) => {
      sent.push(`${request.method} ${new URL(request.url).pathname}`);
      return globalThis.fetch(request);
    },
    ...options,
  });
  return { client, sent };
}

describe('the SDK session keeps what a sign-in returns', () => {
  it('registerAccount and login keep their tokens (and report them); logout of the own session forgets them', async () => {
    const email = uniqueEmail();
    const reported: IssuedTokens[] = [];
    const registering = server.client({ onTokens: (tokens) => reported.push(tokens) });
    const registered = await registering.registerAccount({ email, password: PASSWORD });
    expect((await registering.getMe()).data?.email).toBe(email);
    expect(reported).toEqual([registered.data]);

    const signingIn = server.client();
    const login = await signingIn.login({ email, password: PASSWORD });
    expect(signingIn.accessToken).toBe(dataOf(login).accessToken);
    expect((await signingIn.getMe()).data?.email).toBe(email);

    expect((await signingIn.logout({ refreshToken: dataOf(login).refreshToken })).error).toBeUndefined();
    expect(signingIn.accessToken).toBeUndefined();
    expect(signingIn.refreshToken).toBeUndefined();
    // The other session is untouched.
    expect((await registering.getMe()).response.status).toBe(200);
  });

  it('a failed login leaves the signed-in session as it was', async () => {
    const { client, tokens } = await signedInClient(server);
    expect((await client.login({ email: uniqueEmail(), password: 'wrong password here' })).error?.status).toBe(401);
    expect(client.accessToken).toBe(tokens.accessToken);
  });
});

describe('abort and timeout', () => {
  it('timeoutMs (per call or client-wide) gives up on a server that does not answer, with a TimeoutError', async () => {
    const { client } = await proxiedClient();
    proxy.setFault((req) => (is('GET', '/me')(req) ? { kind: 'hang' } : { kind: 'pass' }));
    try {
      const started = Date.now();
      await expect(client.getMe({ timeoutMs: 300 })).rejects.toMatchObject({ name: 'TimeoutError' });
      expect(Date.now() - started).toBeLessThan(2_000);

      const { client: impatient } = await proxiedClient({ timeoutMs: 300 });
      await expect(impatient.getMe()).rejects.toMatchObject({ name: 'TimeoutError' });
    } finally {
      proxy.setFault(undefined);
    }
    expect((await client.getMe({ timeoutMs: 5_000 })).response.status).toBe(200);
  });

  it('an AbortSignal stops a call in flight, and a call waiting to retry', async () => {
    const { client } = await proxiedClient({ retry: true });
    proxy.setFault((req) => (is('GET', '/me')(req) ? { kind: 'hang' } : { kind: 'pass' }));
    try {
      await expect(client.getMe({ signal: AbortSignal.timeout(200) })).rejects.toMatchObject({ name: 'TimeoutError' });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      await expect(client.getMe({ signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });

      // A 429 asking for 30 s: the retry waits, and the abort ends the wait.
      proxy.setFault((req) =>
        is('GET', '/me')(req) ? { kind: 'answer', status: 429, headers: { 'retry-after': '30' }, body: '{"statusCode":429,"code":"RATE_LIMIT_EXCEEDED","message":"Slow down."}' } : { kind: 'pass' },
      );
      const waiting = new AbortController();
      setTimeout(() => waiting.abort(), 300);
      const started = Date.now();
      await expect(client.getMe({ signal: waiting.signal })).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      proxy.setFault(undefined);
    }
  });
});

describe('the opt-in retry', () => {
  const answer = (status: number, retryAfter?: string): Fault => ({
    kind: 'answer',
    status,
    headers: retryAfter ? { 'retry-after': retryAfter } : {},
    body: JSON.stringify({ statusCode: status, code: status === 429 ? 'RATE_LIMIT_EXCEEDED' : 'SERVICE_UNAVAILABLE', message: 'Later.' }),
  });

  it.each([429, 503])('retries a %i after its Retry-After, and not sooner', async (status) => {
    const { client, sent } = await proxiedClient({ retry: true });
    failFirst(1, is('GET', '/tasks'), answer(status, '1'));
    const started = Date.now();
    const listed = await client.listTasks();
    proxy.setFault(undefined);
    expect(listed.response.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(sent.filter((line) => line === 'GET /tasks')).toHaveLength(2);
  });

  it('hands back a 503 without Retry-After, and a Retry-After longer than maxDelaySeconds, at once', async () => {
    const { client, sent } = await proxiedClient({ retry: { maxDelaySeconds: 5 } });
    failFirst(1, is('GET', '/tasks'), answer(503));
    expect((await client.listTasks()).error?.status).toBe(503);
    failFirst(1, is('GET', '/tasks'), answer(429, '60'));
    const started = Date.now();
    expect((await client.listTasks()).error).toMatchObject({ status: 429, retryAfterSeconds: 60 });
    expect(Date.now() - started).toBeLessThan(1_000);
    proxy.setFault(undefined);
    expect(sent.filter((line) => line === 'GET /tasks')).toHaveLength(2);
  });

  it('retries a network error for a GET and for a create with an Idempotency-Key, never for a plain POST', async () => {
    const { client, sent } = await proxiedClient({ retry: true });
    failFirst(1, is('GET', '/tasks'), { kind: 'drop' });
    expect((await client.listTasks()).response.status).toBe(200);
    expect(sent.filter((line) => line === 'GET /tasks')).toHaveLength(2);

    failFirst(1, is('POST', '/tasks'), { kind: 'drop' });
    await expect(client.createTask({ title: 'plain' })).rejects.toThrow();
    expect(sent.filter((line) => line === 'POST /tasks')).toHaveLength(1);

    failFirst(1, is('POST', '/tasks'), { kind: 'drop' });
    const created = await client.createTask({ title: 'keyed' }, { idempotencyKey: `key-${Date.now()}` });
    proxy.setFault(undefined);
    expect(created.response.status).toBe(201);
    expect(sent.filter((line) => line === 'POST /tasks')).toHaveLength(3);
    const titles = dataOf(await client.listTasks()).items.map((task) => task.title);
    expect(titles).toEqual(['keyed']);
  });

  it('without retry, a network error is thrown at once', async () => {
    const { client, sent } = await proxiedClient();
    failFirst(1, is('GET', '/tasks'), { kind: 'drop' });
    await expect(client.listTasks()).rejects.toThrow();
    proxy.setFault(undefined);
    expect(sent).toEqual(['GET /tasks']);
  });
});
