import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TASKCTL, cliJson, loginThroughBrowser, newConfigDir, type CliOptions } from '../support/cli.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let as: CliOptions;
beforeAll(async () => {
  server = await startServer();
  const { email } = await signedInClient(server);
  as = { configDir: newConfigDir(), server };
  await loginThroughBrowser(server, as.configDir, email);
});
afterAll(async () => {
  await server?.stop();
});

async function connect(env: Record<string, string> = {}): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [TASKCTL, 'mcp'],
    env: { PATH: process.env.PATH ?? '', HOME: as.configDir, TASKCTL_CONFIG_DIR: as.configDir, TASKCTL_SERVER: server.baseUrl, ...env },
    stderr: 'pipe',
  });
  const client = new Client({ name: 'contract-test', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

describe('taskctl mcp (stdio, with the saved login)', () => {
  it("lists the same tools as the server's POST /mcp, from the shared catalogue", async () => {
    const client = await connect();
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(
        ['create_task', 'delete_task', 'get_sync_job', 'get_task', 'get_usage', 'list_connector_accounts', 'list_tasks', 'start_sync', 'update_task'].sort(),
      );
      const listTasks = tools.find((tool) => tool.name === 'list_tasks')!;
      expect(listTasks.annotations).toMatchObject({ readOnlyHint: true });
      expect(Object.keys(listTasks.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['status', 'limit', 'cursor', 'updatedSince']));
    } finally {
      await client.close();
    }
  });

  it('answers list_tasks with the REST page as structuredContent, and create_task through the same login', async () => {
    const made = await cliJson<{ id: string }>(['tasks', 'add', 'seen through MCP'], as);
    const client = await connect();
    try {
      const listed = await client.callTool({ name: 'list_tasks', arguments: { limit: 10 } });
      expect(listed.isError).toBeFalsy();
      const page = listed.structuredContent as { items: { id: string; title: string }[]; nextCursor: string | null };
      expect(page.items.map((task) => task.id)).toContain(made.id);
      expect((listed.content as { type: string; text: string }[])[0]!.text).toMatch(/tasks? on this page/);

      const created = await client.callTool({ name: 'create_task', arguments: { title: 'made by a model', priority: 2 } });
      expect(created.structuredContent).toMatchObject({ title: 'made by a model', priority: 2 });

      const missing = await client.callTool({ name: 'get_task', arguments: { taskId: '00000000-0000-4000-8000-000000000000' } });
      expect(missing.isError).toBe(true);
      expect(missing.structuredContent).toMatchObject({ code: 'NOT_FOUND' });
    } finally {
      await client.close();
    }
  });
});
