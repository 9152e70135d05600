// Finding tasks at the cap: an account of 10,000 tasks in a database of 100,000, every query shape of
// src/test-support/search-corpus.ts (each filter alone and combined, each sort, q with one and three
// words), pages of 50, a first page and the page after it, against the plain GET /tasks?limit=50 of the
// same account in the same run. Target: each shape's p50 within 3x, and its p99 within 5x, of the
// plain page's p50. docs/benchmarks.md#search has the figures.
import { Client } from 'undici';
import { isPostgres } from '../src/platform/db.js';
import { searchShapes, seedSearchCorpus } from '../src/test-support/search-corpus.js';
import { call, ENGINES, envNumber, percentiles, register, serveApp, type Engine, type Figures } from './harness.js';

const ACCOUNTS = envNumber('BENCH_SEARCH_ACCOUNTS', 10);
const PER_ACCOUNT = envNumber('BENCH_SEARCH_TASKS', 10_000);
// 200 rounds: 400 samples a shape make a p99 that is not the slowest sample, and the plain page warms up
// as fully as the others (with 40 it stays about a third slower, which flatters every ratio).
const SAMPLES = envNumber('BENCH_SEARCH_SAMPLES', 200);
const PAGE = 50;

async function benchSearch(engine: Engine): Promise<{ name: string; figures: Figures }[]> {
  const app = await serveApp(engine);
  const api = new Client(app.url, { pipelining: 1 });
  try {
    const accounts = [];
    for (let i = 0; i < ACCOUNTS; i++) accounts.push(await register(api));
    await seedSearchCorpus(app.db, accounts.map((account) => account.accountId), PER_ACCOUNT);
    if (isPostgres(app.db)) await app.db.raw('vacuum analyze');
    const { token } = accounts[0]!;
    const shapes = searchShapes();
    const samples = new Map(shapes.map((shape) => [shape.name, [] as number[]]));
    // Rounds take the shapes in turn, so that a slow moment of the machine falls on all alike; round 0 warms up.
    for (let round = 0; round <= SAMPLES; round++) {
      for (const shape of shapes) {
        const path = `/tasks?limit=${PAGE}${shape.query ? `&${shape.query}` : ''}`;
        const first = await call(api, 'GET', path, token);
        const cursor = first.body.nextCursor as string | null;
        const second = cursor ? await call(api, 'GET', `${path}&cursor=${cursor}`, token) : undefined;
        if (round > 0) samples.get(shape.name)!.push(first.elapsedMs, ...(second ? [second.elapsedMs] : []));
      }
    }
    return shapes.map((shape) => ({ name: shape.name, figures: percentiles(samples.get(shape.name)!) }));
  } finally {
    await api.close();
    await app.close();
  }
}

const lines = [
  `GET /tasks?limit=${PAGE} with each query shape: one account of ${PER_ACCOUNT} tasks in a database of ${ACCOUNTS * PER_ACCOUNT}, ${SAMPLES} rounds of a first page and the next, one keep-alive connection.`,
  'p50 and p99 in ms; x: against the plain page\'s p50 (targets: p50 within 3x, p99 within 5x).',
];
let missed = 0;
for (const engine of ENGINES) {
  const results = await benchSearch(engine);
  const plain = results.find((result) => result.name === 'plain')!.figures.p50;
  lines.push('', `  ${engine}`, `  ${'shape'.padEnd(34)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'p50 x'.padStart(7)} ${'p99 x'.padStart(7)}`);
  for (const { name, figures } of results) {
    const p50x = figures.p50 / plain;
    const p99x = figures.p99 / plain;
    const met = p50x <= 3 && p99x <= 5;
    if (!met) missed += 1;
    lines.push(`  ${name.padEnd(34)} ${figures.p50.toFixed(2).padStart(8)} ${figures.p99.toFixed(2).padStart(8)} ${p50x.toFixed(2).padStart(7)} ${p99x.toFixed(2).padStart(7)}${met ? '' : '  missed'}`);
  }
}
lines.push('', missed === 0 ? 'Every shape within its targets.' : `${missed} shape(s) outside their targets.`);
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
