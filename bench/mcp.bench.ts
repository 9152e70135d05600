// The MCP server's cost over REST: a `list_tasks` tool call (POST /mcp, JSON-RPC through the SDK's
// Streamable HTTP transport) against the same page through GET /tasks, in one run, same process, same
// account, taking turns. Target (issue 12): the tool call costs at most 1.5x the REST call at p50.
// Run alone: node --import tsx bench/mcp.bench.ts
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { createService } from '../src/wiring.js';
import { createAccessTokens } from '../src/auth/access-tokens.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';

const TASKS = 500;
const PAGE = 50;
const ROUNDS = 400;
const WARM_UP = 50;
const TARGET_RATIO = 1.5;

const dir = mkdtempSync(join(tmpdir(), 'task-service-bench-mcp-'));
const config = loadConfig({
  NODE_ENV: 'production',
  DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
  JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
  CONNECTOR_SECRET_KEY: '0'.repeat(64),
  RATE_LIMITS_ENABLED: 'false',
  LOG_LEVEL: 'silent',
});
const { app, db, components } = await createService(config, createLogger('silent'));
const server = await new Promise<Server>((resolve) => {
  const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
});
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const rest = new Client(base);
const mcp = new Client(base);

try {
  const registered = await rest.request({
    method: 'POST',
    path: '/auth/register',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' }),
  });
  const restToken = ((await registered.body.json()) as { accessToken: string }).accessToken;
  const accountId = JSON.parse(Buffer.from(restToken.split('.')[1]!, 'base64url').toString()).sub as string;
  const now = Date.now() - TASKS;
  await db.batchInsert(
    'tasks',
    Array.from({ length: TASKS }, (_, i) => ({
      id: randomUUID(), account_id: accountId, title: `Task number ${i} with a title of ordinary length`, notes: null, status: 'open',
      priority: 3, labels: '["work"]', created_at: now + i, updated_at: now + i,
    })),
    200,
  );
  await db('accounts').where('id', accountId).update({ task_count: TASKS });
  // What an MCP host holds after the OAuth flow (tested end to end in contract-tests/mcp/oauth.test.ts):
  // an access token of an OAuth app, bound to the MCP server.
  const mcpToken = createAccessTokens({ secret: config.JWT_SECRET!, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, lifetimeSeconds: 3600 }).sign({
    accountId, clientId: 'bench-mcp-host', scopes: ['tasks:read'], sessionId: randomUUID(), audience: `${base}/mcp`,
  });

  const restCall = async () => {
    const started = performance.now();
    const res = await rest.request({ method: 'GET', path: `/tasks?limit=${PAGE}`, headers: { authorization: `Bearer ${restToken}` } });
    const text = await res.body.text();
    const elapsed = performance.now() - started;
    if (res.statusCode !== 200) throw new Error(`GET /tasks answered ${res.statusCode}: ${text}`);
    return { elapsed, items: (JSON.parse(text) as { items: unknown[] }).items.length };
  };
  const mcpCall = async (id: number) => {
    const started = performance.now();
    const res = await mcp.request({
      method: 'POST',
      path: '/mcp',
      headers: { authorization: `Bearer ${mcpToken}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'list_tasks', arguments: { limit: PAGE } } }),
    });
    const text = await res.body.text();
    const elapsed = performance.now() - started;
    const answer = JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: { items: unknown[] } } };
    if (res.statusCode !== 200 || !answer.result || answer.result.isError) throw new Error(`POST /mcp answered ${res.statusCode}: ${text.slice(0, 300)}`);
    return { elapsed, items: answer.result.structuredContent!.items.length };
  };

  /** The same pair, the tool call sent first: [REST, MCP]. */
  const mcpFirst = async (id: number) => {
    const second = await mcpCall(id);
    return [await restCall(), second] as const;
  };
  const samples = { rest: [] as number[], mcp: [] as number[] };
  for (let round = 0; round < WARM_UP + ROUNDS; round++) {
    // Taking turns: a busy moment of this shared machine falls on both alike.
    const [a, b] = round % 2 ? [await restCall(), await mcpCall(round)] : await mcpFirst(round);
    if (a!.items !== PAGE || b!.items !== PAGE) throw new Error('a page was short');
    if (round >= WARM_UP) {
      samples.rest.push(a!.elapsed);
      samples.mcp.push(b!.elapsed);
    }
  }
  const p = (values: number[], q: number) => [...values].sort((x, y) => x - y)[Math.ceil(q * values.length) - 1]!;
  const ratio = p(samples.mcp, 0.5) / p(samples.rest, 0.5);
  process.stdout.write(
    [
      `list_tasks tool call (POST /mcp) vs GET /tasks, a page of ${PAGE} of ${TASKS} tasks, SQLite, ${ROUNDS} calls each after ${WARM_UP} warm-up, one keep-alive connection each, same process.`,
      `  ${'GET /tasks'.padEnd(24)} p50 ${p(samples.rest, 0.5).toFixed(2)} ms  p99 ${p(samples.rest, 0.99).toFixed(2)} ms`,
      `  ${'POST /mcp list_tasks'.padEnd(24)} p50 ${p(samples.mcp, 0.5).toFixed(2)} ms  p99 ${p(samples.mcp, 0.99).toFixed(2)} ms`,
      `  MCP : REST at p50 ${ratio.toFixed(2)}x (target <= ${TARGET_RATIO}x): ${ratio <= TARGET_RATIO ? 'met' : 'NOT met'}`,
    ].join('\n') + '\n',
  );
} finally {
  await Promise.all([rest.close(), mcp.close()]);
  server.close();
  await components.stop();
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
