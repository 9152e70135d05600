// Operations figures, in one run:
// 1. what request ids + the access log + the request metrics cost on authenticated GET /tasks: the
//    same app with and without them (createApp's bench-only `observe: false`), fresh processes each
//    round, order alternating; the access log is written to a file, as in production;
// 2. capacity of one instance on PostgreSQL + Redis, everything on: GET /tasks and POST /tasks req/s;
// 3. limiter decisions per second on one Redis and on a three-master Redis Cluster this bench starts
//    itself (the real Limiter, FallbackStore and RedisStore; 1000 accounts, 64 decisions in flight).
// Run alone: node --import tsx bench/operations.bench.ts   (needs PostgreSQL and Redis as the tests do)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { TestRedisCluster } from '../contract-tests/support/redis-cluster.js';
import { createService } from '../src/service.js';
import { loadConfig } from '../src/config.js';
import { budgetsFrom } from '../src/limits/budgets.js';
import { FallbackStore } from '../src/limits/fallback.store.js';
import { Limiter } from '../src/limits/limiter.js';
import { MemoryStore } from '../src/limits/memory.store.js';
import { RedisStore } from '../src/limits/redis.store.js';
import { authenticatedPlan } from '../src/limits/request-plan.js';
import { createLogger } from '../src/platform/logger.js';
import { RedisConnection } from '../src/platform/redis.js';

const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const HIGH = '1000000000';
const CONNECTIONS = 10;
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
/** Turns each variant takes in a round of the observability comparison. */
const SLICES = 3;
const TASKS = 20;

const highLimits: Record<string, string> = Object.fromEntries(
  ['BURST_PER_MINUTE', 'SUSTAINED_PER_HOUR', 'CLIENT_BURST_PER_MINUTE', 'CLIENT_SUSTAINED_PER_HOUR', 'STRICT_BURST_PER_MINUTE', 'STRICT_SUSTAINED_PER_HOUR'].map(
    (name) => [`RATE_LIMIT_${name}`, HIGH],
  ),
);

/** The server side: the real app, observability on or off (BENCH_OBSERVE), its port sent over IPC. */
async function serve(): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger(config.LOG_LEVEL);
  const { app, components } = await createService(config, logger, { observe: process.env.BENCH_OBSERVE !== 'false' });
  const server = app.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as { port: number }).port }));
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() });
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void components.stop().finally(() => process.exit(0));
  });
}

interface Running {
  child: ChildProcess;
  baseUrl: string;
  token: string;
  dir: string;
}

async function start(env: Record<string, string>): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'operations-bench-'));
  const log = openSync(join(dir, 'server.log'), 'a');
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
      JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
      JWT_ACCESS_EXPIRES: '86400',
      CONNECTOR_SECRET_KEY: '0'.repeat(64),
      TASKS_MAX_PER_ACCOUNT: '1000000',
      ...highLimits,
      ...env,
    },
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.once('message', (message: { port: number }) => resolve(message.port));
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const registered = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' }),
  });
  const { accessToken: token } = (await registered.json()) as { accessToken: string };
  for (let i = 0; i < TASKS; i++) {
    await fetch(`${baseUrl}/tasks`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ title: `Task ${i}` }) });
  }
  return { child, baseUrl, token, dir };
}

function stop(server: Running): void {
  server.child.kill('SIGTERM');
  rmSync(server.dir, { recursive: true, force: true });
}

/** CPU microseconds the server process has used so far. */
function serverCpu(server: Running): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', ({ cpu }: { cpu: NodeJS.CpuUsage }) => resolve(cpu.user + cpu.system));
    server.child.send('cpu');
  });
}

async function load(server: Running, seconds: number, request: { method?: 'GET' | 'POST'; path: string; body?: string }) {
  const cpuBefore = await serverCpu(server);
  const result = await autocannon({
    url: `${server.baseUrl}${request.path}`,
    method: request.method ?? 'GET',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: request.body,
    connections: CONNECTIONS,
    duration: seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
  const cpuPerRequest = ((await serverCpu(server)) - cpuBefore) / result.requests.total;
  return { requestsPerSecond: result.requests.average, p99: result.latency.p99, cpuPerRequest };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const line = (cells: string[], first = 44) => process.stdout.write(`${cells[0]!.padEnd(first)}${cells.slice(1).map((cell) => cell.padStart(12)).join('')}\n`);

async function observabilityCost(): Promise<void> {
  const variants: { name: string; env: Record<string, string> }[] = [
    { name: 'without ids, access log, metrics', env: { BENCH_OBSERVE: 'false' } },
    { name: 'with them (access log to a file)', env: {} },
  ];
  const rounds = variants.map(() => [] as { requestsPerSecond: number; ratio: number; cpu: number; cpuRatio: number }[]);
  for (let round = 0; round < ROUNDS; round++) {
    const servers = await Promise.all(variants.map((variant) => start(variant.env)));
    try {
      for (const server of servers) await load(server, 2, { path: '/tasks' });
      // Short slices, the two variants taking turns: a burst of load elsewhere on the machine falls
      // on both, not on whichever happened to run then.
      const totals = variants.map(() => ({ seconds: 0, requests: 0, cpu: 0 }));
      for (let slice = 0; slice < SLICES; slice++) {
        const order = (round + slice) % 2 === 0 ? [0, 1] : [1, 0];
        for (const i of order) {
          const measured = await load(servers[i]!, ROUND_SECONDS / SLICES, { path: '/tasks' });
          totals[i]!.seconds += ROUND_SECONDS / SLICES;
          totals[i]!.requests += measured.requestsPerSecond * (ROUND_SECONDS / SLICES);
          totals[i]!.cpu += measured.cpuPerRequest * measured.requestsPerSecond * (ROUND_SECONDS / SLICES);
        }
      }
      const measured = totals.map((total) => ({ requestsPerSecond: total.requests / total.seconds, cpuPerRequest: total.cpu / total.requests }));
      variants.forEach((_, i) =>
        rounds[i]!.push({
          requestsPerSecond: measured[i]!.requestsPerSecond,
          ratio: measured[i]!.requestsPerSecond / measured[0]!.requestsPerSecond,
          cpu: measured[i]!.cpuPerRequest,
          cpuRatio: measured[i]!.cpuPerRequest / measured[0]!.cpuPerRequest,
        }),
      );
    } finally {
      servers.forEach(stop);
    }
  }
  process.stdout.write(`\nauthenticated GET /tasks (${TASKS} tasks, SQLite, in-process limits), ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s in ${SLICES} alternating slices, fresh processes each round\n`);
  process.stdout.write('paired: median ratio to the same round\'s baseline; server CPU µs per request, median (steadier on a shared machine)\n');
  line(['variant', 'best req/s', 'paired', 'CPU µs/req', 'CPU paired']);
  variants.forEach((variant, i) => {
    const of = (pick: (round: (typeof rounds)[number][number]) => number) => rounds[i]!.map(pick);
    line([
      variant.name,
      Math.max(...of((r) => r.requestsPerSecond)).toFixed(0),
      median(of((r) => r.ratio)).toFixed(3),
      median(of((r) => r.cpu)).toFixed(0),
      median(of((r) => r.cpuRatio)).toFixed(3),
    ]);
  });
  const throughputCost = 1 - median(rounds[1]!.map((r) => r.ratio));
  const cpuCost = median(rounds[1]!.map((r) => r.cpuRatio)) - 1;
  process.stdout.write(
    `cost of request ids + access log + metrics: throughput ${(throughputCost * 100).toFixed(1)}%, CPU per request ${(cpuCost * 100).toFixed(1)}% (target under 5%)\n`,
  );
}

async function capacity(): Promise<void> {
  const name = `task_service_bench_${randomUUID().replaceAll('-', '')}`;
  const admin = knexFactory({ client: 'pg', connection: POSTGRES_ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const server = await start({
    DATABASE_URL: POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    REDIS_URL,
    REDIS_KEY_PREFIX: `bench-${randomUUID()}:`,
  });
  try {
    await load(server, 2, { path: '/tasks' });
    const list = await load(server, ROUND_SECONDS * 2, { path: '/tasks?limit=20' });
    const create = await load(server, ROUND_SECONDS * 2, { method: 'POST', path: '/tasks', body: JSON.stringify({ title: 'Load' }) });
    process.stdout.write(`\none instance, PostgreSQL + Redis, everything on (ids, access log, metrics, limits), ${CONNECTIONS} connections, ${ROUND_SECONDS * 2} s each\n`);
    line(['operation', 'req/s', 'p99 ms']);
    line(['GET /tasks (page of 20)', list.requestsPerSecond.toFixed(0), String(list.p99)]);
    line(['POST /tasks', create.requestsPerSecond.toFixed(0), String(create.p99)]);
  } finally {
    stop(server);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await admin.raw(`drop database if exists ${name} with (force)`);
    await admin.destroy();
  }
}

async function limiterDecisions(): Promise<void> {
  const cluster = await TestRedisCluster.start(3);
  const budgets = budgetsFrom(loadConfig({ ...highLimits }));
  const plans = Array.from({ length: 1000 }, () =>
    authenticatedPlan(budgets, { accountId: randomUUID(), clientId: 'web', kind: 'web', scopes: [] }),
  );
  const logger = createLogger('silent');
  const stores: [string, { url: string; cluster: boolean }][] = [
    ['one Redis', { url: REDIS_URL, cluster: false }],
    ['Redis Cluster, three masters', { url: cluster.url, cluster: true }],
  ];
  process.stdout.write(`\nlimiter decisions (account + client windows, one Lua call each), 1000 accounts, 64 in flight, ${ROUND_SECONDS * 2} s each\n`);
  line(['store', 'decisions/s', 'fallbacks']);
  try {
    for (const [name, { url, cluster: isCluster }] of stores) {
      const connection = await RedisConnection.open({ url, cluster: isCluster, logger, onConnect: RedisStore.loadScript });
      const insurance = new MemoryStore();
      let fallbacks = 0;
      const counting = {
        spendNow: (...args: Parameters<MemoryStore['spendNow']>) => {
          fallbacks++;
          return insurance.spendNow(...args);
        },
      } as unknown as MemoryStore;
      const limiter = new Limiter(new FallbackStore(new RedisStore(connection.client, `bench-${randomUUID()}:rl:`), counting, connection));
      let next = 0;
      const run = async (ms: number) => {
        let decisions = 0;
        const end = Date.now() + ms;
        await Promise.all(
          Array.from({ length: 64 }, async () => {
            while (Date.now() < end) {
              await limiter.spend(plans[next++ % plans.length]!);
              decisions++;
            }
          }),
        );
        return decisions / (ms / 1000);
      };
      await run(1000);
      fallbacks = 0;
      const perSecond = await run(ROUND_SECONDS * 2000);
      line([name, perSecond.toFixed(0), String(fallbacks)]);
      await connection.close();
    }
  } finally {
    await cluster.stop();
  }
}

if (process.argv[2] === '--serve') {
  await serve();
} else {
  const only = process.env.BENCH_ONLY;
  if (!only || only === 'observability') await observabilityCost();
  if (!only || only === 'capacity') await capacity();
  if (!only || only === 'limiter') await limiterDecisions();
}
