// The MCP server's cost over REST, same process, same account, taking turns on one keep-alive
// connection each: a `list_tasks` tool call (POST /mcp, src/mcp/stateless-transport.ts) against the same
// page through GET /tasks, and a `resources/read` of task://{id} against GET /tasks/{id}.
// Target: each MCP call costs at most 1.5x its REST call at p50.
import { randomUUID } from 'node:crypto';
import { Client } from 'undici';
import { createAccessTokens } from '../src/auth/access-tokens.js';
import { call, percentile, register, seedTasks, serveApp } from './harness.js';

const TASKS = 500;
const PAGE = 50;
const ROUNDS = 400;
const WARM_UP = 50;
const TARGET_RATIO = 1.5;

const { config, db, url, close } = await serveApp('sqlite');
const rest = new Client(url);
const mcp = new Client(url);
try {
  const { token: restToken, accountId } = await register(rest);
  const taskIds = await seedTasks(db, accountId, TASKS);
  // What an MCP host holds after the OAuth flow (contract-tests/mcp/oauth.test.ts): an OAuth app's access token bound to the MCP server.
  const mcpToken = createAccessTokens({ secret: config.JWT_SECRET!, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, lifetimeSeconds: 3600 }).sign({
    accountId,
    clientId: 'bench-mcp-host',
    scopes: ['tasks:read'],
    sessionId: randomUUID(),
    audience: `${url}/mcp`,
  });
  const mcpHeaders = { accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };
  /** One JSON-RPC request to /mcp: its time and its result (an error answer fails). */
  const mcpCall = async (id: number, method: string, params: Record<string, unknown>) => {
    const { body, elapsedMs } = await call(mcp, 'POST', '/mcp', mcpToken, { jsonrpc: '2.0', id, method, params }, mcpHeaders);
    const result = body.result as (Record<string, unknown> & { isError?: boolean }) | undefined;
    if (!result || result.isError) throw new Error(`POST /mcp ${method} answered ${JSON.stringify(body).slice(0, 300)}`);
    return { elapsedMs, result };
  };
  const taskOf = (round: number) => taskIds[round % TASKS]!;
  /** A REST call and the MCP request that answers the same. */
  const pairs: { rest: string; mcp: string; restCall: (round: number) => Promise<number>; mcpCall: (round: number) => Promise<number> }[] = [
    {
      rest: 'GET /tasks',
      mcp: 'POST /mcp list_tasks',
      restCall: async () => {
        const { body, elapsedMs } = await call(rest, 'GET', `/tasks?limit=${PAGE}`, restToken);
        return checked(elapsedMs, (body.items as unknown[]).length === PAGE);
      },
      mcpCall: async (round) => {
        const { result, elapsedMs } = await mcpCall(round, 'tools/call', { name: 'list_tasks', arguments: { limit: PAGE } });
        return checked(elapsedMs, (result.structuredContent as { items: unknown[] }).items.length === PAGE);
      },
    },
    {
      rest: 'GET /tasks/{id}',
      mcp: 'resources/read task://',
      restCall: async (round) => {
        const { body, elapsedMs } = await call(rest, 'GET', `/tasks/${taskOf(round)}`, restToken);
        return checked(elapsedMs, body.id === taskOf(round));
      },
      mcpCall: async (round) => {
        const { result, elapsedMs } = await mcpCall(round, 'resources/read', { uri: `task://${taskOf(round)}` });
        return checked(elapsedMs, JSON.parse((result.contents as { text: string }[])[0]!.text).id === taskOf(round));
      },
    },
  ];
  const lines = [`MCP vs REST, ${TASKS} tasks, SQLite, ${ROUNDS} calls each after ${WARM_UP} warm-up, one keep-alive connection each, same process (list: a page of ${PAGE}).`];
  const figures = (samples: number[]) => `p50 ${percentile(samples, 0.5).toFixed(2)} ms  p99 ${percentile(samples, 0.99).toFixed(2)} ms`;
  for (const pair of pairs) {
    const samples = { rest: [] as number[], mcp: [] as number[] };
    for (let round = 0; round < WARM_UP + ROUNDS; round++) {
      // Which goes first alternates, so a busy moment of the shared machine falls on both alike.
      const [restMs, mcpMs] = round % 2 ? [await pair.restCall(round), await pair.mcpCall(round)] : [await pair.mcpCall(round), await pair.restCall(round)].reverse();
      if (round < WARM_UP) continue;
      samples.rest.push(restMs!);
      samples.mcp.push(mcpMs!);
    }
    const ratio = percentile(samples.mcp, 0.5) / percentile(samples.rest, 0.5);
    lines.push(
      `  ${pair.rest.padEnd(24)} ${figures(samples.rest)}`,
      `  ${pair.mcp.padEnd(24)} ${figures(samples.mcp)}`,
      `  MCP : REST at p50 ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
    );
  }
  process.stdout.write(lines.join('\n') + '\n');
} finally {
  await Promise.all([rest.close(), mcp.close()]);
  await close();
}
process.exit(0);

/** An answer's time, once `ok` says it is the one asked for. */
function checked(elapsedMs: number, ok: boolean): number {
  if (!ok) throw new Error('an answer was not the one asked for');
  return elapsedMs;
}
