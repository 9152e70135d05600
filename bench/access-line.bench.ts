// The access line alone: what src/http/access-line.ts costs a line against pino writing the same fields
// its own way (`logger.info(line, 'request')`), both into the process logger's destination (the lines
// gathered as bytes, src/platform/gathered-lines.ts) writing to /dev/null. Each writer in a process of its
// own (compiled by tsc, as the service ships), rounds interleaved; figures go in docs/benchmarks.md#pipeline.
//
//   node --import tsx bench/access-line.bench.ts   (BENCH_ROUNDS, BENCH_LINES)
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { openSync } from 'node:fs';
import { pino } from 'pino';
import { accessLineWriter, type AccessLine } from '../src/http/access-line.js';
import { gatheredLinesTo } from '../src/platform/gathered-lines.js';
import { compiledModule, formatSpread, interleaved, spreadOf, tableLine } from './harness.js';

const WRITERS = ['ours', 'pino'] as const;
type Writer = (typeof WRITERS)[number];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const LINES = Number(process.env.BENCH_LINES ?? 300_000);
const WARM_UP = 50_000;

/** Lines as a service under load writes them: ids of their own, a few operations, statuses, callers. */
function sampleLines(): AccessLine[] {
  const operations = [
    { method: 'GET', route: '/me', operationId: 'getMe' },
    { method: 'GET', route: '/tasks', operationId: 'listTasks' },
    { method: 'POST', route: '/tasks', operationId: 'createTask' },
  ];
  const accounts = [randomUUID(), randomUUID()];
  return Array.from({ length: 1000 }, (_, i) => ({
    requestId: randomUUID(),
    ...operations[i % 3]!,
    status: i % 17 === 0 ? 429 : i % 3 === 2 ? 201 : 200,
    durationMs: ((i * 7919) % 20_000) / 1000,
    accountId: accounts[i % 2]!,
    clientId: i % 5 === 0 ? 'taskctl' : null,
  }));
}

/** In the writer's own process: nanoseconds per line over LINES lines, after WARM_UP. */
function measureHere(writer: Writer): number {
  const destination = gatheredLinesTo(openSync('/dev/null', 'w'));
  const logger = pino({ level: 'info' }, destination);
  const ours = accessLineWriter(logger);
  const write = writer === 'ours' ? (line: AccessLine) => ours('info', line) : (line: AccessLine) => logger.info({ ...line }, 'request');
  const lines = sampleLines();
  const run = (count: number) => {
    for (let i = 0; i < count; i++) write(lines[i % lines.length]!);
  };
  run(WARM_UP);
  const started = process.hrtime.bigint();
  run(LINES);
  const ns = Number(process.hrtime.bigint() - started) / LINES;
  destination.flush();
  return ns;
}

const asked = /^--writer=(ours|pino)$/.exec(process.argv[2] ?? '');
if (asked) {
  process.stdout.write(`${measureHere(asked[1] as Writer)}\n`);
} else {
  const script = compiledModule(import.meta.url);
  const results = await interleaved(WRITERS, ROUNDS, async (writer) => Number(execFileSync(process.execPath, [script, `--writer=${writer}`], { encoding: 'utf8' })));
  // One list per writer, a figure per round.
  const [ours, theirs] = results as [number[], number[]];
  const ratios = ours.map((ns, round) => ns / theirs[round]!);
  process.stdout.write(`Access line, ns per line, ${LINES} lines after ${WARM_UP}, median of ${ROUNDS} rounds (range)\n`);
  process.stdout.write(tableLine(['writer', 'ns per line', 'of pino, paired'], 12, 24));
  process.stdout.write(tableLine(['ours', formatSpread(spreadOf(ours)), `${formatSpread(spreadOf(ratios), 0, 100)}%`], 12, 24));
  process.stdout.write(tableLine(['pino', formatSpread(spreadOf(theirs)), '100%'], 12, 24));
}
