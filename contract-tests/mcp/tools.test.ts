import { request as httpRequest } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { appTokens, callTool, connectMcpClient, mcpUrl, postMcp } from '../support/mcp.js';
import { APP_REDIRECT, expectOAuthError, openConsentPage, pkcePair, redirectParams, refresh, registeredApp } from '../support/oauth.js';
import { startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
let feeds: FakeIcalFeeds;
beforeAll(async () => {
  [server, feeds] = await Promise.all([
    startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '60', CORS_ALLOWED_ORIGINS: 'https://app.example.com' } }),
    startFakeIcalFeeds(),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), feeds?.close()]);
});

/** What MCP's tools, resources and prompts use: never account (tokens:manage) or webhook management. */
const MCP_SCOPES = 'tasks:read tasks:write connectors:read connectors:write';

const TOOL_NAMES = [
  'list_tasks',
  'get_task',
  'create_task',
  'update_task',
  'delete_task',
  'get_usage',
  'list_connector_accounts',
  'start_sync',
  'get_sync_job',
];

describe('POST /mcp: the tools over the signed-in account', () => {
  let client: Client;
  let rest: Awaited<ReturnType<typeof appTokens>>['session']['client'];
  beforeAll(async () => {
    const tokens = await appTokens(server);
    rest = tokens.session.client;
    client = await connectMcpClient(server, tokens.accessToken);
  });
  afterAll(async () => {
    await client?.close();
  });

  it('initializes on the newest protocol revision and lists the nine tools with schemas from the document and hints', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'task-service' });
    expect(client.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    const create = tools.find((tool) => tool.name === 'create_task')!;
    expect(create.inputSchema).toMatchObject({
      type: 'object',
      required: ['title'],
      properties: { title: { type: 'string', minLength: 1, maxLength: 500 }, priority: { type: 'integer', enum: [1, 2, 3, 4] } },
    });
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    expect(tools.find((tool) => tool.name === 'list_tasks')!.annotations).toMatchObject({ readOnlyHint: true });
    expect(tools.find((tool) => tool.name === 'delete_task')!.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tools.find((tool) => tool.name === 'update_task')!.inputSchema.required).toEqual(['taskId']);
  });

  it('list_tasks finds tasks with the filters of listTasks: q, label, priority, dueAfter, dueBefore and sort, as REST answers them', async () => {
    for (const task of [
      { title: 'Pay rent', labels: ['Home'], priority: 1 as const, dueAt: '2031-01-03T09:00:00Z' },
      { title: 'Renew the café lease', labels: ['home', 'work'], priority: 2 as const, dueAt: '2031-01-01T09:00:00Z' },
      { title: 'Water plants', labels: ['garden'], priority: 4 as const },
    ]) {
      dataOf(await rest.createTask(task));
    }
    const { tools } = await client.listTools();
    const list = tools.find((tool) => tool.name === 'list_tasks')!;
    for (const name of ['q', 'label', 'priority', 'dueAfter', 'dueBefore', 'hasDue', 'sort']) expect(list.inputSchema.properties).toHaveProperty(name);
    expect(list.description).toContain('"cafe" finds');
    for (const query of [
      { q: 'cafe' },
      { q: 're', sort: 'due' },
      { label: ['HOME'], sort: '-created' },
      { label: ['home', 'work'] },
      { priority: [1, 4], sort: 'priority' },
      { dueAfter: '2031-01-02T00:00:00Z', dueBefore: '2031-02-01T00:00:00Z' },
      { hasDue: false },
    ]) {
      const page = await callTool(client, 'list_tasks', query);
      expect(page.result.isError, JSON.stringify(query)).toBeFalsy();
      expect(page.structured, JSON.stringify(query)).toEqual(dataOf(await rest.listTasks(query as Parameters<typeof rest.listTasks>[0])));
    }
    const titles = (await callTool(client, 'list_tasks', { q: 'REN', sort: 'due' })).structured.items as { title: string }[];
    expect(titles.map((task) => task.title)).toEqual(['Renew the café lease', 'Pay rent']);
    const refused = await callTool(client, 'list_tasks', { sort: 'title' });
    expect(refused.result.isError).toBe(true);
    for (const task of (await rest.listTasks({ limit: 50 })).data!.items) await rest.deleteTask(task.id);
  });

  it('create, get, update, list and delete a task: each result is the REST body, and REST sees the same task', async () => {
    const created = await callTool(client, 'create_task', { title: 'From the model', priority: 2, labels: ['mcp'] });
    expect(created.result.isError).toBeFalsy();
    const id = created.structured.id as string;
    expect(created.structured).toMatchObject({ title: 'From the model', priority: 2, labels: ['mcp'], status: 'open', source: null });
    expect((created.result.content as { text: string }[])[0]!.text).toContain('From the model');
    expect((await rest.getTask(id)).data).toEqual(created.structured);

    expect((await callTool(client, 'get_task', { taskId: id })).structured).toEqual(created.structured);

    const updated = await callTool(client, 'update_task', { taskId: id, status: 'completed' });
    expect(updated.structured).toMatchObject({ id, status: 'completed', completedAt: expect.any(String) });
    expect((await rest.getTask(id)).data).toEqual(updated.structured);

    const page = await callTool(client, 'list_tasks', { status: 'completed', limit: 10 });
    expect(page.structured).toEqual((await rest.listTasks({ status: 'completed', limit: 10 })).data);
    expect(page.structured.items).toHaveLength(1);

    const deleted = await callTool(client, 'delete_task', { taskId: id });
    expect(deleted.result.isError).toBeFalsy();
    expect((await rest.getTask(id)).response.status).toBe(404);
    const again = await callTool(client, 'get_task', { taskId: id });
    expect(again.result.isError).toBe(true);
    expect(again.structured).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('update_task and delete_task with an expectedVersion the task has moved past fail with PRECONDITION_FAILED and change nothing', async () => {
    const task = (await rest.createTask({ title: 'Guarded' })).data!;
    await rest.updateTask(task.id, { title: 'Moved on' });

    const stale = await callTool(client, 'update_task', { taskId: task.id, title: 'Lost update', expectedVersion: 1 });
    expect(stale.result.isError).toBe(true);
    expect(stale.structured).toMatchObject({ statusCode: 412, code: 'PRECONDITION_FAILED' });
    const staleDelete = await callTool(client, 'delete_task', { taskId: task.id, expectedVersion: 1 });
    expect(staleDelete.structured).toMatchObject({ code: 'PRECONDITION_FAILED' });
    expect((await rest.getTask(task.id)).data).toMatchObject({ title: 'Moved on', version: 2 });

    const versionAlone = await callTool(client, 'update_task', { taskId: task.id, expectedVersion: 2 });
    expect(versionAlone.structured).toMatchObject({ code: 'VALIDATION_FAILED' });

    const applied = await callTool(client, 'update_task', { taskId: task.id, title: 'On top', expectedVersion: 2 });
    expect(applied.structured).toMatchObject({ title: 'On top', version: 3 });
    expect((applied.result.content as { text: string }[])[0]!.text).toContain('version 3');
    expect((await callTool(client, 'delete_task', { taskId: task.id, expectedVersion: 3 })).result.isError).toBeFalsy();
    expect((await rest.getTask(task.id)).response.status).toBe(404);
  });

  it('arguments are checked against the schema from the document: a refusal names the argument, nothing is created', async () => {
    const before = dataOf(await rest.listTasks()).items.length;
    const tooUrgent = await callTool(client, 'create_task', { title: 'x', priority: 9 });
    expect(tooUrgent.result.isError).toBe(true);
    expect(tooUrgent.structured).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/priority', message: expect.any(String) }] });
    const unknown = await callTool(client, 'create_task', { title: 'x', colour: 'red' });
    expect(unknown.structured).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/colour' }] });
    const noChange = await callTool(client, 'update_task', { taskId: '00000000-0000-4000-8000-000000000000' });
    expect(noChange.structured).toMatchObject({ code: 'VALIDATION_FAILED' });
    const badId = await callTool(client, 'get_task', { taskId: 'not-a-uuid' });
    expect(badId.structured).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/taskId' }] });
    expect(dataOf(await rest.listTasks()).items).toHaveLength(before);
  });

  it('get_usage is GET /me/usage; list_connector_accounts, start_sync and get_sync_job run the connected feed', async () => {
    const usage = await callTool(client, 'get_usage');
    expect(usage.structured).toMatchObject({ tasks: { limit: 10_000, used: expect.any(Number) }, rateLimits: { client: { burst: { limit: 60 } } } });

    feeds.setFeed('/mcp.ics', [{ uid: 'mcp-1', summary: 'Synced through MCP' }]);
    const account = dataOf(await rest.connectAccount('ical', { url: feeds.url('/mcp.ics') }));
    const accounts = await callTool(client, 'list_connector_accounts');
    expect(accounts.structured).toEqual((await rest.listConnectorAccounts()).data);

    const started = await callTool(client, 'start_sync', { accountId: account.id });
    expect(started.structured).toMatchObject({ connectorAccountId: account.id, status: expect.stringMatching(/queued|running|succeeded/) });
    const jobId = started.structured.id as string;
    let job = started.structured;
    for (let i = 0; i < 100 && job.status !== 'succeeded' && job.status !== 'failed'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await callTool(client, 'get_sync_job', { jobId })).structured;
    }
    expect(job).toMatchObject({ id: jobId, status: 'succeeded', created: 1 });
    expect(dataOf(await rest.listTasks()).items.some((task) => task.title === 'Synced through MCP')).toBe(true);
  });

  it('an unknown tool is a JSON-RPC error, not a result', async () => {
    await expect(client.callTool({ name: 'drop_database', arguments: {} })).rejects.toThrow(/Unknown tool/);
  });
});

describe('what a tool needs', () => {
  it('a token without the tool’s scope gets a result naming the scope, and nothing is done', async () => {
    const { accessToken, session } = await appTokens(server, { scope: 'tasks:read' });
    const client = await connectMcpClient(server, accessToken);
    const refused = await callTool(client, 'create_task', { title: 'not allowed' });
    expect(refused.result.isError).toBe(true);
    expect(refused.structured).toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:write' });
    expect(dataOf(await session.client.listTasks()).items).toEqual([]);
    expect((await callTool(client, 'list_tasks')).result.isError).toBeFalsy();
    await client.close();
  });
});

describe('audience-bound tokens (RFC 8707)', () => {
  const me = (accessToken: string) => fetch(`${server.baseUrl}/me`, { headers: { authorization: `Bearer ${accessToken}` } });

  it('a token for the MCP server carries aud = {base}/mcp, works on /mcp and is refused by the REST API', async () => {
    const { accessToken } = await appTokens(server);
    const payload = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { aud: string };
    expect(payload.aud).toBe(`${server.baseUrl}/mcp`);
    const refused = await me(accessToken);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token", resource_metadata=".*\/\.well-known\/oauth-protected-resource"$/);
    expect((await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${accessToken}` })).status).toBe(200);
  });

  it('a token for the REST API (no resource, or the base URL) and a web session are refused by /mcp with invalid_token', async () => {
    for (const resource of [null, server.baseUrl]) {
      const { accessToken } = await appTokens(server, { resource });
      expect((await me(accessToken)).status).toBe(200);
      const refused = await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${accessToken}` });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe(
        `Bearer error="invalid_token", scope="${MCP_SCOPES}", resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`,
      );
    }
    const { tokens } = await appTokens(server).then((t) => ({ tokens: t.session.tokens }));
    expect((await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${tokens.accessToken}` })).status).toBe(401);
  });

  it('an unknown resource is invalid_target at the authorisation endpoint and at the token endpoint; a refresh keeps the grant’s resource', async () => {
    const clientId = await registeredApp(server);
    const { challenge } = pkcePair();
    const page = await openConsentPage(server, { client_id: clientId, redirect_uri: APP_REDIRECT, code_challenge: challenge, state: 's', resource: 'https://evil.example/mcp' });
    expect(redirectParams(page.response, APP_REDIRECT)).toMatchObject({ error: 'invalid_target', state: 's', iss: server.baseUrl });

    const { refreshToken, clientId: mcpClient } = await appTokens(server);
    expectOAuthError(await refresh(server, mcpClient, refreshToken, undefined, 'https://evil.example/mcp'), 400, 'invalid_target');
    expectOAuthError(await refresh(server, mcpClient, refreshToken, undefined, server.baseUrl), 400, 'invalid_target');
    const refreshed = await refresh(server, mcpClient, refreshToken, undefined, `${server.baseUrl}/mcp`);
    expect(refreshed.response.status).toBe(200);
    const again = await refresh(server, mcpClient, refreshed.body.refresh_token as string);
    const aud = (token: unknown) => (JSON.parse(Buffer.from(String(token).split('.')[1]!, 'base64url').toString()) as { aud: string }).aud;
    expect(aud(refreshed.body.access_token)).toBe(`${server.baseUrl}/mcp`);
    expect(aud(again.body.access_token)).toBe(`${server.baseUrl}/mcp`);
  });
});

/** A POST with the Host header of our choosing (fetch will not send one). */
function postWithHost(host: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port: server.port, path: '/mcp', method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }));
  });
}

describe('DNS-rebinding protection', () => {
  it('a foreign Host is refused with 403 before anything else (no budget spent, no credentials looked at)', async () => {
    const { accessToken } = await appTokens(server);
    const refused = await postWithHost('evil.example', { authorization: `Bearer ${accessToken}` });
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.body)).toMatchObject({ statusCode: 403, code: 'HOST_NOT_ALLOWED' });
    expect(refused.headers['x-ratelimit-limit']).toBeUndefined();
    expect((await postWithHost(`localhost:${server.port}`)).status).toBe(401);
  });

  it('an Origin outside CORS_ALLOWED_ORIGINS is refused with 403; a listed one is served', async () => {
    const { accessToken } = await appTokens(server);
    const authorization = `Bearer ${accessToken}`;
    const refused = await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization, origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' });
    expect((await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization, origin: 'https://app.example.com' })).status).toBe(200);
  });
});

describe('the transport', () => {
  it('GET and DELETE /mcp answer 405 naming POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(mcpUrl(server), { method, headers: { accept: 'text/event-stream' } });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('POST');
    }
  });

  it('a POST without credentials is a 401 naming the scopes the MCP server uses and pointing at its resource metadata', async () => {
    const response = await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer scope="${MCP_SCOPES}", resource_metadata="${server.baseUrl}/.well-known/oauth-protected-resource/mcp"`);
  });

  it('every POST is an API request: the rate-limit headers come with the answer', async () => {
    const { accessToken } = await appTokens(server);
    const response = await postMcp(server, { jsonrpc: '2.0', id: 1, method: 'ping' }, { authorization: `Bearer ${accessToken}` });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(response.headers.get('x-ratelimit-limit-client')).toBe('60');
    expect(response.headers.get('x-ratelimit-remaining-client')).toBe('59');
  });
});
