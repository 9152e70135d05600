import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appTokens, postMcp } from '../support/mcp.js';
import { startServer, type TestServer } from '../support/server.js';

// Its own server: the test breaks the database on purpose.
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface LogLine {
  msg?: string;
  level?: number;
  requestId?: string;
  tool?: string;
  err?: { message?: string; stack?: string };
}

const linesOf = (requestId: string): LogLine[] =>
  server.logs.flatMap((line) => {
    try {
      const parsed = JSON.parse(line) as LogLine;
      return parsed.requestId === requestId ? [parsed] : [];
    } catch {
      return [];
    }
  });

describe('a tool call whose handler throws', () => {
  it('answers INTERNAL_ERROR with the request id, and logs what was thrown with the request id, as HTTP does', async () => {
    const { accessToken } = await appTokens(server);
    await server.database.knex().schema.dropTable('sync_jobs');
    const id = `broken-${randomUUID()}`;
    const response = await postMcp(
      server,
      { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'get_sync_job', arguments: { jobId: randomUUID() } } },
      { authorization: `Bearer ${accessToken}`, 'X-Request-Id': id },
    );

    expect(response.status).toBe(200);
    const answer = (await response.json()) as { result: { isError: boolean; structuredContent: Record<string, unknown> } };
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent).toMatchObject({ code: 'INTERNAL_ERROR', requestId: id });
    let failed: LogLine | undefined;
    for (let i = 0; i < 50 && !failed; i++) {
      failed = linesOf(id).find((line) => line.msg === 'request failed');
      if (!failed) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(failed).toMatchObject({ level: 50, requestId: id, tool: 'get_sync_job' });
    // The cause, not the bare INTERNAL_ERROR the caller sees.
    expect(failed!.err?.message).toMatch(/sync_jobs/);
  });
});
