import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTokens, callTool, connectMcpClient, postMcp, type SessionClient } from '../support/mcp.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The JSON of a resource as a client reads it. */
async function readJson(client: Client, uri: string) {
  const { contents } = await client.readResource({ uri });
  expect(contents).toHaveLength(1);
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse((contents[0] as { text: string }).text) as Record<string, unknown>;
}

/** The JSON-RPC error a request was refused with. */
async function refusal(request: Promise<unknown>): Promise<McpError> {
  const error = await request.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('MCP resources: the account as a model reads it', () => {
  let client: Client;
  let rest: SessionClient;
  beforeAll(async () => {
    const tokens = await appTokens(server);
    rest = tokens.session.client;
    client = await connectMcpClient(server, tokens.accessToken);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('the server declares resources, prompts and completions, and lists the task template', async () => {
    expect(client.getServerCapabilities()).toMatchObject({ resources: {}, prompts: {}, completions: {} });
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'task://{taskId}', name: 'task', mimeType: 'application/json' })]);
  });

  it('task://{taskId} reads the task exactly as GET /tasks/{taskId} answers it', async () => {
    const created = (await rest.createTask({ title: 'Read me as a resource', priority: 1, labels: ['mcp'] })).data!;
    expect(await readJson(client, `task://${created.id}`)).toEqual((await rest.getTask(created.id)).data);
  });

  it('tasks://open is the first page of open tasks with the cursor to go on, and tasks://open?cursor= reads the next', async () => {
    const done = (await rest.createTask({ title: 'Already done', status: 'completed' })).data!;
    for (let i = 0; i < 55; i++) await rest.createTask({ title: `Open task ${i}` });
    const first = await readJson(client, 'tasks://open');
    expect(first).toEqual((await rest.listTasks({ status: 'open' })).data);
    const items = first.items as { id: string; status: string }[];
    expect(items.every((task) => task.status === 'open')).toBe(true);
    expect(items.some((task) => task.id === done.id)).toBe(false);
    expect(first.nextCursor).toEqual(expect.any(String));

    const second = await readJson(client, `tasks://open?cursor=${encodeURIComponent(first.nextCursor as string)}`);
    expect(second).toEqual((await rest.listTasks({ status: 'open', cursor: first.nextCursor as string })).data);
    expect((second.items as unknown[]).length).toBeGreaterThan(0);
  });

  it('usage://me reads the caps and budgets of GET /me/usage', async () => {
    const usage = await readJson(client, 'usage://me');
    expect(usage).toMatchObject({ tasks: { used: expect.any(Number), limit: expect.any(Number) }, rateLimits: { client: { burst: { limit: expect.any(Number) } } } });
  });

  it('resources/list pages through the fixed resources and every task, following nextCursor', async () => {
    // More tasks than one page of resources/list holds (100).
    for (let i = 0; i < 50; i++) await rest.createTask({ title: `Listed task ${i}` });
    const seen: { uri: string; name: string }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor ? { cursor } : {});
      seen.push(...page.resources);
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBeGreaterThan(1);
    expect(seen.slice(0, 2).map((resource) => resource.uri)).toEqual(['tasks://open', 'usage://me']);
    const all: { id: string; title: string }[] = [];
    for (let page = await rest.listTasks({ limit: 200 }); ; ) {
      all.push(...page.data!.items);
      if (!page.data!.nextCursor) break;
      page = await rest.listTasks({ limit: 200, cursor: page.data!.nextCursor });
    }
    expect(seen.slice(2)).toEqual(all.map((task) => expect.objectContaining({ uri: `task://${task.id}`, name: task.title, mimeType: 'application/json' })));
  });

  it('a resource that does not exist is a JSON-RPC error naming the URI, with the REST error body', async () => {
    const missing = await refusal(client.readResource({ uri: 'task://00000000-0000-4000-8000-000000000000' }));
    expect(missing.code).toBe(-32602);
    expect(missing.data).toMatchObject({ code: 'NOT_FOUND', statusCode: 404, uri: 'task://00000000-0000-4000-8000-000000000000' });
    const badId = await refusal(client.readResource({ uri: 'task://not-a-uuid' }));
    expect(badId.data).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/path/taskId' }] });
    const unknown = await refusal(client.readResource({ uri: 'file:///etc/passwd' }));
    expect(unknown.code).toBe(-32602);
    expect(unknown.data).toEqual({ uri: 'file:///etc/passwd' });
    const badCursor = await refusal(client.listResources({ cursor: 'not-a-cursor' }));
    expect(badCursor.code).toBe(-32602);
  });

  it('another account’s task is not found, and its title is never offered', async () => {
    const other = await appTokens(server);
    const theirs = (await other.session.client.createTask({ title: 'Secret plans of another account' })).data!;
    const missing = await refusal(client.readResource({ uri: `task://${theirs.id}` }));
    expect(missing.data).toMatchObject({ code: 'NOT_FOUND' });
    const completed = await client.complete({ ref: { type: 'ref/resource', uri: 'task://{taskId}' }, argument: { name: 'taskId', value: 'Secret' } });
    expect(completed.completion.values).toEqual([]);
  });

  it('completion/complete offers the ids of the account’s own tasks whose title starts with what was typed', async () => {
    const report = (await rest.createTask({ title: 'Quarterly report draft' })).data!;
    const review = (await rest.createTask({ title: 'quarterly review', status: 'completed' })).data!;
    await rest.createTask({ title: 'Not quarterly' });
    const result = await client.complete({ ref: { type: 'ref/resource', uri: 'task://{taskId}' }, argument: { name: 'taskId', value: 'quart' } });
    // Open tasks first; the case of the title does not matter.
    expect(result.completion).toEqual({ values: [report.id, review.id], total: 2, hasMore: false });
    const byId = await client.complete({ ref: { type: 'ref/resource', uri: 'task://{taskId}' }, argument: { name: 'taskId', value: report.id.slice(0, 8) } });
    expect(byId.completion.values).toContain(report.id);
    const unknownTemplate = await refusal(client.complete({ ref: { type: 'ref/resource', uri: 'file:///{path}' }, argument: { name: 'path', value: '' } }));
    expect(unknownTemplate.code).toBe(-32602);
  });

  it('several POSTs to /mcp at once are each answered (stateless: no session to share)', async () => {
    const { accessToken } = await appTokens(server);
    const answers = await Promise.all(
      [1, 2, 3].map((id) => postMcp(server, { jsonrpc: '2.0', id, method: 'resources/templates/list', params: {} }, { authorization: `Bearer ${accessToken}` })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const bodies = (await Promise.all(answers.map((answer) => answer.json()))) as { id: number; result: unknown }[];
    expect(bodies.map((body) => body.id)).toEqual([1, 2, 3]);
  });
});

describe('what a resource needs', () => {
  it('a token without tasks:read is refused the task resources as it is refused the tools, naming the scope', async () => {
    const { accessToken, session } = await appTokens(server, { scope: 'connectors:read' });
    const task = (await session.client.createTask({ title: 'Not for this token' })).data!;
    const client = await connectMcpClient(server, accessToken);
    const tool = await callTool(client, 'get_task', { taskId: task.id });
    expect(tool.structured).toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:read' });

    // One at a time, each awaited as it is sent.
    for (const request of [
      () => client.readResource({ uri: `task://${task.id}` }),
      () => client.readResource({ uri: 'tasks://open' }),
      () => client.listResources(),
      () => client.complete({ ref: { type: 'ref/resource', uri: 'task://{taskId}' }, argument: { name: 'taskId', value: 'Not' } }),
      () => client.getPrompt({ name: 'plan_my_day' }),
    ]) {
      const refused = await refusal(request());
      expect(refused.data).toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:read' });
      expect(refused.message).toContain('tasks:read');
    }
    // What needs no scope still answers: the usage, and the lists that are the same for everyone.
    expect(await readJson(client, 'usage://me')).toMatchObject({ tasks: expect.any(Object) });
    expect((await client.listPrompts()).prompts).toHaveLength(3);
    await client.close();
  });
});
