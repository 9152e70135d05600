// Each request against its floor: the app as createService builds it (observability off and on)
// against a bare node:http server and a bare Express 5 app doing the same work (bench/floors.ts),
// each in a server process of its own, on SQLite + in-process counters and on PostgreSQL + Redis, for
// GET /me, GET /tasks?limit=10, GET /tasks?limit=100 and POST /tasks. autocannon in this process;
// the targets take turns in every round (order rotated), and each figure is the median of the rounds
// with their range. The API's share of a floor is paired: its req/s over the floor's in the same round.
// Run alone: node --import tsx bench/pipeline.bench.ts  (BENCH_ROUNDS, BENCH_ROUND_SECONDS, BENCH_ENGINES=sqlite,postgres, BENCH_REQUESTS;
//            BENCH_CONTROL=1: "API obs on" without observability, what the bench reads as a cost where there is none)
// Counted:   node --import tsx bench/pipeline.bench.ts --instructions  (every target under valgrind's callgrind: instructions per
//            request, bench/instructions.ts; BENCH_COUNT_ROUNDS, BENCH_COUNT_REQUESTS, BENCH_ENGINES, BENCH_REQUESTS)
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
import { startExpressFloor, startNodeFloor } from './floors.js';
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
import { instructionsDuring, requestsInTurn, startCounting, underCallgrind, type Instructions } from './instructions.js';
import { mainThreadProfile, summariseProfile } from './profile-summary.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
const CONNECTIONS = 10;
const SEEDED_TASKS = 150;
const MAX_TASKS = 100_000_000;
const HIGH = '1000000000';
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];

const TARGETS = ['node:http', 'Express', 'API obs off', 'API obs on'] as const;
const OBS_SETUP =
  process.env.BENCH_CONTROL === '1'
    ? 'CONTROL: "API obs on" built without observability too; "obs cost" is what the bench reads where there is none'
    : 'obs: request ids, access log (to a file), metrics';
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

/** A target in a server process of its own: the process whose CPU its rounds read. */
interface RunningTarget extends ServedTarget {
  child: ChildProcess;
}

/** What a target's process sends once it listens: its URL and, for an app, the account it signed up. */
interface Listening {
  url: string;
  account?: { token: string; accountId: string };
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
 * A target's server process (`--serve <target>`, on BENCH_DATABASE): one app or one floor, alone, as
 * each runs in production. In one process the targets had shared a heap, its collections, and the
 * code both apps run, whose compiled forms then saw the request objects of both: an app's figure
 * moved with what the other had done (PostgreSQL's GET /me, docs/benchmarks.md#pipeline).
 * An app signs up its own account and makes its tasks; BENCH_CONTROL=1 builds "API obs on" without
 * observability too, so the two apps' difference is what the bench reads where there is none.
 */
async function serve(name: TargetName): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: process.env.BENCH_DATABASE! });
  let listening: Listening;
  let close: () => Promise<unknown>;
  if (name === 'API obs off' || name === 'API obs on') {
    const observe = name === 'API obs on' && process.env.BENCH_CONTROL !== '1';
    const service = await createService(config, createLogger(config.LOG_LEVEL), { observe });
    const server = await listen(service);
    listening = { url: urlOf(server), account: await signUpWithTasks(urlOf(server)) };
    close = () => {
      server.closeAllConnections();
      server.close();
      return service.components.stop();
    };
  } else {
    const start = name === 'node:http' ? startNodeFloor : startExpressFloor;
    const floor = await start({ databaseUrl: process.env.BENCH_DATABASE!, jwtSecret: BENCH_JWT_SECRET, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, maxTasks: MAX_TASKS });
    listening = { url: floor.url };
    close = () => floor.close();
  }
  process.send?.(listening);
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: cpuSoFar() } satisfies CpuAnswer);
    // The monotonic clock V8's profiler stamps its samples with, in µs: where the load starts.
    if (message === 'clock') process.send?.({ clockUs: Number(process.hrtime.bigint() / 1000n) });
  });
  process.on('SIGTERM', () => void close().finally(() => process.exit(0)));
}

interface Running {
  targets: RunningTarget[];
  stop: () => Promise<void>;
}

/**
 * Every target in its own server process, each on a database of its own. The apps come first; each
 * floor's database then gets a copy of the "on" app's account and tasks, so every target reads the
 * same rows with the same token. `launch.nodeOptions` go to the process of `launch.optionsFor` (a
 * profiler's); with `launch.counted` every target runs under callgrind (bench/instructions.ts).
 */
async function start(engine: Engine, launch: { optionsFor?: TargetName; nodeOptions?: string[]; counted?: boolean } = {}): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-bench-'));
  const databases: Database[] = [];
  const children: ChildProcess[] = [];
  const redisPrefix = `bench-pipeline-${randomUUID()}:`;
  const spawnTarget = async (name: TargetName, database: Database): Promise<{ child: ChildProcess; listening: Listening }> => {
    const log = openSync(join(dir, `${name.replaceAll(/[^a-z]/gi, '-')}.log`), 'a');
    // The app and the floors as they ship: compiled by tsc, not under tsx (bench/harness.ts).
    const nodeArgs = [...(launch.optionsFor === name ? (launch.nodeOptions ?? []) : []), compiledModule(import.meta.url), '--serve', name];
    const { command, args } = launch.counted ? underCallgrind(nodeArgs) : { command: process.execPath, args: nodeArgs };
    const child = spawn(command, args, {
      env: {
        ...process.env,
        NODE_ENV: 'production',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
        JWT_SECRET: BENCH_JWT_SECRET,
        JWT_ACCESS_EXPIRES: '86400',
        CONNECTOR_SECRET_KEY: '0'.repeat(64),
        TASKS_MAX_PER_ACCOUNT: String(MAX_TASKS),
        ...highLimits,
        ...(engine === 'postgres' ? { REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}),
        BENCH_DATABASE: database.url,
      },
      stdio: ['ignore', log, 'inherit', 'ipc'],
    });
    children.push(child);
    const listening = await new Promise<Listening>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${name}'s server exited with ${code}`)));
      child.once('message', (message: Listening) => resolve(message));
    });
    return { child, listening };
  };
  const stop = async () => {
    for (const child of children) await stopServer(child);
    for (const database of databases) await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < TARGETS.length; i++) databases.push(await createDatabase(engine));
    const [nodeDatabase, expressDatabase, offDatabase, onDatabase] = databases as [Database, Database, Database, Database];
    const off = await spawnTarget('API obs off', offDatabase);
    const on = await spawnTarget('API obs on', onDatabase);
    const onAccount = on.listening.account!;
    const source = createDb(loadConfig({ ...process.env, DATABASE_URL: onDatabase.url }).database);
    const floors: RunningTarget[] = [];
    try {
      for (const [name, database] of [['node:http', nodeDatabase], ['Express', expressDatabase]] as const) {
        const db = createDb(loadConfig({ ...process.env, DATABASE_URL: database.url }).database);
        await migrate(db);
        await db('accounts').insert(await source('accounts').where('id', onAccount.accountId));
        await db.batchInsert('tasks', await source('tasks').where('account_id', onAccount.accountId), 100);
        await db.destroy();
        const floor = await spawnTarget(name, database);
        floors.push({ name, url: floor.listening.url, token: onAccount.token, child: floor.child });
      }
    } finally {
      await source.destroy();
    }
    const targets: RunningTarget[] = [
      ...floors,
      { name: 'API obs off', url: off.listening.url, token: off.listening.account!.token, child: off.child },
      { name: 'API obs on', url: on.listening.url, token: onAccount.token, child: on.child },
    ];
    return { targets, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const load = (target: ServedTarget, request: LoadRequest, seconds: number) =>
  runLoad(target.url, { ...request, headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' } }, { connections: CONNECTIONS, seconds });

/** req/s, and the server's main-thread CPU µs per request (only the measured target is loaded meanwhile). */
async function measure(target: RunningTarget, request: LoadRequest, seconds: number) {
  const before = await serverCpu(target.child);
  const result = await load(target, request, seconds);
  const after = await serverCpu(target.child);
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
      const rounds = await interleaved(running.targets, ROUNDS, (target) => measure(target, request, ROUND_SECONDS));
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

const COUNT_ROUNDS = Number(process.env.BENCH_COUNT_ROUNDS ?? 3);
const COUNT_REQUESTS = Number(process.env.BENCH_COUNT_REQUESTS ?? 300);
const COUNT_WARM_UP = 2000;

/**
 * Every target under callgrind (bench/instructions.ts): the instructions of each request on each target's
 * main thread, its requests one after the other, in turn in every round, after a warm-up. Steady where
 * the timed rounds of this machine move ±15%; it leaves out the kernel's work and the databases'.
 */
async function countEngine(engine: Engine): Promise<string> {
  const running = await start(engine, { counted: true });
  const title = engine === 'sqlite' ? 'SQLite + in-process counters' : 'PostgreSQL + Redis';
  const out = [
    `\n${title}: main-thread instructions per request (thousands), ${COUNT_REQUESTS} requests one after the other, median of ${COUNT_ROUNDS} rounds (range); shares = floor's / API's, paired by round\n`,
    tableLine(['request', ...TARGETS, 'API/Express', 'API/node:http', 'obs cost', 'obs cost, all threads'], 22, 22),
  ];
  try {
    const withToken = (target: RunningTarget, request: LoadRequest) => ({ ...request, headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' } });
    // Every request warms up on every target before counting starts (about 10 times faster under valgrind than counted).
    for (const { request } of REQUESTS) for (const target of running.targets) await requestsInTurn(target.url, withToken(target, request), COUNT_WARM_UP);
    for (const target of running.targets) startCounting(target.child);
    for (const { name, request } of REQUESTS) {
      for (const target of running.targets) await requestsInTurn(target.url, withToken(target, request), COUNT_REQUESTS / 5);
      const rounds = await interleaved(running.targets, COUNT_ROUNDS, (target) =>
        instructionsDuring(target.child, () => requestsInTurn(target.url, withToken(target, request), COUNT_REQUESTS)),
      );
      const [node, expressFloor, off, on] = rounds as [Instructions[], Instructions[], Instructions[], Instructions[]];
      const paired = (a: Instructions[], b: Instructions[], f: (x: Instructions, y: Instructions) => number) => spreadOf(a.map((value, i) => f(value, b[i]!)));
      const line = tableLine(
        [
          name,
          ...rounds.map((series) => formatSpread(spreadOf(series.map((count) => count.main / 1000)), 0)),
          `${formatSpread(paired(expressFloor, on, (floor, api) => floor.main / api.main), 0, 100)}%`,
          `${formatSpread(paired(node, on, (floor, api) => floor.main / api.main), 0, 100)}%`,
          `${formatSpread(paired(on, off, (x, y) => x.main / y.main - 1), 1, 100)}%`,
          `${formatSpread(paired(on, off, (x, y) => x.all / y.all - 1), 1, 100)}%`,
        ],
        22,
        22,
      );
      out.push(line);
      process.stderr.write(`${engine} ${line}`);
    }
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
  const targetName = (process.env.BENCH_PROFILE_TARGET ?? 'API obs on') as TargetName;
  if (!TARGETS.includes(targetName)) throw new Error(`BENCH_PROFILE_TARGET: one of ${TARGETS.join(', ')}`);
  const running = await start(engine, { optionsFor: targetName, nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200'] });
  const target = running.targets.find((t) => t.name === targetName)!;
  const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 20);
  let clockUs: number;
  let result: Awaited<ReturnType<typeof load>>;
  try {
    await load(target, request, 2);
    clockUs = await new Promise<number>((resolve, reject) => {
      target.child.once('exit', (code) => reject(new Error(`${targetName}'s server exited (${code})`)));
      target.child.once('message', (message: { clockUs: number }) => resolve(message.clockUs));
      target.child.send('clock');
    });
    result = await load(target, request, seconds);
  } finally {
    // The profile is written as the server exits.
    await running.stop();
  }
  const file = mainThreadProfile(profileDir);
  process.stdout.write(`${name}, ${engine}, ${targetName}, ${CONNECTIONS} connections, ${seconds} s: ${result.requestsPerSecond.toFixed(0)} req/s; profile ${file} (the load's samples only)\n`);
  process.stdout.write(summariseProfile(file, { fromUs: clockUs }));
}

const served = process.argv.indexOf('--serve');
if (served >= 0) {
  await serve(process.argv[served + 1] as TargetName);
} else if (process.argv.includes('--instructions')) {
  const reports: string[] = [];
  for (const engine of ENGINES) reports.push(await countEngine(engine));
  process.stdout.write(`Instructions (valgrind's callgrind); ${OBS_SETUP}\n${reports.join('')}`);
  process.exit(0);
} else if (process.argv.includes('--profile')) {
  await profileRequest();
  process.exit(0);
} else {
  const reports: string[] = [];
  for (const engine of ENGINES) reports.push(await benchEngine(engine));
  process.stdout.write(`${CONNECTIONS} connections; ${OBS_SETUP}\n${reports.join('')}`);
  process.exit(0);
}
