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

/** An account already holding `count` tasks, stored straight in the database with its counter to match. */
async function accountHolding(on: TestServer, count: number) {
  const session = await signedInClient(on);
  const accountId = dataOf(await session.client.getMe()).id;
  const now = Date.now() - count;
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    account_id: accountId,
    title: `seeded ${i}`,
    status: 'open',
    priority: 3,
    labels: '[]',
    created_at: now + i,
    updated_at: now + i,
  }));
  const knex = on.database.knex();
  await knex.batchInsert('tasks', rows, 400);
  await knex('accounts').where('id', accountId).update({ task_count: count });
  return { ...session, accountId, seeded: rows.map((row) => row.id) };
}

describe('the task cap (TASKS_MAX_PER_ACCOUNT, default 10000)', () => {
  it('50 parallel creates at 9,990 stored tasks: exactly 10 are created and 40 are refused with QUOTA_EXCEEDED', async () => {
    const { client, accountId } = await accountHolding(server, 9_990);
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => client.createTask({ title: `parallel ${i}` })));

    const statuses = responses.map((response) => response.response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 403)).toHaveLength(40);
    for (const { error } of responses.filter((response) => response.error)) {
      expect(error!.body).toEqual({
        statusCode: 403,
        code: 'QUOTA_EXCEEDED',
        message: expect.any(String),
        quota: 'tasks',
        limit: 10_000,
        used: 10_000,
      });
    }
    const stored = await server.database.knex()('tasks').where('account_id', accountId).count({ n: '*' });
    expect(Number(stored[0]!.n)).toBe(10_000);
    expect(dataOf(await client.getUsage()).tasks).toEqual({ limit: 10_000, used: 10_000 });
  });
});

describe('a smaller cap', () => {
  let small: TestServer;
  beforeAll(async () => {
    small = await startServer({ env: { TASKS_MAX_PER_ACCOUNT: '3' } });
  });
  afterAll(async () => {
    await small?.stop();
  });

  it('at the cap, changing a task is allowed and deleting one frees a place for exactly one create', async () => {
    const { client, seeded } = await accountHolding(small, 3);
    expect((await client.createTask({ title: 'over' })).error).toMatchObject({ status: 403, code: 'QUOTA_EXCEEDED' });

    const changed = await client.updateTask(seeded[0]!, { title: 'still editable', status: 'completed' });
    expect(changed.response.status).toBe(200);
    expect(changed.data).toMatchObject({ title: 'still editable', status: 'completed' });

    expect((await client.deleteTask(seeded[1]!)).response.status).toBe(204);
    expect(dataOf(await client.getUsage()).tasks).toEqual({ limit: 3, used: 2 });
    const [one, two] = await Promise.all([client.createTask({ title: 'fits' }), client.createTask({ title: 'fits too?' })]);
    expect([one.response.status, two.response.status].sort()).toEqual([201, 403]);
    expect(dataOf(await client.getUsage()).tasks).toEqual({ limit: 3, used: 3 });
  });

  it('an idempotent create refused at the cap can be retried with the same key once a place is free', async () => {
    const { client, seeded } = await accountHolding(small, 3);
    const idempotencyKey = randomUUID();
    expect((await client.createTask({ title: 'waiting' }, { idempotencyKey })).error).toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await client.deleteTask(seeded[0]!);
    const retried = await client.createTask({ title: 'waiting' }, { idempotencyKey });
    expect(retried.response.status).toBe(201);
    const again = await client.createTask({ title: 'waiting' }, { idempotencyKey });
    expect(again.data).toEqual(retried.data);
  });

  it('is enforced per account and reported by GET /me/usage', async () => {
    const one = await signedInClient(small);
    const two = await signedInClient(small);
    for (const title of ['a', 'b', 'c']) expect((await one.client.createTask({ title })).response.status).toBe(201);
    expect((await one.client.createTask({ title: 'd' })).error?.body).toMatchObject({ quota: 'tasks', limit: 3, used: 3 });
    expect(dataOf(await one.client.getUsage()).tasks).toEqual({ limit: 3, used: 3 });
    expect((await two.client.createTask({ title: 'a' })).response.status).toBe(201);
    expect(dataOf(await two.client.getUsage()).tasks).toEqual({ limit: 3, used: 1 });
  });
});
