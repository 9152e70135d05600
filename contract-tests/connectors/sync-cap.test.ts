import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTasks, syncAndWait } from '../support/connectors.js';
import { manyTodos, startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
let feeds: FakeIcalFeeds;
beforeAll(async () => {
  [server, feeds] = await Promise.all([
    startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', TASKS_MAX_PER_ACCOUNT: '20' } }),
    startFakeIcalFeeds(),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), feeds?.close()]);
});

describe('a sync at the task cap (TASKS_MAX_PER_ACCOUNT=20)', () => {
  it('a feed of 30 items: 20 created, 10 dropped over quota, and the job succeeds', async () => {
    const { client } = await signedInClient(server);
    feeds.setFeed('/thirty.ics', manyTodos(30));
    const account = dataOf(await client.connectAccount('ical', { url: feeds.url('/thirty.ics') }));

    const job = await syncAndWait(client, account.id);
    expect(job).toMatchObject({ status: 'succeeded', fetched: 30, created: 20, updated: 0, unchanged: 0, droppedOverQuota: 10, error: null });
    expect(job.startedAt).not.toBeNull();
    expect(Date.parse(job.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(job.startedAt!));
    const tasks = await allTasks(client);
    expect(tasks).toHaveLength(20);
    expect(tasks[0]!.source).toEqual({ connectorAccountId: account.id, connectorType: 'ical', externalId: expect.stringMatching(/^todo-\d+@fake\.example\.com$/), url: null });
    expect(dataOf(await client.getUsage()).tasks).toEqual({ limit: 20, used: 20 });
    expect(dataOf(await client.getConnectorAccount(account.id)).lastSyncedAt).toBe(job.finishedAt);
  });

  it('a re-sync at the cap still updates a renamed item; the new ones stay dropped', async () => {
    const { client } = await signedInClient(server);
    const todos = manyTodos(30);
    feeds.setFeed('/renamed.ics', todos);
    const account = dataOf(await client.connectAccount('ical', { url: feeds.url('/renamed.ics') }));
    await syncAndWait(client, account.id);
    const kept = new Set((await allTasks(client)).map((task) => task.source!.externalId));
    const renamedIndex = todos.findIndex((todo) => kept.has(todo.uid));
    todos[renamedIndex] = { ...todos[renamedIndex]!, summary: 'Renamed upstream', status: 'COMPLETED', completed: '20240601T100000Z' };
    feeds.setFeed('/renamed.ics', todos);

    const again = await syncAndWait(client, account.id);
    expect(again).toMatchObject({ status: 'succeeded', fetched: 30, created: 0, updated: 1, unchanged: 19, droppedOverQuota: 10 });
    const renamed = (await allTasks(client)).find((task) => task.source!.externalId === todos[renamedIndex]!.uid)!;
    expect(renamed).toMatchObject({ title: 'Renamed upstream', status: 'completed', completedAt: '2024-06-01T10:00:00.000Z' });
    expect(dataOf(await client.getUsage()).tasks.used).toBe(20);
  });

  it('after a task is deleted, the next sync fills the freed place', async () => {
    const { client } = await signedInClient(server);
    feeds.setFeed('/refill.ics', manyTodos(25));
    const account = dataOf(await client.connectAccount('ical', { url: feeds.url('/refill.ics') }));
    await syncAndWait(client, account.id);
    const [first] = await allTasks(client);
    expect((await client.deleteTask(first!.id)).response.status).toBe(204);
    const again = await syncAndWait(client, account.id);
    expect(again).toMatchObject({ fetched: 25, created: 1, droppedOverQuota: 5, unchanged: 19 });
    expect(dataOf(await client.getUsage()).tasks.used).toBe(20);
  });
});
