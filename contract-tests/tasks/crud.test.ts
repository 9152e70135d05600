import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('creating, reading, changing and deleting a task', () => {
  it('create answers 201 with Location and the stored task, with defaults filled in', async () => {
    const { client } = await signedInClient(server);
    const created = await client.createTask({ title: 'Write the release notes', dueAt: '2026-12-01T17:00:00+01:00', labels: ['release'] });
    expect(created.response.status).toBe(201);
    const task = dataOf(created);
    expect(created.response.headers.get('location')).toBe(`/tasks/${task.id}`);
    expect(task).toMatchObject({
      title: 'Write the release notes',
      notes: null,
      status: 'open',
      priority: 3,
      dueAt: '2026-12-01T16:00:00.000Z',
      labels: ['release'],
      completedAt: null,
      source: null,
    });
    expect(Date.parse(task.createdAt)).toBeGreaterThan(Date.now() - 60_000);
    expect((await client.getTask(task.id)).data).toEqual(task);
  });

  it('a task created completed has completedAt; completing sets it, reopening clears it', async () => {
    const { client } = await signedInClient(server);
    const done = dataOf(await client.createTask({ title: 'Already done', status: 'completed' }));
    expect(done.completedAt).toBe(done.createdAt);

    const task = dataOf(await client.createTask({ title: 'Later', notes: 'remember', priority: 1 }));
    const completed = dataOf(await client.updateTask(task.id, { status: 'completed' }));
    expect(completed).toMatchObject({ status: 'completed', notes: 'remember', priority: 1 });
    expect(Date.parse(completed.completedAt!)).toBeGreaterThanOrEqual(Date.parse(task.createdAt));
    const reopened = dataOf(await client.updateTask(task.id, { status: 'open', notes: null, labels: ['x', 'y'] }));
    expect(reopened).toMatchObject({ status: 'open', completedAt: null, notes: null, labels: ['x', 'y'] });
    expect((await client.getTask(task.id)).data).toEqual(reopened);
  });

  it('delete answers 204, after which the task is gone', async () => {
    const { client } = await signedInClient(server);
    const task = dataOf(await client.createTask({ title: 'Short-lived' }));
    expect((await client.deleteTask(task.id)).response.status).toBe(204);
    expect((await client.getTask(task.id)).error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    expect((await client.deleteTask(task.id)).error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it("another account's task is NOT_FOUND for every operation and does not show in its list", async () => {
    const owner = await signedInClient(server);
    const stranger = await signedInClient(server);
    const task = dataOf(await owner.client.createTask({ title: 'Private' }));
    for (const attempt of [
      stranger.client.getTask(task.id),
      stranger.client.updateTask(task.id, { title: 'Mine now' }),
      stranger.client.deleteTask(task.id),
    ]) {
      const { error } = await attempt;
      expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
    }
    expect((await stranger.client.listTasks()).data).toEqual({ items: [], nextCursor: null });
    expect((await owner.client.getTask(task.id)).data).toEqual(task);
  });

  it('GET /me/usage reports the tasks stored against the cap', async () => {
    const { client } = await signedInClient(server);
    const first = dataOf(await client.createTask({ title: 'one' }));
    await client.createTask({ title: 'two' });
    expect((await client.getUsage()).data?.tasks).toEqual({ limit: 10_000, used: 2 });
    await client.deleteTask(first.id);
    expect((await client.getUsage()).data?.tasks).toEqual({ limit: 10_000, used: 1 });
  });
});

describe('validation by the document', () => {
  let session: Awaited<ReturnType<typeof signedInClient>>;
  beforeAll(async () => {
    session = await signedInClient(server);
  });
  const send = async (accessToken: string, method: string, path: string, body: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it.each([
    ['a blank title', { title: '  ' }, '/body/title'],
    ['a title over 500 characters', { title: 't'.repeat(501) }, '/body/title'],
    ['a missing title', { notes: 'n' }, '/body/title'],
    ['priority 0', { title: 't', priority: 0 }, '/body/priority'],
    ['priority 5', { title: 't', priority: 5 }, '/body/priority'],
    ['21 labels', { title: 't', labels: Array.from({ length: 21 }, (_, i) => `l${i}`) }, '/body/labels'],
    ['a repeated label', { title: 't', labels: ['a', 'a'] }, '/body/labels'],
    ['an empty label', { title: 't', labels: [''] }, '/body/labels/0'],
    ['a label over 50 characters', { title: 't', labels: ['l'.repeat(51)] }, '/body/labels/0'],
    ['notes over 10000 characters', { title: 't', notes: 'n'.repeat(10_001) }, '/body/notes'],
    ['a due date that is not RFC 3339', { title: 't', dueAt: '01/12/2026' }, '/body/dueAt'],
    ['an unknown field', { title: 't', colour: 'red' }, '/body/colour'],
  ])('creating with %s is 400 VALIDATION_FAILED naming the field', async (_case, body, path) => {
    const response = await send(session.tokens.accessToken, 'POST', '/tasks', body);
    expect(response.status).toBe(400);
    const error = (await response.json()) as { code: string; details: { path: string; message: string }[] };
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details.map((detail) => detail.path)).toContain(path);
  });

  it('a change with no field, a bad status or a bad task id is 400 with details', async () => {
    const { tokens, client } = await signedInClient(server);
    const task = dataOf(await client.createTask({ title: 't' }));
    for (const [path, body, field] of [
      [`/tasks/${task.id}`, {}, '/body'],
      [`/tasks/${task.id}`, { status: 'done' }, '/body/status'],
      ['/tasks/not-a-uuid', { title: 'x' }, '/params/taskId'],
    ] as const) {
      const response = await send(tokens.accessToken, 'PATCH', path, body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { details: { path: string }[] }).details.map((detail) => detail.path)).toContain(field);
    }
    expect((await client.getTask(task.id)).data).toEqual(task);
  });

  it('nothing invalid is stored', async () => {
    const { tokens, client } = await signedInClient(server);
    const refused = await send(tokens.accessToken, 'POST', '/tasks', { title: 't', priority: 9 });
    expect(refused.status).toBe(400);
    expect((await client.getUsage()).data?.tasks.used).toBe(0);
    expect((await client.listTasks()).data?.items).toEqual([]);
  });

  it.each([
    ['after year 9999 in UTC', '9999-12-31T23:00:00-02:00'],
    ['before year 0000 in UTC', '0000-01-01T00:00:00+01:00'],
  ])('a time %s is 400 on /body/dueAt for create and change and on /query/updatedSince, and nothing is stored', async (_case, time) => {
    const { tokens, client } = await signedInClient(server);
    const task = dataOf(await client.createTask({ title: 'kept' }));

    const refused = await send(tokens.accessToken, 'POST', '/tasks', { title: 't', dueAt: time });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/body/dueAt' }] });
    const change = await client.updateTask(task.id, { dueAt: time });
    expect(change.error).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', details: [{ path: '/body/dueAt' }] } });
    const page = await client.listTasks({ updatedSince: time });
    expect(page.error).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', details: [{ path: '/query/updatedSince' }] } });

    expect((await client.getUsage()).data?.tasks.used).toBe(1);
    expect((await client.listTasks()).data?.items).toEqual([task]);
  });
});

describe('Idempotency-Key on create', () => {
  it('a retry with the same key answers the first response and creates nothing new', async () => {
    const { client } = await signedInClient(server);
    const idempotencyKey = randomUUID();
    const first = await client.createTask({ title: 'Pay the rent', labels: ['home'] }, { idempotencyKey });
    const retry = await client.createTask({ title: 'Pay the rent', labels: ['home'] }, { idempotencyKey });
    expect(retry.response.status).toBe(201);
    expect(retry.data).toEqual(first.data);
    expect(retry.response.headers.get('location')).toBe(first.response.headers.get('location'));
    expect((await client.listTasks()).data?.items).toHaveLength(1);
  });

  it('the same key with a different body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const { client } = await signedInClient(server);
    const idempotencyKey = randomUUID();
    await client.createTask({ title: 'First' }, { idempotencyKey });
    const reused = await client.createTask({ title: 'Second' }, { idempotencyKey });
    expect(reused.error).toMatchObject({ status: 422, code: 'IDEMPOTENCY_KEY_REUSED' });
    expect((await client.listTasks()).data?.items.map((task) => task.title)).toEqual(['First']);
  });

  it('parallel requests with the same key create exactly one task and all answer it', async () => {
    const { client } = await signedInClient(server);
    const idempotencyKey = randomUUID();
    const responses = await Promise.all(Array.from({ length: 10 }, () => client.createTask({ title: 'Once only' }, { idempotencyKey })));
    expect(responses.map((response) => response.response.status)).toEqual(Array(10).fill(201));
    expect(new Set(responses.map((response) => response.data?.id)).size).toBe(1);
    expect((await client.getUsage()).data?.tasks.used).toBe(1);
  });

  it('keys belong to one account: another account using the same key gets its own task', async () => {
    const one = await signedInClient(server);
    const two = await signedInClient(server);
    const idempotencyKey = randomUUID();
    const first = dataOf(await one.client.createTask({ title: 'Same' }, { idempotencyKey }));
    const second = dataOf(await two.client.createTask({ title: 'Same' }, { idempotencyKey }));
    expect(second.id).not.toBe(first.id);
  });
});
