import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config.js';
import { createLogger } from '../platform/logger.js';
import { createTasksComponent } from '../tasks/tasks.component.js';
import { createTestApp, identifyBy } from '../test-support/app.js';
import { createMigratedDb, engines, insertAccount, type MigratedDb } from '../test-support/databases.js';
import { createOutbox } from './outbox.js';
import { taskChangeListener } from './task-events.js';

// A create's event is written with the create: on PostgreSQL as a step of the create's one statement
// (src/tasks/task-create.repository.ts, insertTaskWithinCap), on SQLite in its transaction, run at once while the connection is idle. Either way the
// event is queued for the subscribed, enabled webhooks only, never for a create refused at the cap, and
// the delivery worker is told once it has committed.
describe.each(engines)('task events in the outbox on %s', (engine) => {
  const MAX_TASKS = 2;
  let store: MigratedDb;
  let server: Server;
  let baseUrl: string;
  const committed = vi.fn();

  beforeAll(async () => {
    store = await createMigratedDb(engine);
    const config = loadConfig({ NODE_ENV: 'test', OPENAPI_VALIDATE_RESPONSES: 'true', LOG_LEVEL: 'silent', TASKS_MAX_PER_ACCOUNT: String(MAX_TASKS) });
    const logger = createLogger('silent');
    const tasks = createTasksComponent(
      { config, db: store.db, logger },
      { cursorKey: randomBytes(32), taskChangeListener: taskChangeListener(createOutbox(committed)) },
    );
    const app = createTestApp({
      config,
      db: store.db,
      logger,
      readiness: { database: async () => true },
      identifyCaller: identifyBy((req) => {
        const accountId = req.get('x-test-account');
        return accountId ? { accountId, clientId: 'web', kind: 'web', scopes: ['tasks:read', 'tasks:write'] } : undefined;
      }),
      rateLimit: (_req, _res, next) => next(),
      operations: tasks.operations,
    });
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.close();
    await store.drop();
  });

  const create = (accountId: string, title: string, headers: Record<string, string> = {}) =>
    fetch(`${baseUrl}/tasks`, {
      method: 'POST',
      headers: { 'x-test-account': accountId, authorization: 'Bearer test', 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ title }),
    });

  const addWebhook = async (accountId: string, events: string[], enabled = true) => {
    const id = randomUUID();
    await store.db('webhooks').insert({
      id,
      account_id: accountId,
      url: 'http://127.0.0.1:9/hook',
      events: JSON.stringify(events),
      enabled,
      secret: 'whsec_test',
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    return id;
  };

  const deliveriesOf = (accountId: string) =>
    store
      .db('webhook_deliveries')
      .join('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .where('webhooks.account_id', accountId)
      .select<{ webhook_id: string; event_type: string; payload: string; status: string }[]>('webhook_id', 'event_type', 'payload', 'webhook_deliveries.status');

  it('a create queues one task.created delivery per subscribed, enabled webhook, with the task as answered', async () => {
    const accountId = await insertAccount(store.db);
    const subscribed = await addWebhook(accountId, ['task.created', 'task.deleted']);
    await addWebhook(accountId, ['task.deleted']);
    await addWebhook(accountId, ['task.created'], false);
    committed.mockClear();

    const response = await create(accountId, 'Write the release notes');
    expect(response.status).toBe(201);
    const task = await response.json();

    const deliveries = await deliveriesOf(accountId);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ webhook_id: subscribed, event_type: 'task.created', status: 'pending' });
    expect(JSON.parse(deliveries[0]!.payload)).toEqual({ type: 'task.created', timestamp: expect.any(String), data: task });
    expect(committed).toHaveBeenCalledTimes(1);
  });

  it('an account without a subscribed webhook queues nothing and wakes no worker', async () => {
    const accountId = await insertAccount(store.db);
    await addWebhook(accountId, ['task.updated']);
    committed.mockClear();
    expect((await create(accountId, 'quiet')).status).toBe(201);
    expect(await deliveriesOf(accountId)).toEqual([]);
    expect(committed).not.toHaveBeenCalled();
  });

  it('a create refused at the cap writes nothing: no task, no place taken, no event', async () => {
    const accountId = await insertAccount(store.db);
    await addWebhook(accountId, ['task.created']);
    for (const title of ['one', 'two']) expect((await create(accountId, title)).status).toBe(201);
    const before = await store.db('accounts').where('id', accountId).first('task_count', 'task_change_seq');
    committed.mockClear();

    const refused = await create(accountId, 'three');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'QUOTA_EXCEEDED', limit: MAX_TASKS, used: MAX_TASKS });
    expect(await store.db('accounts').where('id', accountId).first('task_count', 'task_change_seq')).toEqual(before);
    expect(await store.db('tasks').where('account_id', accountId).pluck('title')).toHaveLength(MAX_TASKS);
    expect(await deliveriesOf(accountId)).toHaveLength(MAX_TASKS);
    expect(committed).not.toHaveBeenCalled();
  });

  it('with an Idempotency-Key the event is queued once: the replay answers the first response and queues nothing', async () => {
    const accountId = await insertAccount(store.db);
    await addWebhook(accountId, ['task.created']);
    committed.mockClear();
    const key = { 'idempotency-key': randomUUID() };
    const first = await create(accountId, 'once', key);
    const again = await create(accountId, 'once', key);
    expect(first.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(await deliveriesOf(accountId)).toHaveLength(1);
    expect(committed).toHaveBeenCalledTimes(1);
  });
});
