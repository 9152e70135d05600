import type { AddressInfo } from 'node:net';
import { request, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from './app.js';
import { operation, ownResponse, type OperationEntry } from './http/operations.js';
import { loadConfig } from './config.js';
import { createDb } from './platform/db.js';
import { createLogger } from './platform/logger.js';
import { readOpenApiDocument } from './http/openapi-document.js';
import { operationTable } from './http/operation-table.js';
import { createTestApp, identifyBy } from './test-support/app.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const signedIn = identifyBy(() => ({ accountId: '00000000-0000-4000-8000-000000000001', clientId: 'web', kind: 'web', scopes: ['tasks:read', 'tokens:manage'] }));

async function serve(operations: OperationEntry[], validateResponses: boolean): Promise<string> {
  const config = loadConfig({ NODE_ENV: 'test', OPENAPI_VALIDATE_RESPONSES: String(validateResponses), LOG_LEVEL: 'silent' });
  const app = createTestApp({
    config,
    db: createDb({ client: 'sqlite', filename: ':memory:' }),
    logger: createLogger('silent'),
    readiness: { database: async () => true },
    identifyCaller: signedIn,
    rateLimit: (_req, _res, next) => next(),
    operations,
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

// Deliberately not the document's Account: the types refuse it, the response validation is under test.
const offContract = () => [operation('getMe', () => ({ status: 200, body: { id: 'not-a-uuid', mail: 'ada@example.com' } as never }))];

describe('response validation', () => {
  it('turns a handler answering off-contract into a 500 that hides what went wrong', async () => {
    const baseUrl = await serve(offContract(), true);
    const response = await fetch(`${baseUrl}/me`, { headers: { authorization: 'Bearer token' } });
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({
      statusCode: 500,
      code: 'INTERNAL_ERROR',
      message: 'Something went wrong on our side.',
      requestId: response.headers.get('x-request-id'),
    });
  });

  it('lets an answer that matches the document through', async () => {
    const baseUrl = await serve([operation('getMe', () => ({ status: 200, body: { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' } }))], true);
    expect((await fetch(`${baseUrl}/me`, { headers: { authorization: 'Bearer token' } })).status).toBe(200);
  });


  it('answers the scope check with 403 INSUFFICIENT_SCOPE naming the scope', async () => {
    const baseUrl = await serve([], true);
    const response = await fetch(`${baseUrl}/tasks`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer token' }, body: '{"title":"x"}' });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:write' });
  });
});

describe('start-up', () => {
  it('stops with one line naming the documented operations that nothing serves', () => {
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    const build = () =>
      createApp({
        config,
        db: createDb({ client: 'sqlite', filename: ':memory:' }),
        logger: createLogger('silent'),
        openApi: readOpenApiDocument(),
        table: operationTable(readOpenApiDocument().document),
        readiness: { database: async () => true },
        identifyCaller: signedIn,
        rateLimit: (_req, _res, next) => next(),
        operations: [operation('getMe', () => ({ status: 200, body: { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' } }))],
        pageHeaders: (_req, _res, next) => next(),
        mcpGuard: (_req, _res, next) => next(),
      });
    expect(build).toThrow(/^Operations of the OpenAPI document that nothing serves: registerAccount, login, .*listAuthorizations, revokeAuthorization$/);
    expect(build).not.toThrow(/getMe|getHealth|getMetrics|getDocs/);
  });
});

describe('database outages', () => {
  it('answer 503 SERVICE_UNAVAILABLE with Retry-After, not a 500', async () => {
    const unreachable = operation('getMe', () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    });
    const baseUrl = await serve([unreachable], true);
    const response = await fetch(`${baseUrl}/me`, { headers: { authorization: 'Bearer token' } });
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    const body = await response.json();
    expect(body).toMatchObject({ statusCode: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(JSON.stringify(body)).not.toContain('5432');
  });
});

describe('conditional requests', () => {
  // node:http, not fetch: fetch adds `Cache-Control: no-cache` to conditional requests, which alone
  // keeps Express from answering 304.
  const conditionalGet = (baseUrl: string, headers: Record<string, string>) =>
    new Promise<{ status: number; etag: string | undefined; body: string }>((resolve, reject) => {
      request(`${baseUrl}/me`, { headers: { authorization: 'Bearer token', ...headers } }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, etag: res.headers.etag, body }));
      })
        .on('error', reject)
        .end();
    });

  it('answers in full with no ETag, whatever If-None-Match or If-Modified-Since say, where the operation has no 304 in the document', async () => {
    const baseUrl = await serve([operation('getMe', () => ({ status: 200, body: { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' } }))], true);
    const conditions: Record<string, string>[] = [{}, { 'if-none-match': '*' }, { 'if-modified-since': new Date(Date.now() + 86_400_000).toUTCString() }];
    for (const headers of conditions) {
      const answer = await conditionalGet(baseUrl, headers);
      expect(answer).toMatchObject({ status: 200, etag: undefined });
      expect(JSON.parse(answer.body)).toMatchObject({ email: 'ada@example.com' });
    }
  });
});

describe('dispatch', () => {
  /** The raw request line's target as sent (fetch would normalise it). */
  const rawGet = (baseUrl: string, target: string) =>
    new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
      request(`${baseUrl}/`, { path: target }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, body }));
      })
        .on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }))
        .end();
    });

  async function serveLogged(operations: OperationEntry[]): Promise<{ baseUrl: string; logged: Record<string, unknown>[] }> {
    const logged: Record<string, unknown>[] = [];
    const app = createTestApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'error' }),
      db: createDb({ client: 'sqlite', filename: ':memory:' }),
      logger: createLogger('error', { write: (line: string) => void logged.push(JSON.parse(line) as Record<string, unknown>) }),
      readiness: { database: async () => true },
      identifyCaller: signedIn,
      rateLimit: (_req, _res, next) => next(),
      operations,
    });
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, logged };
  }

  it('answers a URL whose path cannot be read with 404, running no operation', async () => {
    let ran = 0;
    const { baseUrl, logged } = await serveLogged([
      ownResponse('getMe', (_req, res) => {
        ran++;
        res.end();
      }),
    ]);
    expect(await rawGet(baseUrl, 'http://[::1/')).toMatchObject({ status: 404 });
    expect(ran).toBe(0);
    expect(logged).toEqual([]);
  });

  it('logs an error passed on once the response has begun, with the request id, and closes the connection', async () => {
    const { baseUrl, logged } = await serveLogged([
      ownResponse('getMe', (_req, res, next) => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.write('begun');
        next(new Error('after the head'));
      }),
    ]);
    expect(await rawGet(baseUrl, '/me')).toEqual({ error: 'ECONNRESET' });
    expect(logged).toEqual([expect.objectContaining({ level: 50, msg: 'request failed past its error renderers', requestId: expect.any(String), err: expect.objectContaining({ message: 'after the head' }) })]);
  });

  it('reads the query as Node’s querystring does: a name given twice is a list, nothing is nested', async () => {
    let seen: unknown;
    const { baseUrl } = await serveLogged([
      ownResponse('getMe', (req, res) => {
        seen = { ...req.query };
        res.end();
      }),
    ]);
    expect(await rawGet(baseUrl, '/me?a=1&a=2&b[c]=%41&d=+x')).toMatchObject({ status: 200 });
    expect(seen).toEqual({ a: ['1', '2'], 'b[c]': 'A', d: ' x' });
  });
});
