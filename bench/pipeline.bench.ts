// Each request against its floor: the app as createService builds it (observability off and on)
// against a bare node:http server and a bare Express 5 app doing the same work (bench/floors.ts),
// each in a server process of its own (bench/pipeline-targets.ts), on SQLite + in-process counters and on PostgreSQL + Redis, for
// GET /me, GET /tasks?limit=10, GET /tasks?limit=100 and POST /tasks. autocannon in this process;
// the targets take turns in every round (order rotated), and each figure is the median of the rounds
// with their range. The API's share of a floor is paired: its req/s over the floor's in the same round.
// Run alone: node --import tsx bench/pipeline.bench.ts  (BENCH_ROUNDS, BENCH_ROUND_SECONDS, BENCH_ENGINES=sqlite,postgres, BENCH_REQUESTS;
//            BENCH_CONTROL=1: "API obs on" without observability, what the bench reads as a cost where there is none)
// Counted:   node --import tsx bench/pipeline.bench.ts --instructions  (every target under valgrind's callgrind: instructions per
//            request, bench/instructions.ts; BENCH_COUNT_ROUNDS, BENCH_COUNT_REQUESTS, BENCH_COUNT_WARM_UP, BENCH_ENGINES, BENCH_REQUESTS;
//            BENCH_COUNT_FUNCTIONS=<dir>: function by function, read with bench/functions.ts)
// Observability in one process: node --import tsx bench/pipeline.bench.ts --observability  (both apps in one server process, their
//            rounds in turn, timed (BENCH_ROUNDS) then counted under callgrind (the settings of --instructions): observability's cost
//            without the tiers and heaps of two processes)
// Profile:   node --import tsx bench/pipeline.bench.ts --profile  (GET /me, or BENCH_PROFILE_REQUEST='POST /tasks', on SQLite or BENCH_PROFILE_ENGINE=postgres, of BENCH_PROFILE_TARGET='API obs off' or another target, under load, node --cpu-prof)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatSpread, interleaved, runLoad, serverCpu, spreadOf, tableLine, type Engine, type LoadRequest } from './harness.js';
import { canCount, instructionsDuring, NO_VALGRIND, requestsInTurn, startCounting, type Instructions } from './instructions.js';
import { start, startPair, TARGETS, type RunningPair, type RunningTarget, type ServedTarget, type TargetName } from './pipeline-targets.js';
import { mainThreadProfile, summariseProfile } from './profile-summary.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 2);
const CONNECTIONS = 10;
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];

const OBS_SETUP =
  process.env.BENCH_CONTROL === '1'
    ? 'CONTROL: "API obs on" built without observability too; "obs cost" is what the bench reads where there is none'
    : 'obs: request ids, access log (to a file), metrics';

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

/** `request` as the target's signed-up account sends it. */
const withToken = (target: ServedTarget, request: LoadRequest): LoadRequest => ({ ...request, headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' } });
const titleOf = (engine: Engine) => (engine === 'sqlite' ? 'SQLite + in-process counters' : 'PostgreSQL + Redis');

const load = (target: ServedTarget, request: LoadRequest, seconds: number) => runLoad(target.url, withToken(target, request), { connections: CONNECTIONS, seconds });

/** `f` of each round's two figures (`a`'s and `b`'s of the same round) as a percentage: median (range). */
const pairedPercent = <T>(a: readonly T[], b: readonly T[], f: (x: T, y: T) => number, digits: number) =>
  `${formatSpread(spreadOf(a.map((value, i) => f(value, b[i]!))), digits, 100)}%`;

/** req/s, and the server's main-thread CPU µs per request (only the measured target is loaded meanwhile). */
async function measure(target: ServedTarget & { child: RunningTarget['child'] }, request: LoadRequest, seconds: number) {
  const before = await serverCpu(target.child);
  const result = await load(target, request, seconds);
  const after = await serverCpu(target.child);
  return { requestsPerSecond: result.requestsPerSecond, mainCpuPerRequest: (after.main - before.main) / result.total };
}

async function benchEngine(engine: Engine): Promise<string> {
  const running = await start(engine);
  const out: string[] = [];
  try {
    const title = titleOf(engine);
    const throughput = [`\n${title}: req/s, median of ${ROUNDS} rounds of ${ROUND_SECONDS} s (range); shares and cost paired by round\n`, tableLine(['request', ...TARGETS, 'API/Express', 'API/node:http', 'obs cost'], 22, 22)];
    const cpu = [
      `\n${title}: server main-thread CPU µs per request, median (range); shares = floor's CPU per request / API's, paired by round\n`,
      tableLine(['request', ...TARGETS, 'API/Express', 'API/node:http', 'obs cost'], 22, 22),
    ];
    /** The table's cells: four targets' figures, then the "on" app's share of each floor and what observability costs. */
    const cells = (values: number[][], share: (api: number, floor: number) => number, costOf: (on: number, off: number) => number, digits: number) => {
      const [node, expressFloor, off, on] = values as [number[], number[], number[], number[]];
      return [
        ...values.map((series) => formatSpread(spreadOf(series), digits)),
        pairedPercent(on, expressFloor, share, 0),
        pairedPercent(on, node, share, 0),
        pairedPercent(on, off, costOf, 1),
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
// After 2,000 requests under valgrind, the app with observability often still ran Node's HTTP functions
// deoptimised, in the baseline tier (bench/functions.ts prints the tiers; docs/benchmarks.md#pipeline).
const COUNT_WARM_UP = Number(process.env.BENCH_COUNT_WARM_UP ?? 8000);

/**
 * Every target under callgrind (bench/instructions.ts): the instructions of each request on each target's
 * main thread, its requests one after the other, in turn in every round, after a warm-up. Steady where
 * the timed rounds of this machine move ±15%; it leaves out the kernel's work and the databases'.
 */
async function countEngine(engine: Engine): Promise<string> {
  const running = await start(engine, { counted: true });
  const title = titleOf(engine);
  const out = [
    `\n${title}: main-thread instructions per request (thousands), ${COUNT_REQUESTS} requests one after the other, median of ${COUNT_ROUNDS} rounds (range); shares = floor's / API's, paired by round\n`,
    tableLine(['request', ...TARGETS, 'API/Express', 'API/node:http', 'obs cost', 'obs cost, all threads'], 22, 22),
  ];
  try {
    // Every request warms up on every target before counting starts (about 10 times faster under valgrind than counted).
    for (const { request } of REQUESTS) for (const target of running.targets) await requestsInTurn(target.url, withToken(target, request), COUNT_WARM_UP);
    for (const target of running.targets) startCounting(target.child);
    for (const { name, request } of REQUESTS) {
      for (const target of running.targets) await requestsInTurn(target.url, withToken(target, request), COUNT_REQUESTS / 5);
      const rounds = await interleaved(running.targets, COUNT_ROUNDS, (target) =>
        instructionsDuring(target.child, () => requestsInTurn(target.url, withToken(target, request), COUNT_REQUESTS), `${engine}/${target.name}/${name}`),
      );
      const [node, expressFloor, off, on] = rounds as [Instructions[], Instructions[], Instructions[], Instructions[]];
      const line = tableLine(
        [
          name,
          ...rounds.map((series) => formatSpread(spreadOf(series.map((count) => count.main / 1000)), 0)),
          pairedPercent(expressFloor, on, (floor, api) => floor.main / api.main, 0),
          pairedPercent(node, on, (floor, api) => floor.main / api.main, 0),
          pairedPercent(on, off, (x, y) => x.main / y.main - 1, 1),
          pairedPercent(on, off, (x, y) => x.all / y.all - 1, 1),
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

/**
 * A table of both apps in one process (bench/pipeline-targets.ts, startPair), observability off and on: a
 * line per request, its cells from `rowOf` (which runs the request's rounds, in turn), after `prepare`.
 */
async function pairTable(
  engine: Engine,
  counted: boolean,
  heading: string,
  columns: string[],
  rowOf: (pair: RunningPair, request: LoadRequest, name: string) => Promise<string[]>,
  prepare?: (pair: RunningPair) => Promise<void>,
): Promise<string> {
  const pair = await startPair(engine, counted);
  const out = [`\n${titleOf(engine)}, both apps in one process: ${heading}; obs cost paired by round\n`, tableLine(['request', ...columns], 22, 22)];
  try {
    await prepare?.(pair);
    for (const { name, request } of REQUESTS) {
      const line = tableLine([name, ...(await rowOf(pair, request, name))], 22, 22);
      out.push(line);
      process.stderr.write(`${engine} pair ${line}`);
    }
  } finally {
    await pair.stop();
  }
  return out.join('');
}

/**
 * Observability's own cost, counted with both apps in one process: they share the compiled code and its
 * tiers, which in processes of their own differ from run to run (docs/benchmarks.md#pipeline), so the
 * difference of their rounds, taken in turn, is observability's work.
 */
const countObservability = (engine: Engine) =>
  pairTable(
    engine,
    true,
    `main-thread instructions per request (thousands), ${COUNT_REQUESTS} requests one after the other, median of ${COUNT_ROUNDS} rounds (range)`,
    ['API obs off', 'API obs on', 'obs cost', 'obs cost, all threads'],
    async (pair, request, name) => {
      const rounds = await interleaved(pair.apps, COUNT_ROUNDS, (app) =>
        instructionsDuring(pair.child, () => requestsInTurn(app.url, withToken(app, request), COUNT_REQUESTS), `${engine}/pair/${app.name}/${name}`),
      );
      const [off, on] = rounds as [Instructions[], Instructions[]];
      return [
        ...rounds.map((series) => formatSpread(spreadOf(series.map((count) => count.main / 1000)), 0)),
        pairedPercent(on, off, (x, y) => x.main / y.main - 1, 1),
        pairedPercent(on, off, (x, y) => x.all / y.all - 1, 1),
      ];
    },
    async (pair) => {
      // Turns of a few hundred requests, so both apps' requests shape the shared code alike.
      for (const { request } of REQUESTS) {
        for (let done = 0; done < COUNT_WARM_UP; done += 500) for (const app of pair.apps) await requestsInTurn(app.url, withToken(app, request), 500);
      }
      startCounting(pair.child);
    },
  );

/** Observability's cost timed with both apps in one process: rounds in turn under load, the process's main-thread CPU read around each. */
const timeObservability = (engine: Engine) =>
  pairTable(
    engine,
    false,
    `median of ${ROUNDS} rounds of ${ROUND_SECONDS} s (range)`,
    ['off req/s', 'on req/s', 'obs cost, req/s', 'off CPU µs', 'on CPU µs', 'obs cost, CPU'],
    async (pair, request) => {
      const apps = pair.apps.map((app) => ({ ...app, child: pair.child }));
      for (const app of apps) await load(app, request, 1);
      const [off, on] = (await interleaved(apps, ROUNDS, (app) => measure(app, request, ROUND_SECONDS))) as [Measured[], Measured[]];
      const series = (of: Measured[], pick: (m: Measured) => number) => formatSpread(spreadOf(of.map(pick)), 0);
      const rps = (m: Measured) => m.requestsPerSecond;
      const cpu = (m: Measured) => m.mainCpuPerRequest;
      return [
        series(off, rps),
        series(on, rps),
        pairedPercent(on, off, (a, b) => 1 - rps(a) / rps(b), 1),
        series(off, cpu),
        series(on, cpu),
        pairedPercent(on, off, (a, b) => cpu(a) / cpu(b) - 1, 1),
      ];
    },
  );

type Measured = Awaited<ReturnType<typeof measure>>;

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

if (process.argv.includes('--instructions')) {
  const reports: string[] = [];
  for (const engine of ENGINES) reports.push(await countEngine(engine));
  process.stdout.write(`Instructions (valgrind's callgrind); ${OBS_SETUP}\n${reports.join('')}`);
  process.exit(0);
} else if (process.argv.includes('--observability')) {
  // Timed, then counted where valgrind is.
  const timed: string[] = [];
  for (const engine of ENGINES) timed.push(await timeObservability(engine));
  process.stdout.write(`${CONNECTIONS} connections; ${OBS_SETUP}\n${timed.join('')}`);
  if (canCount()) {
    const counted: string[] = [];
    for (const engine of ENGINES) counted.push(await countObservability(engine));
    process.stdout.write(`\nInstructions (valgrind's callgrind); ${OBS_SETUP}\n${counted.join('')}`);
  } else process.stdout.write(`\n${NO_VALGRIND}: not counted\n`);
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
