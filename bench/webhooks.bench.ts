// Webhooks (docs/webhooks.md), on SQLite and PostgreSQL, the real service in this process:
// 1. deliveries per second: 5,000 due deliveries sent by one instance's worker (default concurrency)
//    to a loopback receiver in this process that answers 204 at once; from the worker's start to the
//    last delivery recorded as succeeded. Target: at least 500/s.
// 2. what a subscription costs a write: POST /tasks latency of an account with a webhook subscribed to
//    task.created (its outbox row written in the task's transaction, and its deliveries going out
//    meanwhile) against an account without, requests taking turns on one keep-alive connection each.
//    Target: at most 10% more.
// Run alone: node --import tsx bench/webhooks.bench.ts
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { createService } from '../src/wiring.js';
import { createDatabase, type Engine } from './harness.js';

const DELIVERIES = 5_000;
const WRITES = 1_500;
const WARMUP = 200;


function startReceiver(): Promise<{ server: Server; url: string; count: () => number }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, count: () => received })),
  );
}

async function call(client: Client, method: string, path: string, token: string | undefined, body?: unknown) {
  const started = performance.now();
  const res = await client.request({
    method: method as 'GET',
    path,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  const elapsedMs = performance.now() - started;
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text}`);
  return { body: JSON.parse(text || 'null') as Record<string, unknown>, elapsedMs };
}

const median = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
const p90 = (samples: number[]) => [...samples].sort((a, b) => a - b)[Math.floor(samples.length * 0.9)]!;

async function bench(engine: Engine) {
  const database = await createDatabase(engine);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    CONNECTOR_SECRET_KEY: '0'.repeat(64),
    CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
    RATE_LIMITS_ENABLED: 'false',
    TASKS_MAX_PER_ACCOUNT: '100000',
    LOG_LEVEL: 'silent',
  });
  const { app, db, components } = await createService(config, createLogger('silent'));
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const receiver = await startReceiver();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const subscribedApi = new Client(origin);
  const plainApi = new Client(origin);
  const register = async (client: Client) =>
    (await call(client, 'POST', '/auth/register', undefined, { email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' })).body
      .accessToken as string;
  try {
    const subscribed = await register(subscribedApi);
    const plain = await register(plainApi);
    const hook = (await call(subscribedApi, 'POST', '/webhooks', subscribed, { url: receiver.url, events: ['task.created'] })).body;

    // 1. Deliveries per second: the outbox filled while the worker is not running, then drained.
    const now = Date.now();
    const payload = JSON.stringify({ type: 'webhook.ping', timestamp: new Date(now).toISOString(), data: { webhookId: hook.id } });
    await db.batchInsert(
      'webhook_deliveries',
      Array.from({ length: DELIVERIES }, (_, i) => ({
        id: randomUUID(),
        webhook_id: hook.id,
        event_id: `msg_bench${i}`,
        event_type: 'webhook.ping',
        payload,
        status: 'pending',
        attempts: 0,
        created_at: now,
        next_attempt_at: now,
      })),
      500,
    );
    const started = performance.now();
    components.start();
    const succeeded = async () => Number((await db('webhook_deliveries').where('status', 'succeeded').count({ n: '*' }))[0]!.n);
    while ((await succeeded()) < DELIVERIES) await new Promise((resolve) => setTimeout(resolve, 20));
    const drainSeconds = (performance.now() - started) / 1000;
    if (receiver.count() < DELIVERIES) throw new Error(`the receiver got ${receiver.count()} of ${DELIVERIES}`);

    // 2. POST /tasks, subscribed against not, taking turns; the worker delivers the subscribed account's events meanwhile.
    const samples = { subscribed: [] as number[], plain: [] as number[] };
    for (let i = 0; i < WARMUP + WRITES; i++) {
      const first = i % 2 === 0;
      const a = await call(first ? subscribedApi : plainApi, 'POST', '/tasks', first ? subscribed : plain, { title: `bench ${i}` });
      const b = await call(first ? plainApi : subscribedApi, 'POST', '/tasks', first ? plain : subscribed, { title: `bench ${i}` });
      if (i < WARMUP) continue;
      samples.subscribed.push(first ? a.elapsedMs : b.elapsedMs);
      samples.plain.push(first ? b.elapsedMs : a.elapsedMs);
    }
    const deliveredAll = DELIVERIES + WARMUP + WRITES;
    const deadline = Date.now() + 30_000;
    while (receiver.count() < deliveredAll && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return {
      perSecond: DELIVERIES / drainSeconds,
      drainSeconds,
      subscribed: { p50: median(samples.subscribed), p90: p90(samples.subscribed) },
      plain: { p50: median(samples.plain), p90: p90(samples.plain) },
      taskEventsDelivered: receiver.count() - DELIVERIES,
    };
  } finally {
    await Promise.all([subscribedApi.close(), plainApi.close()]);
    server.close();
    receiver.server.close();
    await components.stop();
    await db.destroy();
    await database.drop();
  }
}

const lines = [
  `Webhooks: ${DELIVERIES} queued deliveries drained by one instance (concurrency ${loadConfig({}).WEBHOOK_DELIVERY_CONCURRENCY}) to a loopback receiver in this process;`,
  `then ${WRITES} POST /tasks each for an account subscribed to task.created and one without, taking turns (p50 / p90).`,
  `  ${'engine'.padEnd(10)} ${'deliveries/s'.padEnd(14)} ${'subscribed'.padEnd(22)} ${'unsubscribed'.padEnd(22)} cost (p50)`,
];
for (const engine of ['sqlite', 'postgres'] as const) {
  const figures = await bench(engine);
  const cost = (figures.subscribed.p50 / figures.plain.p50 - 1) * 100;
  lines.push(
    `  ${engine.padEnd(10)} ${figures.perSecond.toFixed(0).padEnd(14)} ${`${figures.subscribed.p50.toFixed(2)} / ${figures.subscribed.p90.toFixed(2)} ms`.padEnd(22)} ${`${figures.plain.p50.toFixed(2)} / ${figures.plain.p90.toFixed(2)} ms`.padEnd(22)} ${cost >= 0 ? '+' : ''}${cost.toFixed(1)}%  (${figures.taskEventsDelivered} task events delivered meanwhile)`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
