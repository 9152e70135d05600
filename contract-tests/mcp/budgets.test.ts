import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, ownRedisKeys } from '../support/limits.js';
import { appTokens, postMcp } from '../support/mcp.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { ...ownRedisKeys(), RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '5', TASKS_MAX_PER_ACCOUNT: '2' } });
});
afterAll(async () => {
  await server?.stop();
});

const toolCall = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('budgets and caps through /mcp', () => {
  it('at a client fence of 5, the 6th call in a minute is a tool result with RATE_LIMIT_EXCEEDED, and the HTTP answer carries Retry-After and the rate-limit headers', async () => {
    const { accessToken, session } = await appTokens(server);
    const authorization = `Bearer ${accessToken}`;
    await awayFromMinuteEnd(15);
    const served = [];
    for (let i = 1; i <= 5; i++) served.push(await postMcp(server, toolCall(i, 'list_tasks'), { authorization }));
    expect(served.map((response) => response.status)).toEqual([200, 200, 200, 200, 200]);
    expect(limitHeaders(served[4]!)).toMatchObject({ 'limit-client': 5, 'remaining-client': 0 });

    const refused = await postMcp(server, toolCall(6, 'list_tasks'), { authorization });
    expect(refused.status).toBe(200);
    const headers = limitHeaders(refused);
    expect(headers['retry-after']).toBeGreaterThanOrEqual(1);
    expect(headers['retry-after']).toBeLessThanOrEqual(60);
    expect(headers).toMatchObject({ 'limit-client': 5, 'remaining-client': 0 });
    const answer = (await refused.json()) as { id: number; result: { isError: boolean; structuredContent: Record<string, unknown> } };
    expect(answer.id).toBe(6);
    expect(answer.result.isError).toBe(true);
    expect(answer.result.structuredContent).toEqual({
      statusCode: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message: expect.stringMatching(/this client/i),
      retryAfterSeconds: headers['retry-after'],
      window: 'client-burst',
    });

    // The fence is the MCP client's own: the web session of the same account still has its budget.
    expect((await session.client.listTasks()).response.status).toBe(200);
  });

  it('at the task cap, create_task is a QUOTA_EXCEEDED result the model can read', async () => {
    // Raw calls: the SDK client's handshake would spend this small fence before the creates.
    const { accessToken } = await appTokens(server);
    const authorization = `Bearer ${accessToken}`;
    await awayFromMinuteEnd(10);
    const results = [];
    for (const [i, title] of ['one', 'two', 'three'].entries()) {
      const response = await postMcp(server, toolCall(i, 'create_task', { title }), { authorization });
      results.push(((await response.json()) as { result: { isError?: boolean; structuredContent: Record<string, unknown> } }).result);
    }
    expect(results.map((result) => result.isError ?? false)).toEqual([false, false, true]);
    expect(results[2]!.structuredContent).toMatchObject({ statusCode: 403, code: 'QUOTA_EXCEEDED', quota: 'tasks', limit: 2, used: 2 });
  });
});
