import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createLogger } from '../platform/logger.js';
import { createTasksComponent } from './tasks.component.js';
import { createTestApp, identifyBy } from '../test-support/app.js';
import { createMigratedDb, insertAccount, type MigratedDb } from '../test-support/databases.js';

// The edge in-process: the document's validation in front of the tasks routes, responses validated
// too. The caller comes from a test header, standing in for sign-in.
const callerFromHeader = identifyBy((req) => {
  const accountId = req.get('x-test-account');
  return accountId ? { accountId, clientId: 'web', kind: 'web', scopes: ['tasks:read', 'tasks:write'] } : undefined;
});

describe('tasks over HTTP (in-process)', () => {
  let store: MigratedDb;
  let server: Server;
  let baseUrl: string;
  let accountId: string;

  beforeAll(async () => {
    store = await createMigratedDb('sqlite');
    const config = loadConfig({ NODE_ENV: 'test', OPENAPI_VALIDATE_RESPONSES: 'true', LOG_LEVEL: 'silent', TASKS_MAX_PER_ACCOUNT: '3' });
    const logger = createLogger('silent');
    const tasks = createTasksComponent({ config, db: store.db, logger }, { cursorKey: randomBytes(32) });
    const app = createTestApp({
      config,
      db: store.db,
      logger,
      readiness: { database: async () => true },
      identifyCaller: callerFromHeader,
      rateLimit: (_req, _res, next) => next(),
      operations: tasks.operations,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    accountId = await insertAccount(store.db);
  });
  afterAll(async () => {
    server.close();
    await store.drop();
  });

  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: { 'x-test-account': accountId, authorization: 'Bearer test', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('create answers 201 with Location and the task; get, patch and delete follow it', async () => {
    const created = await call('POST', '/tasks', { title: 'Write notes', dueAt: '2026-12-01T17:00:00Z', labels: ['release'] });
    expect(created.status).toBe(201);
    const task = (await created.json()) as { id: string; priority: number };
    expect(created.headers.get('location')).toBe(`/tasks/${task.id}`);
    expect(task.priority).toBe(3);
    expect((await call('GET', `/tasks/${task.id}`)).status).toBe(200);
    const patched = await call('PATCH', `/tasks/${task.id}`, { status: 'completed' });
    expect(await patched.json()).toMatchObject({ status: 'completed', completedAt: expect.any(String) });
    expect((await call('DELETE', `/tasks/${task.id}`)).status).toBe(204);
    expect((await call('GET', `/tasks/${task.id}`)).status).toBe(404);
  });

  it('limit arrives as a number from the query string and pages follow nextCursor', async () => {
    for (const title of ['a', 'b', 'c']) await call('POST', '/tasks', { title });
    const first = (await (await call('GET', '/tasks?limit=2&status=all')).json()) as { items: unknown[]; nextCursor: string };
    expect(first.items).toHaveLength(2);
    const second = (await (await call('GET', `/tasks?limit=2&cursor=${first.nextCursor}`)).json()) as { items: unknown[]; nextCursor: null };
    expect(second).toMatchObject({ items: [expect.anything()], nextCursor: null });
  });

  it('shapes the document forbids are 400 with details naming the field', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/tasks', { title: '   ' }, '/body/title'],
      ['POST', '/tasks', { title: 'x'.repeat(501) }, '/body/title'],
      ['POST', '/tasks', { title: 'x', priority: 5 }, '/body/priority'],
      ['POST', '/tasks', { title: 'x', labels: ['a', 'a'] }, '/body/labels'],
      ['POST', '/tasks', { title: 'x', labels: ['x'.repeat(51)] }, '/body/labels/0'],
      ['POST', '/tasks', { title: 'x', labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }, '/body/labels'],
      ['POST', '/tasks', { title: 'x', notes: 'n'.repeat(10_001) }, '/body/notes'],
      ['POST', '/tasks', { title: 'x', dueAt: 'tomorrow' }, '/body/dueAt'],
      ['PATCH', '/tasks/00000000-0000-4000-8000-000000000000', {}, '/body'],
      ['GET', '/tasks?limit=201', undefined, '/query/limit'],
      ['GET', '/tasks?cursor=bm9wZQ', undefined, '/query/cursor'],
    ];
    for (const [method, path, body, field] of cases) {
      const response = await call(method, path, body);
      expect(response.status, `${method} ${path} ${JSON.stringify(body)?.slice(0, 60)}`).toBe(400);
      const error = (await response.json()) as { code: string; details: { path: string }[] };
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.details.map((detail) => detail.path)).toContain(field);
    }
  });

  it('at the cap a create is 403 QUOTA_EXCEEDED with the numbers', async () => {
    const other = await insertAccount(store.db, 3);
    const response = await call('POST', '/tasks', { title: 'one too many' }, { 'x-test-account': other });
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      statusCode: 403,
      code: 'QUOTA_EXCEEDED',
      message: expect.any(String),
      quota: 'tasks',
      limit: 3,
      used: 3,
    });
  });
});
