// listTasks with 10,000 stored tasks, pages of 100: latency of a full walk through the real app over
// HTTP (sign-in, validation, the tasks component) against the same pages read with knex alone, the
// ceiling, on SQLite and PostgreSQL. (The sync's write path is measured by bench/sync.bench.ts.)
// Run alone: node --import tsx bench/list-tasks.bench.ts
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import knexFactory from 'knex';
import { createApp } from '../src/app.js';
import { createComponents } from '../src/components.js';
import { loadConfig } from '../src/config.js';
import { createDb, migrate, type Db } from '../src/platform/db.js';
import { createLogger } from '../src/platform/logger.js';

const TASKS = 10_000;
const PAGE = 100;
const WALKS = 5;
const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

type Engine = 'sqlite' | 'postgres';
interface Figures {
  p50: number;
  p99: number;
}

interface Database {
  url: string;
  drop: () => Promise<void>;
}

async function createDatabase(engine: Engine): Promise<Database> {
  if (engine === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'task-service-bench-'));
    return { url: `sqlite:${join(dir, 'db.sqlite')}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
  }
  const name = `task_service_bench_${randomUUID().replaceAll('-', '')}`;
  const admin = knexFactory({ client: 'pg', connection: POSTGRES_ADMIN_URL, pool: { min: 0, max: 1 } });
  await admin.raw(`create database ${name}`);
  return {
    url: POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`),
    drop: async () => {
      await admin.raw(`drop database if exists ${name} with (force)`);
      await admin.destroy();
    },
  };
}

const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** `elapsedMs`: from sending the request to the last byte of the answer, before this client parses it. */
function httpJson(baseUrl: string, method: string, path: string, body?: unknown, token?: string): Promise<{ status: number; body: unknown; elapsedMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(`${baseUrl}${path}`, {
      method,
      agent,
      headers: {
        ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const elapsedMs = performance.now() - started;
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null'), elapsedMs });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function percentiles(samples: number[]): Figures {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
  return { p50: at(0.5), p99: at(0.99) };
}

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
  }));
  await db.batchInsert('tasks', rows, 400);
  await db('accounts').where('id', accountId).update({ task_count: TASKS });
}

/** The ceiling: the same page query with knex, no HTTP, no app. */
function readPageWithKnex(db: Db, accountId: string, after: { createdAt: number; id: string } | undefined) {
  const query = db('tasks').select('*').where('account_id', accountId);
  if (after) {
    query.andWhereRaw('(created_at, id) > (?, ?)', [after.createdAt, after.id]);
  }
  return query.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(PAGE + 1);
}

async function benchListing(engine: Engine): Promise<{ api: Figures; knex: Figures; floor: Figures }> {
  const database = await createDatabase(engine);
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: database.url,
    JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    CONNECTOR_SECRET_KEY: '0'.repeat(64),
    RATE_LIMITS_ENABLED: 'false',
    LOG_LEVEL: 'silent',
  });
  const db = createDb(config.database);
  await migrate(db);
  const logger = createLogger('silent');
  const components = await createComponents({ config, db, logger });
  const app = createApp({
    config,
    db,
    logger,
    readiness: { database: async () => true },
    identifyCaller: components.identifyCaller,
    rateLimit: components.rateLimit,
    routers: components.routers,
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  try {
    const registered = await httpJson(baseUrl, 'POST', '/auth/register', { email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' });
    const token = (registered.body as { accessToken: string }).accessToken;
    const me = await httpJson(baseUrl, 'GET', '/me', undefined, token);
    const accountId = (me.body as { id: string }).id;
    await seed(db, accountId);

    const apiSamples: number[] = [];
    // One walk to warm up (JIT, page cache), then the measured walks.
    for (let walk = 0; walk <= WALKS; walk++) {
      let cursor: string | null = null;
      let seen = 0;
      do {
        const path = `/tasks?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`;
        const page = await httpJson(baseUrl, 'GET', path, undefined, token);
        if (page.status !== 200) throw new Error(`GET ${path} answered ${page.status}: ${JSON.stringify(page.body)}`);
        if (walk > 0) apiSamples.push(page.elapsedMs);
        const body = page.body as { items: unknown[]; nextCursor: string | null };
        seen += body.items.length;
        cursor = body.nextCursor;
      } while (cursor);
      if (seen !== TASKS) throw new Error(`a walk saw ${seen} tasks, not ${TASKS}`);
    }

    const knexSamples: number[] = [];
    for (let walk = 0; walk <= WALKS; walk++) {
      let after: { createdAt: number; id: string } | undefined;
      for (;;) {
        const started = performance.now();
        const rows: { id: string; created_at: number }[] = await readPageWithKnex(db, accountId, after);
        const elapsed = performance.now() - started;
        if (walk > 0) knexSamples.push(elapsed);
        if (rows.length <= PAGE) break;
        const last = rows[PAGE - 1]!;
        after = { createdAt: Number(last.created_at), id: last.id };
      }
    }
    // What any authenticated request costs here before it reads a task: GET /me (sign-in, validation, one read by key).
    const floorSamples: number[] = [];
    for (let i = 0; i < 500; i++) floorSamples.push((await httpJson(baseUrl, 'GET', '/me', undefined, token)).elapsedMs);
    return { api: percentiles(apiSamples), knex: percentiles(knexSamples), floor: percentiles(floorSamples) };
  } finally {
    server.close();
    await components.stop();
    await db.destroy();
    await database.drop();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const lines = [
  `GET /tasks, ${TASKS} stored tasks, pages of ${PAGE}, ${WALKS} full walks (${(WALKS * TASKS) / PAGE} requests), one keep-alive connection, same process:`,
  `  engine     API p50    API p99    knex p50   knex p99   p50 ratio  p99 ratio  (GET /me p50, p99)`,
];
for (const engine of ['sqlite', 'postgres'] as const) {
  const { api, knex, floor } = await benchListing(engine);
  lines.push(
    `  ${engine.padEnd(10)} ${ms(api.p50).padEnd(10)} ${ms(api.p99).padEnd(10)} ${ms(knex.p50).padEnd(10)} ${ms(knex.p99).padEnd(10)} ` +
      `${`${(api.p50 / knex.p50).toFixed(2)}x`.padEnd(10)} ${`${(api.p99 / knex.p99).toFixed(2)}x`.padEnd(10)} (${ms(floor.p50)}, ${ms(floor.p99)})`,
  );
}
agent.destroy();
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
