// Operations figures, in one run:
// 1. what request ids + the access log + the request metrics cost on authenticated GET /tasks: the
//    same app with and without them (createApp's bench-only `observe: false`) side by side in one
//    fresh process each round, taking turns, with a second app without them as the control (what the
//    bench reads where there is no difference); the access log is written to a file. The default
//    process metrics (GC and event-loop observers) are process-wide, so this counts them for every
//    app alike: measured apart, in separate processes, they cost nothing the bench could resolve;
// 2. capacity of one instance on PostgreSQL + Redis, everything on: GET /tasks and POST /tasks req/s;
// 3. limiter decisions per second on one Redis and on a three-master Redis Cluster this bench starts
//    itself (the real Limiter, FallbackStore and RedisStore; 1000 accounts, 64 decisions in flight).
// Run alone: node --import tsx bench/operations.bench.ts   (needs PostgreSQL and Redis as the tests do)
import { spawn, type ChildProcess } from 'node:child_process';
import { Session, type Profiler } from 'node:inspector/promises';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import knexFactory from 'knex';
import { TestRedisCluster } from '../contract-tests/support/redis-cluster.js';
import { createService } from '../src/wiring.js';
import { loadConfig } from '../src/config.js';
import { budgetsFrom } from '../src/limits/budgets.js';
import { FallbackStore } from '../src/limits/fallback.store.js';
import { Limiter } from '../src/limits/limiter.js';
import { MemoryStore } from '../src/limits/memory.store.js';
import { RedisStore } from '../src/limits/redis.store.js';
import { authenticatedPlans } from '../src/limits/request-plan.js';
import { createLogger } from '../src/platform/logger.js';
import { projectRoot } from '../src/platform/paths.js';
import { RedisConnection } from '../src/platform/redis.js';
import { cpuSoFar, median, POSTGRES_ADMIN_URL, REDIS_URL, runLoad, serverCpu, type CpuAnswer } from './harness.js';

const HIGH = '1000000000';
const CONNECTIONS = 10;
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
/** Turns each variant takes in a round of the observability comparison. */
const SLICES = 3;
const TASKS = 20;

const highLimits: Record<string, string> = Object.fromEntries(
  ['BURST_PER_MINUTE', 'SUSTAINED_PER_HOUR', 'CLIENT_BURST_PER_MINUTE', 'CLIENT_SUSTAINED_PER_HOUR', 'STRICT_BURST_PER_MINUTE', 'STRICT_SUSTAINED_PER_HOUR'].map(
    (name) => [`RATE_LIMIT_${name}`, HIGH],
  ),
);

/**
 * The server side: one app per entry of BENCH_APPS (`on` or `off`: observability), each on its own
 * SQLite file and port, all in this one process; the ports are sent over IPC, in that order.
 */
async function serve(): Promise<void> {
  const kinds = (process.env.BENCH_APPS ?? 'on').split(',');
  const logger = createLogger(loadConfig(process.env).LOG_LEVEL);
  const services = await Promise.all(
    kinds.map((kind, i) =>
      createService(loadConfig({ ...process.env, DATABASE_URL: `${process.env.DATABASE_URL}${i === 0 ? '' : `-${i}`}` }), logger, { observe: kind === 'on' }),
    ),
  );
  const servers = await Promise.all(
    services.map(({ app }) => new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', () => resolve(server));
    })),
  );
  process.send?.({ ports: servers.map((server) => (server.address() as { port: number }).port) });
  const profiler = new Session();
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: cpuSoFar() } satisfies CpuAnswer);
    // V8's sampling profiler over a window the bench chooses (not the start-up), every 100 µs.
    if (message === 'profile') {
      profiler.connect();
      void profiler
        .post('Profiler.enable')
        .then(() => profiler.post('Profiler.setSamplingInterval', { interval: 100 }))
        .then(() => profiler.post('Profiler.start'))
        .then(() => process.send?.({ profiling: true }));
    }
    if (message === 'profiled') {
      void profiler.post('Profiler.stop').then(({ profile }) => {
        profiler.disconnect();
        process.send?.({ profile });
      });
    }
  });
  process.on('SIGTERM', () => {
    for (const server of servers) {
      server.close();
      server.closeAllConnections();
    }
    void Promise.all(services.map(({ components }) => components.stop())).finally(() => process.exit(0));
  });
}

interface Running {
  child: ChildProcess;
  baseUrl: string;
  token: string;
  dir: string;
}

/** One server process with an app per kind (see `serve`), each with a signed-up account and its tasks. */
async function start(env: Record<string, string>, kinds: readonly ('on' | 'off')[] = ['on']): Promise<Running[]> {
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
      BENCH_APPS: kinds.join(','),
    },
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  const ports = await new Promise<number[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.once('message', (message: { ports: number[] }) => resolve(message.ports));
  });
  return Promise.all(
    ports.map(async (port) => {
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
    }),
  );
}

function stop(server: Running): void {
  server.child.kill('SIGTERM');
  rmSync(server.dir, { recursive: true, force: true });
}

/** Sends the server process a request over IPC; its next message is the answer. */
function ask<T>(server: Running, request: 'profile' | 'profiled'): Promise<T> {
  return new Promise((resolve) => {
    server.child.once('message', (answer: T) => resolve(answer));
    server.child.send(request);
  });
}

async function load(server: Running, seconds: number, request: { method?: 'GET' | 'POST'; path: string; body?: string }) {
  const cpuBefore = await serverCpu(server.child);
  const result = await runLoad(
    server.baseUrl,
    { ...request, headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' } },
    { connections: CONNECTIONS, seconds },
  );
  const cpuAfter = await serverCpu(server.child);
  return {
    requestsPerSecond: result.requestsPerSecond,
    p99: result.p99,
    cpuPerRequest: (cpuAfter.all - cpuBefore.all) / result.total,
    mainCpuPerRequest: (cpuAfter.main - cpuBefore.main) / result.total,
  };
}

const line = (cells: string[], first = 44) => process.stdout.write(`${cells[0]!.padEnd(first)}${cells.slice(1).map((cell) => cell.padStart(12)).join('')}\n`);

async function observabilityCost(): Promise<void> {
  // The second "without" is the control: what the bench reads as a cost where there is none.
  const variants: { name: string; kind: 'on' | 'off' }[] = [
    { name: 'without ids, access log, metrics', kind: 'off' },
    { name: 'without them again (control)', kind: 'off' },
    { name: 'with them (access log to a file)', kind: 'on' },
  ];
  const rounds = variants.map(() => [] as { requestsPerSecond: number; ratio: number; cpu: number; cpuRatio: number; main: number; mainRatio: number }[]);
  for (let round = 0; round < ROUNDS; round++) {
    const servers = await start({}, variants.map((variant) => variant.kind));
    try {
      for (const server of servers) await load(server, 2, { path: '/tasks' });
      // Short slices, the variants taking turns: a burst of load elsewhere on the machine falls on
      // all of them, not on whichever happened to run then. One process for all, so that what differs
      // is the apps and not what two processes' JIT made of the same code.
      const totals = variants.map(() => ({ seconds: 0, requests: 0, cpu: 0, main: 0 }));
      for (let slice = 0; slice < SLICES; slice++) {
        for (const i of variants.map((_, i) => (i + round + slice) % variants.length)) {
          const measured = await load(servers[i]!, ROUND_SECONDS / SLICES, { path: '/tasks' });
          totals[i]!.seconds += ROUND_SECONDS / SLICES;
          const requests = measured.requestsPerSecond * (ROUND_SECONDS / SLICES);
          totals[i]!.requests += requests;
          totals[i]!.cpu += measured.cpuPerRequest * requests;
          totals[i]!.main += measured.mainCpuPerRequest * requests;
        }
      }
      const measured = totals.map((total) => ({ requestsPerSecond: total.requests / total.seconds, cpuPerRequest: total.cpu / total.requests, mainCpuPerRequest: total.main / total.requests }));
      variants.forEach((_, i) =>
        rounds[i]!.push({
          requestsPerSecond: measured[i]!.requestsPerSecond,
          ratio: measured[i]!.requestsPerSecond / measured[0]!.requestsPerSecond,
          cpu: measured[i]!.cpuPerRequest,
          cpuRatio: measured[i]!.cpuPerRequest / measured[0]!.cpuPerRequest,
          main: measured[i]!.mainCpuPerRequest,
          mainRatio: measured[i]!.mainCpuPerRequest / measured[0]!.mainCpuPerRequest,
        }),
      );
    } finally {
      // One process serves all the apps: stopping it stops them all.
      stop(servers[0]!);
    }
  }
  process.stdout.write(`\nauthenticated GET /tasks (${TASKS} tasks, SQLite, in-process limits), ${CONNECTIONS} connections, ${ROUNDS} rounds of ${ROUND_SECONDS} s in ${SLICES} slices taken in turn, the apps side by side in a fresh process each round\n`);
  process.stdout.write('paired: median ratio to the same round\'s baseline; server CPU µs per request (all threads, then the main thread alone), median\n');
  line(['variant', 'best req/s', 'paired', 'CPU µs/req', 'CPU paired', 'main µs/req', 'main paired']);
  variants.forEach((variant, i) => {
    const of = (pick: (round: (typeof rounds)[number][number]) => number) => rounds[i]!.map(pick);
    line([
      variant.name,
      Math.max(...of((r) => r.requestsPerSecond)).toFixed(0),
      median(of((r) => r.ratio)).toFixed(3),
      median(of((r) => r.cpu)).toFixed(0),
      median(of((r) => r.cpuRatio)).toFixed(3),
      median(of((r) => r.main)).toFixed(0),
      median(of((r) => r.mainRatio)).toFixed(3),
    ]);
  });
  const cost = (i: number) => {
    const throughput = 1 - median(rounds[i]!.map((r) => r.ratio));
    const cpu = median(rounds[i]!.map((r) => r.cpuRatio)) - 1;
    const main = median(rounds[i]!.map((r) => r.mainRatio)) - 1;
    return `throughput ${(throughput * 100).toFixed(1)}%, CPU per request ${(cpu * 100).toFixed(1)}%, main thread's CPU per request ${(main * 100).toFixed(1)}%`;
  };
  process.stdout.write(`cost of request ids + access log + metrics: ${cost(2)} (target under 5%)\n`);
  process.stdout.write(`cost the bench reads between two identical apps (its noise): ${cost(1)}\n`);

  const share = await observabilityShareOfProfile();
  process.stdout.write(
    `share of the app's main-thread CPU in that code, from V8's profiler (${share.samples} samples under ${ROUND_SECONDS * 3} s of load): ` +
      `${(share.observability * 100).toFixed(1)}% (id, header, access line and histogram ${(share.parts.request * 100).toFixed(1)}%, ` +
      `writing the lines out ${(share.parts.written * 100).toFixed(1)}%; garbage collection not included)\n`,
  );
}

/** Profile frames of observability's own code, by file: what is done for each request, and the writing of the lines. */
const projectSrc = pathToFileURL(join(projectRoot, 'src/')).href;
const OBSERVABILITY_FILES: [RegExp, 'request' | 'written'][] = [
  [/\/src\/http\/(request-log|request-state|access-line|metrics|request-durations)\.ts$/, 'request'],
  [/src\/platform\/logger\.ts$/, 'written'],
];

/**
 * The share of the "on" app's busy main-thread time spent in observability's own code: a direct
 * reading, steadier than the difference of two noisy throughputs, but blind to what it costs
 * elsewhere (garbage collection, caches). From V8's sampling profiler in the app's process, over
 * the load only (not the start-up). A middleware's call of the rest of the app (`next`, into the
 * route's chain in src/ or Express's router) is not counted as its own; what observability's code
 * calls (pino, prom-client, crypto, setHeader) is.
 */
async function observabilityShareOfProfile(): Promise<{ observability: number; samples: number; parts: Record<'request' | 'written', number> }> {
  const [server] = await start({}, ['on']);
  let profile: Profiler.Profile;
  try {
    await load(server!, 2, { path: '/tasks' });
    await ask(server!, 'profile');
    await load(server!, ROUND_SECONDS * 3, { path: '/tasks' });
    ({ profile } = await ask<{ profile: Profiler.Profile }>(server!, 'profiled'));
  } finally {
    stop(server!);
  }
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const hits = new Map<number, number>();
  const samples = profile.samples ?? [];
  for (const id of samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const partOf = (node: Profiler.ProfileNode) => OBSERVABILITY_FILES.find(([file]) => file.test(node.callFrame.url))?.[1];
  const parts = { request: 0, written: 0 };
  // Each sample once, to the innermost observability frame above it, unless it went back into
  // the rest of the app (a frame in node_modules called from observability's middleware).
  const walk = (id: number, part: keyof typeof parts | undefined) => {
    const node = nodes.get(id)!;
    const own = partOf(node);
    const { url } = node.callFrame;
    // The request log's `next` goes into the route's chain (src/http/chain.ts), the app's own code.
    const leftForTheApp = own === undefined && part === 'request' && (url.includes('node_modules/router') || url.startsWith(projectSrc));
    const counted = own ?? (leftForTheApp ? undefined : part);
    if (counted) parts[counted] += hits.get(id) ?? 0;
    for (const child of node.children ?? []) walk(child, counted);
  };
  walk(profile.nodes[0]!.id, undefined);
  const idle = profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').reduce((sum, node) => sum + (hits.get(node.id) ?? 0), 0);
  const busy = samples.length - idle;
  const share = (count: number) => count / busy;
  return {
    observability: share(parts.request + parts.written),
    samples: busy,
    parts: { request: share(parts.request), written: share(parts.written) },
  };
}

async function capacity(): Promise<void> {
  const name = `task_service_bench_${randomUUID().replaceAll('-', '')}`;
  const admin = knexFactory({ client: 'pg', connection: POSTGRES_ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  const server = (await start({
    DATABASE_URL: POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    REDIS_URL,
    REDIS_KEY_PREFIX: `bench-${randomUUID()}:`,
  }))[0]!;
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
    authenticatedPlans(budgets)({ accountId: randomUUID(), clientId: 'web', kind: 'web', scopes: [] }),
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
