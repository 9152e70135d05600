// Throughput of authenticated GET /tasks through the whole app (sign-in, limits, validation, SQLite)
// with the limits off, with our limiter on its in-process store and on Redis, and as anchors the same
// app with four stacked express-rate-limit + rate-limit-redis limiters and with four
// rate-limiter-flexible Redis limiters in its place. Limits are far above what the run can spend.
// Each server runs in a process of its own (this file with --serve), fresh every round; autocannon
// runs here; the order of the variants rotates from round to round. Printed: the best round (a noisy
// neighbour only ever slows a round down), the median ratio to the same round's baseline, and the
// server's and Redis's CPU per request; then the limiters alone, without HTTP, CPU per decision.
// Run alone: node --import tsx bench/rate-limits.bench.ts   (needs Redis at BENCH_REDIS_URL)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Request, RequestHandler } from 'express';
import type { Caller } from '../src/http/caller.js';
import { callerIn } from '../src/http/request-state.js';
import { rateLimit as expressRateLimit } from 'express-rate-limit';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { RedisStore as ExpressRedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { createService } from '../src/wiring.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { budgetsFrom } from '../src/limits/budgets.js';
import { FallbackStore } from '../src/limits/fallback.store.js';
import { Limiter } from '../src/limits/limiter.js';
import { MemoryStore } from '../src/limits/memory.store.js';
import { RedisStore } from '../src/limits/redis.store.js';
import { authenticatedPlans } from '../src/limits/request-plan.js';
import { RedisConnection, type RedisClient } from '../src/platform/redis.js';
import { cpuSoFar, median, REDIS_URL, runLoad, serverCpu, type CpuAnswer } from './harness.js';

// Database 7 of the local Redis belongs to this bench (tests use 9 to 15); it is emptied first.
const HIGH = '1000000000';
const CONNECTIONS = 10;
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5); // as many as variants: each takes each place once
const WARM_UP_SECONDS = 3;
const TASKS = 20;
const SETTLE_MS = 1000;

interface Variant {
  name: string;
  env: Record<string, string>;
  anchor?: AnchorName;
}

const variants: Variant[] = [
  { name: 'limits off', env: { RATE_LIMITS_ENABLED: 'false' } },
  { name: 'in-process store', env: {} },
  { name: 'Redis store (one Lua round trip)', env: { REDIS_URL } },
  { name: 'express-rate-limit + rate-limit-redis x4', env: { RATE_LIMITS_ENABLED: 'false' }, anchor: 'express-rate-limit' },
  { name: 'rate-limiter-flexible Redis x4', env: { RATE_LIMITS_ENABLED: 'false' }, anchor: 'rate-limiter-flexible' },
];

const highLimits = Object.fromEntries(
  [
    'RATE_LIMIT_BURST_PER_MINUTE',
    'RATE_LIMIT_SUSTAINED_PER_HOUR',
    'RATE_LIMIT_CLIENT_BURST_PER_MINUTE',
    'RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR',
    'RATE_LIMIT_STRICT_BURST_PER_MINUTE',
    'RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR',
  ].map((name) => [name, HIGH]),
);

type AnchorName = 'express-rate-limit' | 'rate-limiter-flexible';

/** The four windows of an authenticated request: account and client, burst and sustained. */
const anchorWindows: { name: string; seconds: number; key: (request: AnchorRequest) => string }[] = [
  { name: 'account-burst', seconds: 60, key: ({ caller, ip }) => caller?.accountId ?? ip ?? '' },
  { name: 'account-sustained', seconds: 3600, key: ({ caller, ip }) => caller?.accountId ?? ip ?? '' },
  { name: 'client-burst', seconds: 60, key: ({ caller }) => `${caller?.accountId}:${caller?.clientId}` },
  { name: 'client-sustained', seconds: 3600, key: ({ caller }) => `${caller?.accountId}:${caller?.clientId}` },
];

/** What the anchors key on: the identify step's caller (res.locals.identity), else the address. */
interface AnchorRequest {
  caller: Caller | undefined;
  ip: string | undefined;
}
const anchorRequest = (req: Request): AnchorRequest => ({ caller: callerIn(req.res?.locals.identity), ip: req.ip });

/** What a team would stack from the libraries: four limiters, one Redis round trip (or more) each, not atomic together. */
async function anchorLimiter(anchor: AnchorName, limit: number): Promise<RequestHandler> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  if (anchor === 'express-rate-limit') {
    const stack = anchorWindows.map((window) =>
      expressRateLimit({
        windowMs: window.seconds * 1000,
        limit,
        keyGenerator: (req: Request) => window.key(anchorRequest(req)),
        standardHeaders: 'draft-6',
        legacyHeaders: false,
        validate: false,
        store: new ExpressRedisStore({ prefix: `erl:${window.name}:`, sendCommand: (...args: string[]) => client.sendCommand(args) }),
      }),
    );
    return (req, res, next) => {
      let index = 0;
      const step = (err?: unknown) => (err || index === stack.length ? next(err) : void stack[index++]!(req, res, step));
      step();
    };
  }
  const limiters = anchorWindows.map((window) => ({
    window,
    limiter: new RateLimiterRedis({ storeClient: client, useRedisPackage: true, keyPrefix: `rlf:${window.name}`, points: limit, duration: window.seconds }),
  }));
  return async (req, res, next) => {
    try {
      const results = await Promise.all(limiters.map(({ window, limiter }) => limiter.consume(window.key(anchorRequest(req)))));
      res.setHeader('X-RateLimit-Limit', String(limit));
      res.setHeader('X-RateLimit-Remaining', String(Math.min(...results.map((result) => result.remainingPoints))));
      next();
    } catch (rejection) {
      if (rejection instanceof Error) return next(rejection);
      res.status(429).json({ statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded.' });
    }
  };
}

/** The server side: the real app, with the anchor in place of our limiter when asked. */
async function serve(anchor: AnchorName | undefined): Promise<void> {
  const config = loadConfig(process.env);
  const logger = createLogger('silent');
  const { app, components } = await createService(config, logger, anchor ? { rateLimit: await anchorLimiter(anchor, Number(HIGH)) } : {});
  const server = app.listen(0, '127.0.0.1', () => {
    process.stdout.write(`listening on port ${(server.address() as { port: number }).port}\n`);
  });
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: cpuSoFar() } satisfies CpuAnswer);
  });
  process.on('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    void components.stop().finally(() => process.exit(0));
  });
}

interface Running {
  variant: Variant;
  child: ChildProcess;
  baseUrl: string;
  token: string;
  path: string;
  dir: string;
}

async function start(variant: Variant): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'rate-limits-bench-'));
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `sqlite:${join(dir, 'db.sqlite')}`,
    JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    JWT_ACCESS_EXPIRES: '86400',
    CONNECTOR_SECRET_KEY: '0'.repeat(64),
    ...highLimits,
    ...variant.env,
  };
  const args = ['--import', 'tsx', new URL(import.meta.url).pathname, '--serve', variant.anchor ?? ''];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${variant.name}: server exited with ${code}`)));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const match = /listening on port (\d+)/.exec(line);
      if (match) resolve(Number(match[1]));
    });
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const registered = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}-${Math.random()}@example.com`, password: 'correct horse battery staple' }),
  });
  const { accessToken: token } = (await registered.json()) as { accessToken: string };
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < TASKS; i++) {
    await fetch(`${baseUrl}/tasks`, { method: 'POST', headers: auth, body: JSON.stringify({ title: `Task ${i}` }) });
  }
  // Until the tasks component serves GET /tasks (501 before), measure GET /me, and say so.
  const tasks = await fetch(`${baseUrl}/tasks`, { headers: auth });
  const path = tasks.status === 200 ? '/tasks' : '/me';
  return { variant, child, baseUrl, token, path, dir };
}

/** CPU microseconds the Redis server has used so far (all its clients: only this bench runs then). */
async function redisCpu(redis: RedisClient): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}

interface Measurement {
  requestsPerSecond: number;
  p99: number;
  /** Server and Redis CPU per request, microseconds: what the limiter costs, whatever else runs. */
  serverCpuPerRequest: number;
  redisCpuPerRequest: number;
}

async function measure(server: Running, seconds: number, redis: RedisClient): Promise<Measurement> {
  // Let the server measured before settle (closing sockets, collecting garbage) on a 2-core machine.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const [cpuBefore, redisBefore] = [(await serverCpu(server.child)).all, await redisCpu(redis)];
  // Any answer but a 2xx fails the bench: a limit was reached or the server failed.
  const result = await runLoad(server.baseUrl, { path: server.path, headers: { authorization: `Bearer ${server.token}` } }, { connections: CONNECTIONS, seconds });
  const [cpuAfter, redisAfter] = [(await serverCpu(server.child)).all, await redisCpu(redis)];
  const served = result.total;
  return {
    requestsPerSecond: result.requestsPerSecond,
    p99: result.p99,
    serverCpuPerRequest: (cpuAfter - cpuBefore) / served,
    redisCpuPerRequest: (redisAfter - redisBefore) / served,
  };
}


/**
 * The limiters alone, without HTTP: decisions per second with 10 in flight, and CPU per decision
 * of this process and of Redis. Steadier than throughput on a shared machine.
 */
async function decisionCosts(redis: RedisClient): Promise<void> {
  const limit = Number(HIGH);
  const budgets = budgetsFrom(loadConfig({ ...highLimits }));
  const caller = { accountId: '0b4f2b64-6c1e-4d5e-9d8f-1a2b3c4d5e6f', clientId: 'web', kind: 'web' as const, scopes: [] };
  const plan = authenticatedPlans(budgets)(caller);
  const request: AnchorRequest = { caller, ip: undefined };
  const connection = await RedisConnection.open({ url: REDIS_URL, logger: createLogger('silent'), onConnect: RedisStore.loadScript });
  const memory = new Limiter(new MemoryStore());
  const ours = new Limiter(new FallbackStore(new RedisStore(connection.client, 'bench:rl:'), new MemoryStore(), connection));
  const anchorClient: RedisClient = createClient({ url: REDIS_URL });
  await anchorClient.connect();
  const expressStores = anchorWindows.map((window) => {
    const store = new ExpressRedisStore({ prefix: `erl-d:${window.name}:`, sendCommand: (...args: string[]) => anchorClient.sendCommand(args) });
    store.init({ windowMs: window.seconds * 1000 } as Parameters<ExpressRedisStore['init']>[0]);
    return { window, store };
  });
  const flexible = anchorWindows.map((window) => ({
    window,
    limiter: new RateLimiterRedis({ storeClient: anchorClient, useRedisPackage: true, keyPrefix: `rlf-d:${window.name}`, points: limit, duration: window.seconds }),
  }));
  const limiters: [string, () => Promise<unknown>][] = [
    ['in-process store', () => memory.spend(plan)],
    ['Redis store (one Lua round trip)', () => ours.spend(plan)],
    ['express-rate-limit stores x4 (in turn)', async () => {
      for (const { window, store } of expressStores) await store.increment(window.key(request));
    }],
    ['rate-limiter-flexible x4 (in parallel)', () => Promise.all(flexible.map(({ window, limiter }) => limiter.consume(window.key(request))))],
  ];
  process.stdout.write(`\nthe limiters alone (no HTTP), 10 decisions in flight, 2 s each\n`);
  const line = (cells: string[]) => process.stdout.write(`${cells[0]!.padEnd(42)}${cells.slice(1).map((cell) => cell.padStart(14)).join('')}\n`);
  line(['limiter', 'decisions/s', 'node µs each', 'Redis µs each']);
  for (const [name, decide] of limiters) {
    for (let i = 0; i < 1000; i++) await decide();
    const [cpuBefore, redisBefore, started] = [process.cpuUsage(), await redisCpu(redis), performance.now()];
    let decisions = 0;
    const end = Date.now() + 2000;
    await Promise.all(Array.from({ length: 10 }, async () => {
      while (Date.now() < end) {
        await decide();
        decisions++;
      }
    }));
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const redisUsed = (await redisCpu(redis)) - redisBefore;
    line([name, (decisions / seconds).toFixed(0), ((cpu.user + cpu.system) / decisions).toFixed(1), (redisUsed / decisions).toFixed(1)]);
  }
  anchorClient.destroy();
  await connection.close();
}

interface Round extends Measurement {
  /** Throughput over the baseline's in the same round. */
  ratio: number;
}

async function main(): Promise<void> {
  const redis: RedisClient = createClient({ url: REDIS_URL });
  await redis.connect();
  await redis.flushDb();
  try {
    const baseline = variants[0]!;
    const rounds = new Map<Variant, Round[]>(variants.map((variant) => [variant, []]));
    let path = '';
    for (let round = 0; round < ROUNDS; round++) {
      // Fresh processes every round: one process's JIT and memory layout can be a few percent off
      // another's. Every variant takes every place in the order once in as many rounds as there are
      // variants: whatever the place costs (what the server before it left running) hits all alike.
      const servers = new Map<Variant, Running>();
      try {
        for (const variant of variants) servers.set(variant, await start(variant));
        for (const server of servers.values()) await measure(server, WARM_UP_SECONDS, redis);
        path = servers.get(baseline)!.path;
        const measured = new Map<Variant, Measurement>();
        for (const variant of variants.map((_, i) => variants[(i + round) % variants.length]!)) {
          measured.set(variant, await measure(servers.get(variant)!, ROUND_SECONDS, redis));
        }
        const reference = measured.get(baseline)!.requestsPerSecond;
        for (const [variant, result] of measured) rounds.get(variant)!.push({ ...result, ratio: result.requestsPerSecond / reference });
      } finally {
        for (const server of servers.values()) stop(server);
      }
    }
    report(path, rounds);
    await decisionCosts(redis);
  } finally {
    redis.destroy();
  }
}

function stop(server: Running): void {
  server.child.kill('SIGTERM');
  rmSync(server.dir, { recursive: true, force: true });
}

function report(path: string, rounds: Map<Variant, Round[]>): void {
  const of = (variant: Variant, pick: (round: Round) => number) => rounds.get(variant)!.map(pick);
  const best = (variant: Variant) => Math.max(...of(variant, (r) => r.requestsPerSecond));
  const cpu = (variant: Variant) => median(of(variant, (r) => r.serverCpuPerRequest + r.redisCpuPerRequest));
  const baseline = variants[0]!;
  const rows = variants.map((server) => ({
    name: server.name,
    best: best(server),
    ratio: best(server) / best(baseline),
    paired: median(of(server, (r) => r.ratio)),
    serverCpu: median(of(server, (r) => r.serverCpuPerRequest)),
    redisCpu: median(of(server, (r) => r.redisCpuPerRequest)),
    cpuRatio: cpu(baseline) / cpu(server),
    p99: median(of(server, (r) => r.p99)),
  }));
  const line = (cells: string[]) => process.stdout.write(`${cells[0]!.padEnd(42)}${cells.slice(1).map((cell) => cell.padStart(10)).join('')}\n`);
  process.stdout.write(
    `authenticated GET ${path} (${TASKS} tasks on SQLite), ${CONNECTIONS} connections, ${ROUNDS} rounds (fresh processes each) of ${ROUND_SECONDS} s per variant\n` +
      `best req/s: best round (others' work on a shared machine only ever slows a round down); paired: median ratio to the\n` +
      `same round's baseline; CPU µs/req: server process + Redis, median; CPU ratio: baseline CPU / this CPU\n\n`,
  );
  line(['variant', 'best req/s', 'vs off', 'paired', 'server µs', 'Redis µs', 'CPU ratio', 'p99 ms']);
  for (const row of rows) {
    line([row.name, row.best.toFixed(0), row.ratio.toFixed(3), row.paired.toFixed(3), row.serverCpu.toFixed(0), row.redisCpu.toFixed(0), row.cpuRatio.toFixed(3), String(row.p99)]);
  }
  const cost = (ratio: number) => `${((1 - ratio) * 100).toFixed(1)}%`;
  const [, memory, redisStore] = rows;
  process.stdout.write(
    `\ntargets: in-process costs under 5% (throughput ${cost(memory!.ratio)}, CPU ${cost(memory!.cpuRatio)}), ` +
      `Redis under 10% (throughput ${cost(redisStore!.ratio)}, CPU ${cost(redisStore!.cpuRatio)})\n`,
  );
}

if (process.argv[2] === '--serve') {
  await serve((process.argv[3] || undefined) as AnchorName | undefined);
} else {
  await main();
}
