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

/** Stores tasks straight in the database, `createdAt` one millisecond apart from `start`. */
async function seedTasks(accountId: string, count: number, start = Date.now() - count): Promise<string[]> {
  const knex = server.database.knex();
  // Each stored task carries its own change number of the account's feed (src/tasks/task-changes.ts).
  const { task_change_seq: lastNumber } = await knex('accounts').select('task_change_seq').where('id', accountId).first();
  const rows = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    account_id: accountId,
    title: `seeded ${i}`,
    status: i % 3 === 0 ? 'completed' : 'open',
    completed_at: i % 3 === 0 ? start + i : null,
    priority: 3,
    labels: '[]',
    created_at: start + i,
    updated_at: start + i,
    change_seq: Number(lastNumber) + i + 1,
  }));
  await knex.batchInsert('tasks', rows, 200);
  await knex('accounts').where('id', accountId).increment({ task_count: count, task_change_seq: count });
  return rows.map((row) => row.id);
}

async function signedInWithId() {
  const session = await signedInClient(server);
  const me = await session.client.getMe();
  return { ...session, accountId: dataOf(me).id };
}

describe('listing tasks page by page', () => {
  it('a walk with inserts and deletes between pages sees every task that stayed exactly once, and none deleted before it was reached', async () => {
    const { client, accountId } = await signedInWithId();
    const stored = await seedTasks(accountId, 30);
    const seen: string[] = [];
    const deletedAhead = new Set<string>();
    const inserted: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listTasks({ limit: 7, cursor });
      expect(page.error).toBeUndefined();
      expect(dataOf(page).items.length).toBeLessThanOrEqual(7);
      seen.push(...dataOf(page).items.map((task) => task.id));
      cursor = dataOf(page).nextCursor ?? undefined;
      pages += 1;
      if (pages === 2) {
        const ahead = stored.filter((id) => !seen.includes(id)).slice(3, 6);
        for (const id of [seen[0]!, ...ahead]) expect((await client.deleteTask(id)).response.status).toBe(204);
        for (const id of ahead) deletedAhead.add(id);
        for (const title of ['new one', 'new two']) inserted.push(dataOf(await client.createTask({ title })).id);
      }
    } while (cursor);

    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => stored.includes(id))).toEqual(stored.filter((id) => !deletedAhead.has(id)));
    // Tasks created during the walk sort after everything that existed before it, so the walk reaches them.
    expect(seen.slice(-2)).toEqual(inserted);
    expect(pages).toBe(Math.ceil(seen.length / 7));
  });

  it('pages follow the order createdAt, then id, and the last page has nextCursor null', async () => {
    const { client, accountId } = await signedInWithId();
    await seedTasks(accountId, 12);
    const first = dataOf(await client.listTasks({ limit: 5 }));
    const all = [...first.items];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = dataOf(await client.listTasks({ limit: 5, cursor }));
      all.push(...page.items);
      cursor = page.nextCursor;
    }
    expect(all).toHaveLength(12);
    const keys = all.map((task) => [Date.parse(task.createdAt), task.id] as const);
    const sorted = [...keys].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : 1));
    expect(keys).toEqual(sorted);

    const exact = await client.listTasks({ limit: 12 });
    expect(dataOf(exact).items).toHaveLength(12);
    expect(dataOf(exact).nextCursor).toBeNull();
  });

  it('the limit defaults to 50 and the SDK helper walks every page', async () => {
    const { client, accountId } = await signedInWithId();
    const stored = await seedTasks(accountId, 120);
    const firstPage = dataOf(await client.listTasks());
    expect(firstPage.items).toHaveLength(50);
    expect(firstPage.nextCursor).not.toBeNull();
    const walked: string[] = [];
    for await (const task of client.listAllTasks({ limit: 200 })) walked.push(task.id);
    expect(walked).toEqual(stored);
  });

  it('filters by status and by updatedSince, also across pages', async () => {
    const { client, accountId } = await signedInWithId();
    const stored = await seedTasks(accountId, 30, Date.parse('2025-01-01T00:00:00Z'));
    const completedIds = stored.filter((_, i) => i % 3 === 0);
    const completed: string[] = [];
    for await (const task of client.listAllTasks({ status: 'completed', limit: 4 })) completed.push(task.id);
    expect(completed).toEqual(completedIds);
    const open: string[] = [];
    for await (const task of client.listAllTasks({ status: 'open', limit: 4 })) open.push(task.id);
    expect(open).toEqual(stored.filter((_, i) => i % 3 !== 0));

    const changed = dataOf(await client.updateTask(stored[5]!, { title: 'touched' }));
    const since = await client.listTasks({ updatedSince: '2025-06-01T00:00:00Z' });
    expect(since.data).toEqual({ items: [changed], nextCursor: null });
    const boundary = await client.listTasks({ updatedSince: new Date(Date.parse('2025-01-01T00:00:00Z') + 28).toISOString() });
    expect(dataOf(boundary).items.map((task) => task.id)).toEqual([stored[5], stored[28], stored[29]]);
  });

  it('a cursor that is not one the service gave is 400 VALIDATION_FAILED on /query/cursor', async () => {
    const { client } = await signedInWithId();
    for (const cursor of ['nope', Buffer.from('[1,"not-a-uuid"]').toString('base64url'), Buffer.from('{}').toString('base64url')]) {
      const { error } = await client.listTasks({ cursor });
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(error!.body?.details).toEqual([{ path: '/query/cursor', message: expect.any(String) }]);
    }
  });

  it('a limit outside 1 to 200, an unknown status or a bad updatedSince is 400 naming the parameter', async () => {
    const { client } = await signedInWithId();
    const cases = [
      [{ limit: 0 }, '/query/limit'],
      [{ limit: 201 }, '/query/limit'],
      [{ status: 'done' as 'open' }, '/query/status'],
      [{ updatedSince: 'yesterday' }, '/query/updatedSince'],
    ] as const;
    for (const [query, path] of cases) {
      const { error } = await client.listTasks(query);
      expect(error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
      expect(error!.body?.details?.map((detail) => detail.path)).toContain(path);
    }
  });
});
