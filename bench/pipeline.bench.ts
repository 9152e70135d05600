// Each request against its floors: the app as createService builds it (observability off and on)
// against bare node:http and bare Express 5 doing the same work (bench/floors.ts), each in a server
// process of its own (bench/pipeline-targets.ts), on SQLite + in-process counters and on PostgreSQL +
// Redis. The targets take turns in every round; a share is paired (the API's figure over the floor's
// in the same round). docs/benchmarks.md#pipeline has the knobs and the figures.
import { ENGINES, envNumber, formatSpread, interleaved, runLoad, serverCpu, spreadOf, tableLine, type Engine, type LoadRequest } from './harness.js';
import { start, TARGETS, type RunningTarget } from './pipeline-targets.js';

const ROUNDS = envNumber('BENCH_ROUNDS', 5);
const ROUND_SECONDS = envNumber('BENCH_ROUND_SECONDS', 2);
const CONNECTIONS = 10;

const ALL_REQUESTS: { name: string; request: LoadRequest }[] = [
  { name: 'GET /me', request: { path: '/me' } },
  { name: 'GET /tasks?limit=10', request: { path: '/tasks?limit=10' } },
  { name: 'GET /tasks?limit=100', request: { path: '/tasks?limit=100' } },
  { name: 'POST /tasks', request: { method: 'POST', path: '/tasks', body: JSON.stringify({ title: 'A task made under load', labels: ['bench'], priority: 2 }) } },
];
/** BENCH_REQUESTS='GET /me,POST /tasks' measures only those. */
const REQUESTS = process.env.BENCH_REQUESTS ? ALL_REQUESTS.filter(({ name }) => process.env.BENCH_REQUESTS!.split(',').includes(name)) : ALL_REQUESTS;

const load = (target: RunningTarget, request: LoadRequest, seconds: number) =>
  runLoad(target.url, { ...request, headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' } }, { connections: CONNECTIONS, seconds });

/** req/s, and the server's main-thread CPU µs per request (only the measured target is loaded meanwhile). */
async function measure(target: RunningTarget, request: LoadRequest) {
  const before = await serverCpu(target.child);
  const result = await load(target, request, ROUND_SECONDS);
  const after = await serverCpu(target.child);
  return { requestsPerSecond: result.requestsPerSecond, mainCpuPerRequest: (after.main - before.main) / result.total };
}

/** `f` of each round's two figures as a percentage: median (range). */
const pairedPercent = (a: readonly number[], b: readonly number[], f: (x: number, y: number) => number, digits: number) =>
  `${formatSpread(spreadOf(a.map((value, i) => f(value, b[i]!))), digits, 100)}%`;

/** A table's cells: the four targets' figures, the "on" app's share of each floor, and what observability costs. */
function cells(values: number[][], share: (api: number, floor: number) => number, costOf: (on: number, off: number) => number): string[] {
  const [node, expressFloor, off, on] = values as [number[], number[], number[], number[]];
  return [...values.map((series) => formatSpread(spreadOf(series))), pairedPercent(on, expressFloor, share, 0), pairedPercent(on, node, share, 0), pairedPercent(on, off, costOf, 1)];
}

async function benchEngine(engine: Engine): Promise<string> {
  const running = await start(engine);
  try {
    const title = engine === 'sqlite' ? 'SQLite + in-process counters' : 'PostgreSQL + Redis';
    const header = tableLine(['request', ...TARGETS, 'API/Express', 'API/node:http', 'obs cost'], 22, 22);
    const throughput = [`\n${title}: req/s, median of ${ROUNDS} rounds of ${ROUND_SECONDS} s (range); shares and cost paired by round\n`, header];
    const cpu = [`\n${title}: server main-thread CPU µs per request, median (range); shares = floor's CPU per request / API's, paired by round\n`, header];
    for (const { name, request } of REQUESTS) {
      for (const target of running.targets) await load(target, request, 1);
      const rounds = await interleaved(running.targets, ROUNDS, (target) => measure(target, request));
      const rps = rounds.map((results) => results.map((result) => result.requestsPerSecond));
      const cpuPerRequest = rounds.map((results) => results.map((result) => result.mainCpuPerRequest));
      throughput.push(tableLine([name, ...cells(rps, (api, floor) => api / floor, (on, off) => 1 - on / off)], 22, 22));
      cpu.push(tableLine([name, ...cells(cpuPerRequest, (api, floor) => floor / api, (on, off) => on / off - 1)], 22, 22));
      process.stderr.write(`${engine} ${throughput.at(-1)!}${engine} ${cpu.at(-1)!}`);
    }
    return [...throughput, ...cpu, '  "API obs on" is the app as shipped; obs cost: what observability on costs over off, same round\n'].join('');
  } finally {
    await running.stop();
  }
}

const reports: string[] = [];
for (const engine of ENGINES) reports.push(await benchEngine(engine));
process.stdout.write(`${CONNECTIONS} connections; obs: request ids, access log (to a file), metrics\n${reports.join('')}`);
process.exit(0);
