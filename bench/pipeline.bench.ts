// Each request against its floor: the app as createService builds it (observability off and on)
// against a bare node:http server and a bare Express 5 app doing the same work (bench/floors.ts),
// all four in one server process, on SQLite + in-process counters and on PostgreSQL + Redis, for
// GET /me, GET /tasks?limit=10, GET /tasks?limit=100 and POST /tasks. autocannon in this process;
// the targets take turns in every round (order rotated), and each figure is the median of the rounds
// with their range. The API's share of a floor is paired: its req/s over the floor's in the same round.
// Run alone: node --import tsx bench/pipeline.bench.ts  (BENCH_ROUNDS, BENCH_ROUND_SECONDS, BENCH_ENGINES=sqlite,postgres, BENCH_REQUESTS)
// Profile:   node --import tsx bench/pipeline.bench.ts --profile  (GET /me, or BENCH_PROFILE_REQUEST='POST /tasks', on SQLite or BENCH_PROFILE_ENGINE=postgres, of BENCH_PROFILE_TARGET='API obs off' or another target, under load, node --cpu-prof)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createDb, migrate } from '../src/platform/db.js';
import { createLogger } from '../src/platform/logger.js';
import { createService, type Service } from '../src/wiring.js';
import { startExpressFloor, startNodeFloor, type Floor } from './floors.js';
import {
  BENCH_JWT_SECRET,
  compiledModule,
  cpuSoFar,
  createDatabase,
  formatSpread,
  interleaved,
  REDIS_URL,
  runLoad,
  serverCpu,
  spreadOf,
  stopServer,
  tableLine,
  type CpuAnswer,
  type Database,
  type Engine,
  type LoadRequest,
} from './harness.js';
import { mainThreadProfile, summariseProfile } from './profile-summary.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
const CONNECTIONS = 10;
const SEEDED_TASKS = 150;
const MAX_TASKS = 100_000_000;
const HIGH = '1000000000';
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];

const TARGETS = ['node:http', 'Express', 'API obs off', 'API obs on'] as const;
type TargetName = (typeof TARGETS)[number];

const ALL_REQUESTS: { name: string; request: LoadRequest }[] = [
  { name: 'GET /me', request: { path: '/me' } },
  { name: 'GET /tasks?limit=10', request: { path: '/tasks?limit=10' } },
  { name: 'GET /tasks?limit=100', request: { path: '/tasks?limit=100' } },
  {
    name: 'POST /tasks',
    request: { method: 'POST', path: '/tasks', body: JSON.stringify({ title: 'A task made under load', labels: ['bench'], priority: 2 }) },
  },
];

/** BENCH_REQUESTS='GET /me,POST /tasks' measures only those. */
const REQUESTS = process.env.BENCH_REQUESTS ? ALL_REQUESTS.filter(({ name }) => process.env.BENCH_REQUESTS!.split(',').includes(name)) : ALL_REQUESTS;

const highLimits: Record<string, string> = Object.fromEntries(
  ['BURST_PER_MINUTE', 'SUSTAINED_PER_HOUR', 'CLIENT_BURST_PER_MINUTE', 'CLIENT_SUSTAINED_PER_HOUR', 'STRICT_BURST_PER_MINUTE', 'STRICT_SUSTAINED_PER_HOUR'].map(
    (name) => [`RATE_LIMIT_${name}`, HIGH],
  ),
);

interface ServedTarget {
  name: TargetName;
  url: string;
  token: string;
}

const listen = (service: Service) =>
  new Promise<Server>((resolve) => {
    const server: Server = service.app.listen(0, '127.0.0.1', () => resolve(server));
  });
const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** An account signed up through the API, with its tasks made through it: the token and the account id. */
async function signUpWithTasks(url: string): Promise<{ token: string; accountId: string }> {
  const registered = await fetch(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' }),
  });
  const { accessToken: token } = (await registered.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < SEEDED_TASKS; i++) {
    const made = await fetch(`${url}/tasks`, { method: 'POST', headers, body: JSON.stringify({ title: `Task ${i} with a title of ordinary length`, labels: ['work', 'release'] }) });
    if (made.status !== 201) throw new Error(`seeding answered ${made.status}`);
  }
  const me = (await (await fetch(`${url}/me`, { headers })).json()) as { id: string };
  return { token, accountId: me.id };
}

/**
 * The server process: the two apps and the two floors, each on its own database (BENCH_DATABASES,
 * in TARGETS order); the floors' databases get a copy of the "on" app's account and tasks, so every
 * target reads the same rows with the same token. Sends the targets over IPC.
 */
async function serve(): Promise<void> {
  const urls = process.env.BENCH_DATABASES!.split(' ');
  const logger = createLogger(loadConfig(process.env).LOG_LEVEL);
  const configFor = (i: number) => loadConfig({ ...process.env, DATABASE_URL: urls[i]! });
  const off = await createService(configFor(2), logger, { observe: false });
  const on = await createService(configFor(3), logger);
  const servers = [await listen(off), await listen(on)];
  const offAccount = await signUpWithTasks(urlOf(servers[0]!));
  const onAccount = await signUpWithTasks(urlOf(servers[1]!));

  const config = configFor(3);
  const floors: Floor[] = [];
  for (const [i, start] of [startNodeFloor, startExpressFloor].entries()) {
    const db = createDb(configFor(i).database);
    await migrate(db);
    await db('accounts').insert(await on.db('accounts').where('id', onAccount.accountId));
    await db.batchInsert('tasks', await on.db('tasks').where('account_id', onAccount.accountId), 100);
    await db.destroy();
    floors.push(await start({ databaseUrl: urls[i]!, jwtSecret: BENCH_JWT_SECRET, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, maxTasks: MAX_TASKS }));
  }
  const targets: ServedTarget[] = [
    { name: 'node:http', url: floors[0]!.url, token: onAccount.token },
    { name: 'Express', url: floors[1]!.url, token: onAccount.token },
    { name: 'API obs off', url: urlOf(servers[0]!), token: offAccount.token },
    { name: 'API obs on', url: urlOf(servers[1]!), token: onAccount.token },
  ];
  process.send?.({ targets });
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: cpuSoFar() } satisfies CpuAnswer);
    // The monotonic clock V8's profiler stamps its samples with, in µs: where the load starts.
    if (message === 'clock') process.send?.({ clockUs: Number(process.hrtime.bigint() / 1000n) });
  });
  process.on('SIGTERM', () => {
    for (const server of servers) {
      server.closeAllConnections();
      server.close();
    }
    void Promise.all([...floors.map((floor) => floor.close()), off.components.stop(), on.components.stop()]).finally(() => process.exit(0));
  });
}

interface Running {
  child: ChildProcess;
  targets: ServedTarget[];
  stop: () => Promise<void>;
}

async function start(engine: Engine, nodeOptions: string[] = []): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-bench-'));
  const databases: Database[] = [];
  for (let i = 0; i < TARGETS.length; i++) databases.push(await createDatabase(engine));
  const log = openSync(join(dir, 'server.log'), 'a');
  // The app and the floors as they ship: compiled by tsc, not under tsx (bench/harness.ts).
  const child = spawn(process.execPath, [...nodeOptions, compiledModule(import.meta.url), '--serve'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      JWT_SECRET: BENCH_JWT_SECRET,
      JWT_ACCESS_EXPIRES: '86400',
      CONNECTOR_SECRET_KEY: '0'.repeat(64),
      TASKS_MAX_PER_ACCOUNT: String(MAX_TASKS),
      ...highLimits,
      ...(engine === 'postgres' ? { REDIS_URL, REDIS_KEY_PREFIX: `bench-pipeline-${randomUUID()}:` } : {}),
      BENCH_DATABASES: databases.map((database) => database.url).join(' '),
    },
    stdio: ['ignore', log, 'inherit', 'ipc'],
  });
  const targets = await new Promise<ServedTarget[]>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
    child.once('message', (message: { targets: ServedTarget[] }) => resolve(message.targets));
  });
  return {
    child,
    targets,
    stop: async () => {
      await stopServer(child);
      for (const database of databases) await database.drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const load = (target: ServedTarget, request: LoadRequest, seconds: number) =>
  runLoad(target.url, { ...request, headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' } }, { connections: CONNECTIONS, seconds });

/** req/s, and the server's main-thread CPU µs per request (only the measured target is loaded meanwhile). */
async function measure(child: ChildProcess, target: ServedTarget, request: LoadRequest, seconds: number) {
  const before = await serverCpu(child);
  const result = await load(target, request, seconds);
  const after = await serverCpu(child);
  return { requestsPerSecond: result.requestsPerSecond, mainCpuPerRequest: (after.main - before.main) / result.total };
}

async function benchEngine(engine: Engine): Promise<string> {
  const running = await start(engine);
  const out: string[] = [];
  try {
    const title = engine === 'sqlite' ? 'SQLite + in-process counters' : 'PostgreSQL + Redis';
    const throughput = [`\n${title}: req/s, median of ${ROUNDS} rounds of ${ROUND_SECONDS} s (range); shares and cost paired by round\n`, tableLine(['request', ...TARGETS, 'API/Express', 'API/node:http', 'obs cost'], 22, 22)];
    const cpu = [
      `\n${title}: server main-thread CPU µs per request, median (range); shares = floor's CPU per request / API's, paired by round\n`,
      tableLine(['request', ...TARGETS, 'API/Express', 'API/node:http', 'obs cost'], 22, 22),
    ];
    /** The table's cells: four targets' figures, then the "on" app's share of each floor and what observability costs. */
    const cells = (values: number[][], share: (api: number, floor: number) => number, costOf: (on: number, off: number) => number, digits: number) => {
      const [node, expressFloor, off, on] = values as [number[], number[], number[], number[]];
      const paired = (a: number[], b: number[], f: (x: number, y: number) => number) => spreadOf(a.map((value, i) => f(value, b[i]!)));
      return [
        ...values.map((series) => formatSpread(spreadOf(series), digits)),
        `${formatSpread(paired(on, expressFloor, share), 0, 100)}%`,
        `${formatSpread(paired(on, node, share), 0, 100)}%`,
        `${formatSpread(paired(on, off, costOf), 1, 100)}%`,
      ];
    };
    for (const { name, request } of REQUESTS) {
      for (const target of running.targets) await load(target, request, 1);
      const rounds = await interleaved(running.targets, ROUNDS, (target) => measure(running.child, target, request, ROUND_SECONDS));
      const rps = rounds.map((results) => results.map((result) => result.requestsPerSecond));
      const cpuPerRequest = rounds.map((results) => results.map((result) => result.mainCpuPerRequest));
      throughput.push(tableLine([name, ...cells(rps, (api, floor) => api / floor, (on, off) => 1 - on / off, 0)], 22, 22));
      cpu.push(tableLine([name, ...cells(cpuPerRequest, (api, floor) => floor / api, (on, off) => on / off - 1, 0)], 22, 22));
      process.stderr.write(`${engine} ${throughput.at(-1)!}${engine} ${cpu.at(-1)!}`);
    }
    out.push(...throughput, ...cpu, '  "API obs on" is the app as shipped; obs cost: what observability on costs over off, same round\n');
  } finally {
    await running.stop();
  }
  return out.join('');
}

/** One request (GET /me unless BENCH_PROFILE_REQUEST names another of ALL_REQUESTS) on SQLite (or BENCH_PROFILE_ENGINE) under load in a server started with node --cpu-prof; the profile's summary. */
async function profileRequest(): Promise<void> {
  const name = process.env.BENCH_PROFILE_REQUEST ?? 'GET /me';
  const request = ALL_REQUESTS.find((r) => r.name === name)?.request;
  if (!request) throw new Error(`BENCH_PROFILE_REQUEST: one of ${ALL_REQUESTS.map((r) => r.name).join(', ')}`);
  const profileDir = mkdtempSync(join(tmpdir(), 'pipeline-profile-'));
  const engine = (process.env.BENCH_PROFILE_ENGINE ?? 'sqlite') as Engine;
  const running = await start(engine, ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200']);
  const targetName = process.env.BENCH_PROFILE_TARGET ?? 'API obs on';
  const target = running.targets.find((t) => t.name === targetName);
  if (!target) throw new Error(`BENCH_PROFILE_TARGET: one of ${running.targets.map((t) => t.name).join(', ')}`);
  const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 20);
  await load(target, request, 2);
  const clockUs = await new Promise<number>((resolve) => {
    running.child.once('message', (message: { clockUs: number }) => resolve(message.clockUs));
    running.child.send('clock');
  });
  const result = await load(target, request, seconds);
  await running.stop();
  const file = mainThreadProfile(profileDir);
  process.stdout.write(`${name}, ${engine}, ${targetName}, ${CONNECTIONS} connections, ${seconds} s: ${result.requestsPerSecond.toFixed(0)} req/s; profile ${file} (the load's samples only)\n`);
  process.stdout.write(summariseProfile(file, { fromUs: clockUs }));
}

if (process.argv.includes('--serve')) {
  await serve();
} else if (process.argv.includes('--profile')) {
  await profileRequest();
  process.exit(0);
} else {
  const reports: string[] = [];
  for (const engine of ENGINES) reports.push(await benchEngine(engine));
  process.stdout.write(`${CONNECTIONS} connections; obs: request ids, access log (to a file), metrics\n${reports.join('')}`);
  process.exit(0);
}
