import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appTokens, connectMcpClient, type SessionClient } from '../support/mcp.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

let client: Client;
let rest: SessionClient;
// A fresh account for each test: a prompt is about the whole account.
beforeEach(async () => {
  await client?.close();
  const tokens = await appTokens(server);
  rest = tokens.session.client;
  client = await connectMcpClient(server, tokens.accessToken);
});
afterAll(async () => {
  await client?.close();
});

const DAY = 24 * 60 * 60 * 1000;
const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** The prompt's text and the resources it embeds, parsed. */
function partsOf(result: GetPromptResult) {
  expect(result.messages.every((message) => message.role === 'user')).toBe(true);
  const [first, ...rest] = result.messages;
  expect(first!.content.type).toBe('text');
  const embedded = rest.map((message) => {
    expect(message.content.type).toBe('resource');
    const resource = (message.content as { resource: { uri: string; mimeType: string; text: string } }).resource;
    expect(resource.mimeType).toBe('application/json');
    return { uri: resource.uri, body: JSON.parse(resource.text) as Record<string, unknown> };
  });
  return { text: (first!.content as { text: string }).text, embedded };
}

async function rpcError(request: Promise<unknown>): Promise<McpError> {
  const error = await request.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(McpError);
  return error as McpError;
}

describe('MCP prompts: commands a person picks', () => {
  it('lists plan_my_day, triage_overdue and weekly_review with their optional arguments', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((prompt) => [prompt.name, (prompt.arguments ?? []).map((argument) => argument.name)])).toEqual([
      ['plan_my_day', ['label', 'hours']],
      ['triage_overdue', ['label']],
      ['weekly_review', ['week']],
    ]);
    expect(prompts.every((prompt) => prompt.description && (prompt.arguments ?? []).every((argument) => !argument.required))).toBe(true);
  });

  it('plan_my_day embeds the open tasks as task:// resources, by priority and then due date, each as REST has it', async () => {
    const later = (await rest.createTask({ title: 'P2 due later', priority: 2, dueAt: inDays(5) })).data!;
    const undated = (await rest.createTask({ title: 'P1 without a date', priority: 1 })).data!;
    const sooner = (await rest.createTask({ title: 'P2 due sooner', priority: 2, dueAt: inDays(1), labels: ['home'] })).data!;
    const urgent = (await rest.createTask({ title: 'P1 due tomorrow', priority: 1, dueAt: inDays(1) })).data!;
    await rest.createTask({ title: 'Done already', priority: 1, status: 'completed' });

    const { text, embedded } = partsOf(await client.getPrompt({ name: 'plan_my_day', arguments: { hours: '6' } }));
    expect(embedded.map((part) => part.uri)).toEqual([urgent, undated, sooner, later].map((task) => `task://${task.id}`));
    for (const part of embedded) expect(part.body).toEqual((await rest.getTask(part.body.id as string)).data);
    expect(text).toContain('4 open tasks');
    expect(text).toContain('6 hours');

    const home = partsOf(await client.getPrompt({ name: 'plan_my_day', arguments: { label: 'home' } }));
    expect(home.embedded.map((part) => part.uri)).toEqual([`task://${sooner.id}`]);
  });

  it('triage_overdue embeds the open tasks past their due date, the longest overdue first, and nothing else', async () => {
    const week = (await rest.createTask({ title: 'A week late', dueAt: inDays(-7) })).data!;
    const day = (await rest.createTask({ title: 'A day late', dueAt: inDays(-1) })).data!;
    await rest.createTask({ title: 'Not due yet', dueAt: inDays(2) });
    await rest.createTask({ title: 'Late but done', dueAt: inDays(-3), status: 'completed' });
    await rest.createTask({ title: 'No due date' });

    const { text, embedded } = partsOf(await client.getPrompt({ name: 'triage_overdue' }));
    expect(embedded.map((part) => part.uri)).toEqual([`task://${week.id}`, `task://${day.id}`]);
    expect(text).toContain('2 open tasks');
    await rest.updateTask(week.id, { status: 'completed' });
    await rest.updateTask(day.id, { dueAt: inDays(3) });
    const none = partsOf(await client.getPrompt({ name: 'triage_overdue' }));
    expect(none.embedded).toEqual([]);
    expect(none.text).toContain('nothing to triage');
  });

  it('weekly_review embeds the tasks completed this week and then tasks://open as it reads', async () => {
    const first = (await rest.createTask({ title: 'Shipped it' })).data!;
    await rest.updateTask(first.id, { status: 'completed' });
    const second = (await rest.createTask({ title: 'Filed it', status: 'completed' })).data!;
    await rest.createTask({ title: 'Still open' });

    const { embedded } = partsOf(await client.getPrompt({ name: 'weekly_review' }));
    expect(embedded.map((part) => part.uri)).toEqual([`task://${first.id}`, `task://${second.id}`, 'tasks://open']);
    expect(embedded[2]!.body).toEqual((await rest.listTasks({ status: 'open' })).data);

    const lastWeek = partsOf(await client.getPrompt({ name: 'weekly_review', arguments: { week: 'last' } }));
    expect(lastWeek.embedded.map((part) => part.uri)).toEqual(['tasks://open']);
    expect(lastWeek.text).toContain('0 tasks completed');
  });

  it('arguments it does not know or cannot read are a -32602 error, as is a prompt that does not exist', async () => {
    expect((await rpcError(client.getPrompt({ name: 'weekly_review', arguments: { week: 'next' } }))).code).toBe(-32602);
    expect((await rpcError(client.getPrompt({ name: 'plan_my_day', arguments: { hours: 'lots' } }))).code).toBe(-32602);
    expect((await rpcError(client.getPrompt({ name: 'plan_my_day', arguments: { mood: 'sunny' } }))).code).toBe(-32602);
    expect((await rpcError(client.getPrompt({ name: 'drop_database' }))).code).toBe(-32602);
  });

  it('completion/complete offers the labels of the open tasks and the weeks for the prompts’ arguments', async () => {
    await rest.createTask({ title: 'a', labels: ['home', 'health'] });
    await rest.createTask({ title: 'b', labels: ['Hobby', 'work'] });
    await rest.createTask({ title: 'c', labels: ['hidden'], status: 'completed' });
    const labels = await client.complete({ ref: { type: 'ref/prompt', name: 'plan_my_day' }, argument: { name: 'label', value: 'h' } });
    expect(labels.completion).toEqual({ values: ['health', 'Hobby', 'home'], total: 3, hasMore: false });
    const triage = await client.complete({ ref: { type: 'ref/prompt', name: 'triage_overdue' }, argument: { name: 'label', value: 'wo' } });
    expect(triage.completion.values).toEqual(['work']);
    const weeks = await client.complete({ ref: { type: 'ref/prompt', name: 'weekly_review' }, argument: { name: 'week', value: 'l' } });
    expect(weeks.completion.values).toEqual(['last']);
    const hours = await client.complete({ ref: { type: 'ref/prompt', name: 'plan_my_day' }, argument: { name: 'hours', value: '' } });
    expect(hours.completion.values).toEqual([]);
    const unknown = await rpcError(client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'x' } }));
    expect(unknown.code).toBe(-32602);
  });
});
