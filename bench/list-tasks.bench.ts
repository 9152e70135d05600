// listTasks with 10,000 stored tasks, pages of 100: latency of a full walk through the real app over
// HTTP (sign-in, validation, the tasks component) against the same pages read with knex alone, the
// ceiling, on SQLite and PostgreSQL. (The sync's write path is measured by bench/sync.bench.ts.)
// Run alone: node --import tsx bench/list-tasks.bench.ts
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { isPostgres, type Db } from '../src/platform/db.js';
import { decodeCursor } from '../src/platform/page-cursor.js';
import type { PagePosition } from '../src/tasks/tasks.repository.js';
import { startNodeFloor, type Floor } from './floors.js';
import { BENCH_JWT_SECRET, createDatabase, percentile, serveApp, urlOf, type Engine } from './harness.js';

const TASKS = 10_000;
const PAGE = 100;
const WALKS = 10;

interface Figures {
  p50: number;
  p99: number;
}

/** `elapsedMs`: from sending the request to the last byte of the answer, before it is parsed. */
async function getJson(client: Client, path: string, token?: string): Promise<{ status: number; body: unknown; elapsedMs: number }> {
  const started = performance.now();
  const res = await client.request({ method: 'GET', path, headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = await res.body.text();
  const elapsedMs = performance.now() - started;
  return { status: res.statusCode, body: JSON.parse(text || 'null'), elapsedMs };
}

const percentiles = (samples: number[]): Figures => ({ p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) });

async function seed(db: Db, accountId: string): Promise<void> {
  const start = Date.now() - TASKS;
  const rows = Array.from({ length: TASKS }, (_, i) => ({
    id: randomUUID(),
    account_id: accountId,
    title: `Task number ${i} with a title of ordinary length`,
    notes: i % 2 ? 'Some notes about the task, a sentence or two long.' : null,
    status: i % 3 ? 'open' : 'completed',
    priority: (i % 4) + 1,
    due_at: start + 86_400_000,
    labels: '["work","release"]',
    completed_at: i % 3 ? null : start + i,
    created_at: start + i,
    updated_at: start + i,
    change_seq: i + 1,
  }));
  await db.batchInsert('tasks', rows, 400);
  await db('accounts').where('id', accountId).update({ task_count: TASKS, task_change_seq: TASKS });
  // PostgreSQL plans on table statistics; autovacuum would gather them for a table this size within
  // a minute of the load. Without them it sorts the account's remaining rows for every page.
  if (isPostgres(db)) await db.raw('analyze tasks');
}

/** The ceiling: the same page query with knex, no HTTP, no app. */
function readPageWithKnex(db: Db, accountId: string, after: PagePosition | undefined) {
  const query = db('tasks').select('*').where('account_id', accountId);
  if (after) {
    query.andWhereRaw('(created_at, id) > (?, ?)', [after.createdAt, after.id]);
  }
  return query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(PAGE + 1);
}

async function benchListing(engine: Engine): Promise<Record<'api' | 'bare' | 'knex' | 'me', Figures>> {
  const database = await createDatabase(engine);
  const { config, db, components, server } = await serveApp(database.url);
  const api = new Client(urlOf(server));
  let floor: Floor | undefined;
  let bare: Client | undefined;

  try {
    const registered = await api.request({
      method: 'POST',
      path: '/auth/register',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' }),
    });
    const token = ((await registered.body.json()) as { accessToken: string }).accessToken;
    const accountId = ((await getJson(api, '/me', token)).body as { id: string }).id;
    await seed(db, accountId);
    // The shared floor (bench/floors.ts): the same page and JWT check on bare node:http, statements prepared once.
    floor = await startNodeFloor({ databaseUrl: database.url, jwtSecret: BENCH_JWT_SECRET, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, maxTasks: config.TASKS_MAX_PER_ACCOUNT });
    bare = new Client(floor.url);

    const samples = { api: [] as number[], bare: [] as number[], knex: [] as number[], me: [] as number[] };
    // One walk to warm up (JIT, page cache), then the measured walks. The three readers take turns on
    // each page, so a busy moment of this shared machine falls on all of them alike.
    for (let walk = 0; walk <= WALKS; walk++) {
      let cursor: string | null = null;
      let seen = 0;
      do {
        const path = `/tasks?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await getJson(api, path, token);
        if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${JSON.stringify(page.body)}`);
        const barePage = await getJson(bare, path, token);
        if (barePage.status !== 200) throw new Error(`the floor answered ${barePage.status} to GET ${path}`);
        const started = performance.now();
        await readPageWithKnex(db, accountId, cursor ? decodeCursor(cursor) : undefined);
        const knexMs = performance.now() - started;
        const me = await getJson(api, '/me', token);
        if (walk > 0) {
          samples.api.push(page.elapsedMs);
          samples.bare.push(barePage.elapsedMs);
          samples.knex.push(knexMs);
          samples.me.push(me.elapsedMs);
        }
        const body = page.body as { items: unknown[]; nextCursor: string | null };
        seen += body.items.length;
        cursor = body.nextCursor;
      } while (cursor);
      if (seen !== TASKS) throw new Error(`a walk saw ${seen} tasks, not ${TASKS}`);
    }
    return { api: percentiles(samples.api), bare: percentiles(samples.bare), knex: percentiles(samples.knex), me: percentiles(samples.me) };
  } finally {
    await Promise.all([api.close(), bare?.close()]);
    server.close();
    await floor?.close();
    await components.stop();
    await db.destroy();
    await database.drop();
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
for (const engine of ['sqlite', 'postgres'] as const) {
  const figures = await benchListing(engine);
  lines.push(
    `  ${engine.padEnd(10)} ${cell(figures.api)} ${cell(figures.knex)} ${ratio(figures.api, figures.knex)} ${cell(figures.bare)} ${ratio(figures.api, figures.bare)} ${cell(figures.me)}`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
