import { randomUUID } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTokens, connectMcpClient } from '../support/mcp.js';
import { startServer, type TestServer } from '../support/server.js';

const TASKS = 10_000;

let server: TestServer;
let client: Client;
let ids: Map<string, string>;
beforeAll(async () => {
  server = await startServer();
  const tokens = await appTokens(server);
  const accountId = (await tokens.session.client.getMe()).data!.id;
  // Seeded through the database: 10,000 API calls would be the test's whole time.
  const now = Date.now();
  const rows = Array.from({ length: TASKS }, (_, i) => ({
    id: randomUUID(),
    account_id: accountId,
    title: `Task ${String(i).padStart(5, '0')}${i === 42 ? ' 100%_done' : ''}`,
    notes: null,
    status: i % 2 === 0 ? 'open' : 'completed',
    priority: 3,
    due_at: null,
    labels: '[]',
    completed_at: i % 2 === 0 ? null : now,
    created_at: now + i,
    updated_at: now + i,
    version: 1,
    change_seq: i + 1,
  }));
  await server.database.knex().batchInsert('tasks', rows, 500);
  ids = new Map(rows.map((row) => [row.title, row.id]));
  client = await connectMcpClient(server, tokens.accessToken);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

const completeTaskId = (value: string) => client.complete({ ref: { type: 'ref/resource', uri: 'task://{taskId}' }, argument: { name: 'taskId', value } });

describe('completion/complete of a task id at 10,000 tasks', () => {
  it('answers the matching titles, case-insensitive, the open ones first', async () => {
    const { completion } = await completeTaskId('tASK 0999');
    const expected = ['Task 09990', 'Task 09992', 'Task 09994', 'Task 09996', 'Task 09998', 'Task 09991', 'Task 09993', 'Task 09995', 'Task 09997', 'Task 09999'];
    expect(completion).toEqual({ values: expected.map((title) => ids.get(title)), total: 10, hasMore: false });
  });

  it('reads at most one page past what it answers: a prefix every task has counts 101, not 10,000', async () => {
    const { completion } = await completeTaskId('task');
    expect(completion.values).toHaveLength(100);
    expect(completion).toMatchObject({ total: 101, hasMore: true });
  });

  it('takes % and _ as the characters they are, and completes from the start of an id', async () => {
    const { completion } = await completeTaskId('task 00042 100%_');
    expect(completion.values).toEqual([ids.get('Task 00042 100%_done')]);
    expect((await completeTaskId('task 0004%')).completion.values).toEqual([]);
    const id = ids.get('Task 01234')!;
    expect((await completeTaskId(id.slice(0, 13))).completion.values).toEqual([id]);
  });
});
