import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd } from '../support/limits.js';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer, dataOf } from '../support/server.js';

const STRICT_BURST = 6;
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_STRICT_BURST_PER_MINUTE: String(STRICT_BURST) } });
});
afterAll(async () => {
  await server?.stop();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface LogLine {
  msg?: string;
  requestId?: string;
  [field: string]: unknown;
}

const parsedLogs = (): LogLine[] =>
  server.logs.flatMap((line) => {
    try {
      return [JSON.parse(line) as LogLine];
    } catch {
      return [];
    }
  });

/** The lines of one request; the access-log line is written when the response is done, so wait for it. */
async function linesOf(requestId: string, atLeast = 1): Promise<LogLine[]> {
  for (let i = 0; i < 50; i++) {
    const lines = parsedLogs().filter((line) => line.requestId === requestId);
    if (lines.length >= atLeast && lines.some((line) => line.msg === 'request')) return lines;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no access-log line for ${requestId}`);
}

const send = (path: string, init: RequestInit = {}) => fetch(`${server.baseUrl}${path}`, init);

describe('X-Request-Id', () => {
  it('echoes a sane id the caller sent, on the response and in its access-log line', async () => {
    const id = `caller-${randomUUID()}`;
    const response = await send('/healthz', { headers: { 'X-Request-Id': id } });
    expect(response.headers.get('x-request-id')).toBe(id);
    expect(await linesOf(id)).toHaveLength(1);
  });

  it('replaces an id that is too long or not visible ASCII with a generated one, different every time', async () => {
    const offered = ['x'.repeat(129), 'two words', 'tab\there', ''];
    const answered = await Promise.all(offered.map((id) => send('/healthz', { headers: { 'X-Request-Id': id } })));
    const ids = answered.map((response) => response.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(offered.length);
    // 128 visible characters are still the caller's own.
    const longest = '~'.repeat(128);
    expect((await send('/healthz', { headers: { 'X-Request-Id': longest } })).headers.get('x-request-id')).toBe(longest);
  });

  it('is on every response: probes, 404, 405, 400, 413, 401 and the 429 of the limiter', async () => {
    const { tokens } = await signedInClient(server);
    const bearer = { authorization: `Bearer ${tokens.accessToken}` };
    const json = { 'content-type': 'application/json' };
    const responses = [
      await send('/healthz'),
      await send('/readyz'),
      await send('/metrics'),
      await send('/no-such-route'),
      await send('/healthz', { method: 'DELETE' }),
      await send('/tasks', { method: 'PUT', headers: bearer }),
      await send('/tasks', { method: 'POST', headers: { ...bearer, ...json }, body: '{"title":' }),
      await send('/tasks', { method: 'POST', headers: { ...bearer, ...json }, body: JSON.stringify({ title: 'x'.repeat(1_100_000) }) }),
      await send('/tasks'),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 404, 405, 405, 400, 413, 401]);
    let limited: Response | undefined;
    await awayFromMinuteEnd();
    for (let i = 0; i <= STRICT_BURST && limited === undefined; i++) {
      const response = await send('/oauth/token', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=x' });
      if (response.status === 429) limited = response;
    }
    expect(limited?.status).toBe(429);
    for (const response of [...responses, limited!]) expect(response.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('the access log', () => {
  it('writes one line per request: method, route template, operationId, status, duration, account, client and request id', async () => {
    const { client, tokens } = await signedInClient(server);
    const created = await client.createTask({ title: 'logged' });
    const id = `access-${randomUUID()}`;
    const response = await send(`/tasks/${dataOf(created).id}`, { headers: { authorization: `Bearer ${tokens.accessToken}`, 'X-Request-Id': id } });
    expect(response.status).toBe(200);
    const me = await client.getMe();

    const lines = await linesOf(id);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request',
      requestId: id,
      method: 'GET',
      route: '/tasks/{taskId}',
      operationId: 'getTask',
      status: 200,
      accountId: dataOf(me).id,
      clientId: 'web',
    });
    expect(lines[0]!.durationMs).toEqual(expect.any(Number));
    expect(lines[0]!.durationMs as number).toBeGreaterThan(0);
  });

  it('names the operation of a request refused before validation, and leaves the route empty for an unknown path', async () => {
    const refused = `refused-${randomUUID()}`;
    await send('/tasks', { headers: { 'X-Request-Id': refused } });
    expect((await linesOf(refused))[0]).toMatchObject({ route: '/tasks', operationId: 'listTasks', status: 401, accountId: null, clientId: null });

    const unknown = `unknown-${randomUUID()}`;
    await send('/secret-path-never-logged', { headers: { 'X-Request-Id': unknown } });
    const line = (await linesOf(unknown))[0]!;
    expect(line).toMatchObject({ route: null, operationId: null, status: 404 });
    expect(JSON.stringify(line)).not.toContain('secret-path-never-logged');
  });

  it('never holds a password, a token, a secret, a query string or a body, whatever the outcome of the request', async () => {
    const password = `pw-${randomUUID()}`;
    const email = uniqueEmail('redaction');
    const bodyMarker = `body-${randomUUID()}`;
    const queryMarker = `query-${randomUUID()}`;
    const anonymous = server.client();
    const registered = await anonymous.registerAccount({ email, password });
    const { accessToken, refreshToken } = dataOf(registered);
    const client = server.client({ accessToken, refreshToken });
    const apiToken = dataOf(await client.createApiToken({ name: bodyMarker })).token;
    const loggedIn = dataOf(await anonymous.login({ email, password }));
    await anonymous.login({ email, password: `${password}-wrong` });
    const refreshed = dataOf(await anonymous.refreshTokens({ refreshToken: loggedIn.refreshToken }));
    expect((await client.createTask({ title: bodyMarker, notes: bodyMarker })).response.status).toBe(201);
    const json = { 'content-type': 'application/json' };
    await send(`/tasks?${queryMarker}=${queryMarker}`, { headers: { authorization: `Bearer ${apiToken}` } });
    await send('/tasks', { method: 'POST', headers: { authorization: `Bearer ${refreshed.accessToken}`, ...json }, body: `{"title":"${bodyMarker}` });
    await send('/auth/login', { method: 'POST', headers: json, body: JSON.stringify({ email, password, extra: bodyMarker }) });
    await send('/tasks', { headers: { authorization: `Bearer ${accessToken}x` } });
    await send('/oauth/token', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=refresh_token&refresh_token=${refreshed.refreshToken}&client_id=taskctl`,
    });
    await send('/metrics', { headers: { authorization: `Bearer ${bodyMarker}` } });
    await send('/tasks', { method: 'POST', headers: { authorization: `Bearer ${accessToken}`, cookie: `session=${bodyMarker}`, ...json }, body: JSON.stringify({ title: 'x'.repeat(1_100_000) + bodyMarker }) });
    await client.getMe();
    await new Promise((resolve) => setTimeout(resolve, 200));

    const secrets = [password, accessToken, refreshToken, apiToken, loggedIn.accessToken, loggedIn.refreshToken, refreshed.accessToken, refreshed.refreshToken, bodyMarker, queryMarker, PASSWORD];
    const leaks = server.logs.filter((line) => secrets.some((secret) => line.includes(secret)));
    expect(leaks).toEqual([]);
    // The requests were logged at all: one line each, with no header or body field.
    const lines = parsedLogs().filter((line) => line.msg === 'request');
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      expect(Object.keys(line)).not.toContain('req');
      expect(Object.keys(line)).not.toContain('res');
    }
  });
});

// Last: it breaks the server's database on purpose.
describe('a 5xx', () => {
  it('repeats the request id in its body, and every line logged for the request carries it', async () => {
    const { client, tokens } = await signedInClient(server);
    const created = await client.createTask({ title: 'before the break' });
    expect(created.response.status).toBe(201);
    await server.database.knex().schema.dropTable('sync_jobs');
    const id = `broken-${randomUUID()}`;
    const response = await send(`/sync-jobs/${randomUUID()}`, { headers: { authorization: `Bearer ${tokens.accessToken}`, 'X-Request-Id': id } });

    expect(response.status).toBeGreaterThanOrEqual(500);
    expect(response.headers.get('x-request-id')).toBe(id);
    expect(await response.json()).toMatchObject({ statusCode: response.status, requestId: id });
    const lines = await linesOf(id, 2);
    expect(lines.map((line) => line.msg)).toEqual(['request failed', 'request']);
    expect(lines[1]).toMatchObject({ level: 50, operationId: 'getSyncJob', status: response.status });
  });
});
