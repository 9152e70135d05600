import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { CONTRACT_VERSION } from '@task-service/sdk';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('the TypeScript SDK and a deprecated parameter', () => {
  it('warns once per process, naming the operation and the sunset date, and only when a response says Deprecation', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { client } = await signedInClient(server);

    expect((await client.listTasks({ status: 'open' })).data).toBeDefined();
    expect(warn).not.toHaveBeenCalled();

    expect((await client.listTasks({ updatedSince: '2026-01-01T00:00:00Z' })).data).toEqual({ items: [], nextCursor: null });
    expect((await client.listTasks({ updatedSince: '2026-02-01T00:00:00Z' })).data).toBeDefined();
    expect(warn).toHaveBeenCalledTimes(1);
    const message = String(warn.mock.calls[0]![0]);
    expect(message).toContain('listTasks (GET /tasks)');
    expect(message).toContain('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(message).toContain(`${server.baseUrl}/docs#operation/listTasks`);
  });

  it('says which contract version it was generated from: the one the server serves', async () => {
    const served = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { info: { version: string } };
    expect(CONTRACT_VERSION).toBe(served.info.version);
  });
});
