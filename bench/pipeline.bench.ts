// Each request against its floor: the app as createService builds it (observability off and on)
// against a bare node:http server and a bare Express 5 app doing the same work (bench/floors.ts),
// each in a server process of its own (bench/pipeline-targets.ts), on SQLite + in-process counters and on PostgreSQL + Redis, for
// GET /me, GET /tasks?limit=10, GET /tasks?limit=100 and POST /tasks. autocannon in this process;
// the targets take turns in every round (order rotated), and each figure is the median of the rounds
// with their range. The API's share of a floor is paired: its req/s over the floor's in the same round.
// Run alone: node --import tsx bench/pipeline.bench.ts  (BENCH_ROUNDS, BENCH_ROUND_SECONDS, BENCH_ENGINES=sqlite,postgres, BENCH_REQUESTS;
//            BENCH_CONTROL=1: "API obs on" without observability, what the bench reads as a cost where there is none)
// Profile:  docs/benchmarks.md#profiling (node --cpu-prof on the server, this bench's load).
import { formatSpread, interleaved, runLoad, serverCpu, spreadOf, tableLine, type Engine, type LoadRequest } from './harness.js';
import { start, TARGETS, type RunningTarget, type ServedTarget } from './pipeline-targets.js';

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

const reports: string[] = [];
for (const engine of ENGINES) reports.push(await benchEngine(engine));
process.stdout.write(`${CONNECTIONS} connections; ${OBS_SETUP}\n${reports.join('')}`);
process.exit(0);
