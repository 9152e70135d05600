// GET /tasks over 10,000 stored tasks in pages of 100: a full walk through the real app over HTTP
// against the same pages read with knex alone (the ceiling) and the bare node:http floor of
// bench/floors.ts, the readers taking turns on each page. docs/benchmarks.md#list-tasks has the figures.
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import type { Db } from '../src/platform/db.js';
import { startNodeFloor, type Floor } from './floors.js';
import { BENCH_JWT_SECRET, call, ENGINES, percentiles, register, seedTasks, serveApp, type Engine, type Figures } from './harness.js';

const TASKS = 10_000;
const PAGE = 100;
const WALKS = 10;

/** The ceiling: the same page query with knex, no HTTP, no app. */
function readPageWithKnex(db: Db, accountId: string, cursor: string | null) {
  const query = db('tasks').select('*').where('account_id', accountId);
  // A plain list's cursor ends with the last row's createdAt and id (src/tasks/task-list-cursor.ts).
  const after = cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as unknown[]).slice(-2) : undefined;
  if (after) query.andWhereRaw('(created_at, id) > (?, ?)', after as [number, string]);
  return query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(PAGE + 1);
}

async function benchListing(engine: Engine): Promise<Record<'api' | 'bare' | 'knex' | 'me', Figures>> {
  const app = await serveApp(engine);
  const { config, db } = app;
  const api = new Client(app.url);
  let floor: Floor | undefined;
  let bare: Client | undefined;
  try {
    const { token, accountId } = await register(api);
    await seedTasks(db, accountId, TASKS);
    floor = await startNodeFloor({ databaseUrl: config.DATABASE_URL!, jwtSecret: BENCH_JWT_SECRET, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, maxTasks: config.TASKS_MAX_PER_ACCOUNT });
    bare = new Client(floor.url);
    const samples = { api: [] as number[], bare: [] as number[], knex: [] as number[], me: [] as number[] };
    // One walk to warm up (JIT, page cache), then the measured walks.
    for (let walk = 0; walk <= WALKS; walk++) {
      let cursor: string | null = null;
      let seen = 0;
      do {
        const path = `/tasks?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await call(api, 'GET', path, token);
        const barePage = await call(bare, 'GET', path, token);
        const started = performance.now();
        await readPageWithKnex(db, accountId, cursor);
        const knexMs = performance.now() - started;
        const me = await call(api, 'GET', '/me', token);
        if (walk > 0) {
          samples.api.push(page.elapsedMs);
          samples.bare.push(barePage.elapsedMs);
          samples.knex.push(knexMs);
          samples.me.push(me.elapsedMs);
        }
        seen += (page.body.items as unknown[]).length;
        cursor = page.body.nextCursor as string | null;
      } while (cursor);
      if (seen !== TASKS) throw new Error(`a walk saw ${seen} tasks, not ${TASKS}`);
    }
    return { api: percentiles(samples.api), bare: percentiles(samples.bare), knex: percentiles(samples.knex), me: percentiles(samples.me) };
  } finally {
    await Promise.all([api.close(), bare?.close()]);
    await floor?.close();
    await app.close();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const cell = (figures: Figures) => `${ms(figures.p50)} / ${ms(figures.p99)}`.padEnd(20);
const ratio = (a: Figures, b: Figures) => `${(a.p50 / b.p50).toFixed(2)}x / ${(a.p99 / b.p99).toFixed(2)}x`.padEnd(16);
const lines = [
  `GET /tasks, ${TASKS} stored tasks, pages of ${PAGE}, ${WALKS} full walks (${(WALKS * TASKS) / PAGE} pages), one keep-alive connection each, same process.`,
  'p50 / p99. knex: the page read alone (the ceiling). bare: the floor of bench/floors.ts (the same JWT check and page, prepared statements, bare node:http). /me: a signed-in request with no task read.',
  `  ${'engine'.padEnd(10)} ${'API'.padEnd(20)} ${'knex'.padEnd(20)} ${'API : knex'.padEnd(16)} ${'bare'.padEnd(20)} ${'API : bare'.padEnd(16)} GET /me`,
];
for (const engine of ENGINES) {
  const figures = await benchListing(engine);
  lines.push(`  ${engine.padEnd(10)} ${cell(figures.api)} ${cell(figures.knex)} ${ratio(figures.api, figures.knex)} ${cell(figures.bare)} ${ratio(figures.api, figures.bare)} ${cell(figures.me)}`);
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
