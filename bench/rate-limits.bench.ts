// Authenticated GET /tasks through the whole app (sign-in, limits, validation, SQLite) with the limits
// off, with our limiter on its in-process store and on Redis, and as anchors four stacked
// express-rate-limit + rate-limit-redis limiters and four rate-limiter-flexible limiters in its place;
// limits far above what a run spends. Each server is a process of its own (this module with --serve,
// compiled), fresh every round, the variants' order rotated; then the limiters alone, without HTTP.
// docs/benchmarks.md#rate-limits says what is printed. Needs Redis at BENCH_REDIS_URL (its database is emptied).
import type { ChildProcess } from 'node:child_process';
import type { Request, RequestHandler } from 'express';
import { rateLimit as expressRateLimit } from 'express-rate-limit';
import { RateLimiterRedis } from 'rate-limiter-flexible';
import { RedisStore as ExpressRedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { loadConfig } from '../src/config.js';
import type { Caller } from '../src/http/caller.js';
import { callerIn } from '../src/http/request-state.js';
import { budgetsFrom } from '../src/limits/budgets.js';
import { FallbackStore } from '../src/limits/fallback.store.js';
import { Limiter } from '../src/limits/limiter.js';
import { MemoryStore } from '../src/limits/memory.store.js';
import { RedisStore } from '../src/limits/redis.store.js';
import { authenticatedPlans } from '../src/limits/request-plan.js';
import { createLogger } from '../src/platform/logger.js';
import { RedisConnection, type RedisClient } from '../src/platform/redis.js';
import {
  answerTheBench,
  compiledModule,
  envNumber,
  HIGH_LIMIT,
  HIGH_LIMITS,
  median,
  REDIS_URL,
  runLoad,
  serveApp,
  serverCpu,
  signUp,
  startServerProcess,
  stopServer,
  tableLine,
} from './harness.js';

const CONNECTIONS = 10;
const ROUND_SECONDS = envNumber('BENCH_ROUND_SECONDS', 3);
const ROUNDS = envNumber('BENCH_ROUNDS', 5); // as many as variants: each takes each place once
const WARM_UP_SECONDS = 3;
const TASKS = 20;
const SETTLE_MS = 1000;

interface Variant {
  name: string;
  settings: Record<string, string>;
  anchor?: AnchorName;
}

const variants: Variant[] = [
  { name: 'limits off', settings: {} },
  { name: 'in-process store', settings: { RATE_LIMITS_ENABLED: 'true' } },
  { name: 'Redis store (one Lua round trip)', settings: { RATE_LIMITS_ENABLED: 'true', REDIS_URL } },
  { name: 'express-rate-limit + rate-limit-redis x4', settings: {}, anchor: 'express-rate-limit' },
  { name: 'rate-limiter-flexible Redis x4', settings: {}, anchor: 'rate-limiter-flexible' },
];

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
async function anchorLimiter(anchor: AnchorName): Promise<RequestHandler> {
  const client = createClient({ url: REDIS_URL });
  await client.connect();
  if (anchor === 'express-rate-limit') {
    const stack = anchorWindows.map((window) =>
      expressRateLimit({
        windowMs: window.seconds * 1000,
        limit: HIGH_LIMIT,
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
    limiter: new RateLimiterRedis({ storeClient: client, useRedisPackage: true, keyPrefix: `rlf:${window.name}`, points: HIGH_LIMIT, duration: window.seconds }),
  }));
  return async (req, res, next) => {
    try {
      const results = await Promise.all(limiters.map(({ window, limiter }) => limiter.consume(window.key(anchorRequest(req)))));
      res.setHeader('X-RateLimit-Limit', String(HIGH_LIMIT));
      res.setHeader('X-RateLimit-Remaining', String(Math.min(...results.map((result) => result.remainingPoints))));
      next();
    } catch (rejection) {
      if (rejection instanceof Error) return next(rejection);
      res.status(429).json({ statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: 'Rate limit exceeded.' });
    }
  };
}

/** The server: the real app on a SQLite file of its own, with the anchor in place of our limiter when asked. */
async function serve(anchor: AnchorName | undefined, settings: Record<string, string>): Promise<void> {
  const app = await serveApp('sqlite', { ...HIGH_LIMITS, ...settings }, anchor ? { rateLimit: await anchorLimiter(anchor) } : {});
  answerTheBench({ url: app.url }, app.close);
}

interface Running {
  child: ChildProcess;
  url: string;
  token: string;
}

async function start(variant: Variant): Promise<Running> {
  const { child, ready } = await startServerProcess<{ url: string }>(variant.name, [compiledModule(import.meta.url), '--serve', variant.anchor ?? '', JSON.stringify(variant.settings)], {
    env: process.env,
  });
  return { child, url: ready.url, token: (await signUp(ready.url, TASKS)).token };
}

/** CPU microseconds the Redis server has used so far (all its clients: only this bench runs then). */
async function redisCpu(redis: RedisClient): Promise<number> {
  const info = await redis.info('cpu');
  const seconds = (name: string) => Number(new RegExp(`${name}:([\\d.]+)`).exec(info)?.[1] ?? 0);
  return (seconds('used_cpu_user') + seconds('used_cpu_sys')) * 1e6;
}

/**
 * The limiters alone, without HTTP: decisions per second with 10 in flight, and CPU per decision
 * of this process and of Redis. Steadier than throughput on a shared machine.
 */
async function decisionCosts(redis: RedisClient): Promise<void> {
  const budgets = budgetsFrom(loadConfig(HIGH_LIMITS));
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
    limiter: new RateLimiterRedis({ storeClient: anchorClient, useRedisPackage: true, keyPrefix: `rlf-d:${window.name}`, points: HIGH_LIMIT, duration: window.seconds }),
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
  const line = (cells: string[]) => process.stdout.write(tableLine(cells, 42, 14));
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

/** req/s, p99, and the server's and Redis's CPU µs per request: what the limiter costs, whatever else runs. */
async function measure(server: Running, seconds: number, redis: RedisClient) {
  // Let the server measured before settle (closing sockets, collecting garbage) on a 2-core machine.
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const [cpuBefore, redisBefore] = [(await serverCpu(server.child)).all, await redisCpu(redis)];
  const result = await runLoad(server.url, { path: '/tasks', headers: { authorization: `Bearer ${server.token}` } }, { connections: CONNECTIONS, seconds });
  const [cpuAfter, redisAfter] = [(await serverCpu(server.child)).all, await redisCpu(redis)];
  return {
    requestsPerSecond: result.requestsPerSecond,
    p99: result.p99,
    serverCpuPerRequest: (cpuAfter - cpuBefore) / result.total,
    redisCpuPerRequest: (redisAfter - redisBefore) / result.total,
  };
}

type Measurement = Awaited<ReturnType<typeof measure>>;
/** A round's measurement, and its throughput over the baseline's in the same round. */
type Round = Measurement & { ratio: number };

async function main(): Promise<void> {
  const redis: RedisClient = createClient({ url: REDIS_URL });
  await redis.connect();
  await redis.flushDb();
  try {
    const baseline = variants[0]!;
    const rounds = new Map<Variant, Round[]>(variants.map((variant) => [variant, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // Fresh processes every round (one process's JIT and memory layout can be a few percent off another's), the order rotated.
      const servers = new Map<Variant, Running>();
      try {
        for (const variant of variants) servers.set(variant, await start(variant));
        for (const server of servers.values()) await measure(server, WARM_UP_SECONDS, redis);
        const measured = new Map<Variant, Measurement>();
        for (const variant of variants.map((_, i) => variants[(i + round) % variants.length]!)) {
          measured.set(variant, await measure(servers.get(variant)!, ROUND_SECONDS, redis));
        }
        const reference = measured.get(baseline)!.requestsPerSecond;
        for (const [variant, result] of measured) rounds.get(variant)!.push({ ...result, ratio: result.requestsPerSecond / reference });
      } finally {
        for (const server of servers.values()) await stopServer(server.child);
      }
    }
    report(rounds);
    await decisionCosts(redis);
  } finally {
    redis.destroy();
  }
}

function report(rounds: Map<Variant, Round[]>): void {
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
  const line = (cells: string[]) => process.stdout.write(tableLine(cells, 42, 10));
  process.stdout.write(
    `authenticated GET /tasks (${TASKS} tasks on SQLite), ${CONNECTIONS} connections, ${ROUNDS} rounds (fresh processes each) of ${ROUND_SECONDS} s per variant\n` +
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
  await serve((process.argv[3] || undefined) as AnchorName | undefined, JSON.parse(process.argv[4]!));
} else {
  await main();
}
