// The MCP server's cost over REST, in one run, same process, same account, taking turns: a `list_tasks`
// tool call (POST /mcp, JSON-RPC to the one SDK server over src/mcp/stateless-transport.ts) against the same page
// through GET /tasks, and a `resources/read` of task://{id} against GET /tasks/{id}.
// Target: each MCP call costs at most 1.5x its REST call at p50.
// Run alone: node --import tsx bench/mcp.bench.ts
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { createAccessTokens } from '../src/auth/access-tokens.js';
import { percentile, serveApp } from './harness.js';

const TASKS = 500;
const PAGE = 50;
const ROUNDS = 400;
const WARM_UP = 50;
const TARGET_RATIO = 1.5;


/** The service on a throwaway SQLite file, listening, with an account of TASKS tasks and its two tokens. */
async function startBenchService() {
  const dir = mkdtempSync(join(tmpdir(), 'task-service-bench-mcp-'));
  const { config, db, components, server, url: base } = await serveApp(`sqlite:${join(dir, 'db.sqlite')}`);
  const stop = async () => {
    server.closeAllConnections();
    server.close();
    await components.stop();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  };
  const registered = await fetch(`${base}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' }),
  });
  const restToken = ((await registered.json()) as { accessToken: string }).accessToken;
  const accountId = JSON.parse(Buffer.from(restToken.split('.')[1]!, 'base64url').toString()).sub as string;
  const now = Date.now() - TASKS;
  const taskIds = Array.from({ length: TASKS }, () => randomUUID());
  await db.batchInsert(
    'tasks',
    Array.from({ length: TASKS }, (_, i) => ({
      id: taskIds[i], account_id: accountId, title: `Task number ${i} with a title of ordinary length`, notes: null, status: 'open',
      priority: 3, labels: '["work"]', created_at: now + i, updated_at: now + i, change_seq: i + 1,
    })),
    200,
  );
  await db('accounts').where('id', accountId).update({ task_count: TASKS, task_change_seq: TASKS });
  // What an MCP host holds after the OAuth flow (tested end to end in contract-tests/mcp/oauth.test.ts):
  // an access token of an OAuth app, bound to the MCP server.
  const mcpToken = createAccessTokens({ secret: config.JWT_SECRET!, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, lifetimeSeconds: 3600 }).sign({
    accountId, clientId: 'bench-mcp-host', scopes: ['tasks:read'], sessionId: randomUUID(), audience: `${base}/mcp`,
  });
  return { base, restToken, mcpToken, taskIds, stop };
}


const mcpHeadersFor = (mcpToken: string) => ({
  authorization: `Bearer ${mcpToken}`,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
});

await compare();
process.exit(0);

/** The pairs, taking turns on one keep-alive connection each, in this process. */
async function compare(): Promise<void> {
  const { base, restToken, mcpToken, taskIds, stop } = await startBenchService();
  const rest = new Client(base);
  const mcp = new Client(base);

  try {
    const mcpHeaders = mcpHeadersFor(mcpToken);
    /** One JSON-RPC request to /mcp: its time and its result (throws on an error answer). */
    const mcpRequest = async (id: number, method: string, params: Record<string, unknown>) => {
      const started = performance.now();
      const res = await mcp.request({ method: 'POST', path: '/mcp', headers: mcpHeaders, body: JSON.stringify({ jsonrpc: '2.0', id, method, params }) });
      const text = await res.body.text();
      const elapsed = performance.now() - started;
      const answer = JSON.parse(text) as { result?: Record<string, unknown> & { isError?: boolean } };
      if (res.statusCode !== 200 || !answer.result || answer.result.isError) throw new Error(`POST /mcp ${method} answered ${res.statusCode}: ${text.slice(0, 300)}`);
      return { elapsed, result: answer.result };
    };
    const restRequest = async (path: string) => {
      const started = performance.now();
      const res = await rest.request({ method: 'GET', path, headers: { authorization: `Bearer ${restToken}` } });
      const text = await res.body.text();
      const elapsed = performance.now() - started;
      if (res.statusCode !== 200) throw new Error(`GET ${path} answered ${res.statusCode}: ${text}`);
      return { elapsed, body: JSON.parse(text) as Record<string, unknown> };
    };

    const pairs: Pair[] = [
      {
        rest: 'GET /tasks',
        mcp: 'POST /mcp list_tasks',
        restCall: async () => {
          const { elapsed, body } = await restRequest(`/tasks?limit=${PAGE}`);
          return { elapsed, check: (body.items as unknown[]).length === PAGE };
        },
        mcpCall: async (id) => {
          const { elapsed, result } = await mcpRequest(id, 'tools/call', { name: 'list_tasks', arguments: { limit: PAGE } });
          return { elapsed, check: ((result.structuredContent as { items: unknown[] }).items).length === PAGE };
        },
      },
      {
        rest: 'GET /tasks/{id}',
        mcp: 'resources/read task://',
        restCall: async (id) => {
          const taskId = taskIds[id % TASKS]!;
          const { elapsed, body } = await restRequest(`/tasks/${taskId}`);
          return { elapsed, check: body.id === taskId };
        },
        mcpCall: async (id) => {
          const taskId = taskIds[id % TASKS]!;
          const { elapsed, result } = await mcpRequest(id, 'resources/read', { uri: `task://${taskId}` });
          const [contents] = result.contents as { text: string }[];
          return { elapsed, check: (JSON.parse(contents!.text) as { id: string }).id === taskId };
        },
      },
    ];

    const lines = [`MCP vs REST, ${TASKS} tasks, SQLite, ${ROUNDS} calls each after ${WARM_UP} warm-up, one keep-alive connection each, same process (list: a page of ${PAGE}).`];
    for (const pair of pairs) {
      const samples = { rest: [] as number[], mcp: [] as number[] };
      for (let round = 0; round < WARM_UP + ROUNDS; round++) {
        // Taking turns, and which goes first too: a busy moment of this shared machine falls on both alike.
        const [a, b] = round % 2 ? [await pair.restCall(round), await pair.mcpCall(round)] : await mcpFirst(pair, round);
        if (!a!.check || !b!.check) throw new Error(`${pair.rest} / ${pair.mcp}: an answer was not the one asked for`);
        if (round >= WARM_UP) {
          samples.rest.push(a!.elapsed);
          samples.mcp.push(b!.elapsed);
        }
      }
      const ratio = percentile(samples.mcp, 0.5) / percentile(samples.rest, 0.5);
      lines.push(
        `  ${pair.rest.padEnd(24)} p50 ${percentile(samples.rest, 0.5).toFixed(2)} ms  p99 ${percentile(samples.rest, 0.99).toFixed(2)} ms`,
        `  ${pair.mcp.padEnd(24)} p50 ${percentile(samples.mcp, 0.5).toFixed(2)} ms  p99 ${percentile(samples.mcp, 0.99).toFixed(2)} ms`,
        `  MCP : REST at p50 ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
      );
    }
    process.stdout.write(lines.join('\n') + '\n');
  } finally {
    await Promise.all([rest.close(), mcp.close()]);
    await stop();
  }
}

interface Timed {
  elapsed: number;
  /** Whether the answer was the one asked for. */
  check: boolean;
}

/** A REST call and the MCP request that answers the same, compared at p50. */
interface Pair {
  rest: string;
  mcp: string;
  restCall: (id: number) => Promise<Timed>;
  mcpCall: (id: number) => Promise<Timed>;
}

/** The same pair, the MCP request sent first: [REST, MCP]. */
async function mcpFirst(pair: Pair, id: number) {
  const second = await pair.mcpCall(id);
  return [await pair.restCall(id), second] as const;
}
