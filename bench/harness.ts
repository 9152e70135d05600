// The one bench harness: statistics, throwaway databases, the app served as src/main.ts serves it,
// timed API calls, autocannon load, rounds taken in turn, server processes (compiled as the service
// ships) and their CPU. Every bench/*.bench.ts takes these from here.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join, relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { Client } from 'undici';
import { loadConfig, type Config } from '../src/config.js';
import { createHttpServer } from '../src/http/http-server.js';
import { closeDb, createDb, isPostgres, migrate, type Db } from '../src/platform/db.js';
import { createLogger } from '../src/platform/logger.js';
import { projectRoot } from '../src/platform/paths.js';
import { createService, type Service, type ServiceOverrides } from '../src/wiring.js';

export type Engine = 'sqlite' | 'postgres';

const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
export const BENCH_JWT_SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** BENCH_ENGINES=sqlite (or postgres) runs a bench on one engine; both by default. */
export const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',') as Engine[];
/** A number setting of the environment (BENCH_ROUNDS, BENCH_ROUND_SECONDS), else the bench's default. */
export const envNumber = (name: string, fallback: number): number => Number(process.env[name] ?? fallback);

/** Every rate limit far above what a run can spend: limits on, never reached. */
export const HIGH_LIMIT = 1_000_000_000;
export const HIGH_LIMITS: Record<string, string> = Object.fromEntries(
  ['BURST_PER_MINUTE', 'SUSTAINED_PER_HOUR', 'CLIENT_BURST_PER_MINUTE', 'CLIENT_SUSTAINED_PER_HOUR', 'STRICT_BURST_PER_MINUTE', 'STRICT_SUSTAINED_PER_HOUR'].map(
    (name) => [`RATE_LIMIT_${name}`, String(HIGH_LIMIT)],
  ),
);

/** The q-quantile (0..1) by the nearest-rank method: a value that was measured, never an interpolation. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);
export const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

export const percentiles = (samples: readonly number[]) => ({ p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) });
export type Figures = ReturnType<typeof percentiles>;

/** The median of the rounds and the range they spanned: a figure is only as good as its spread. */
export const spreadOf = (values: readonly number[]) => ({ median: median(values), min: Math.min(...values), max: Math.max(...values) });
export type Spread = ReturnType<typeof spreadOf>;

/** `1,234 (1,100-1,300)`: median and range; `digits` for ratios. */
export function formatSpread(spread: Spread, digits = 0, scale = 1): string {
  const f = (value: number) => (value * scale).toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${f(spread.median)} (${f(spread.min)}-${f(spread.max)})`;
}

/** Fixed-width table rows: the first cell left-aligned, the others right-aligned. */
export function tableLine(cells: readonly string[], first: number, width: number): string {
  return `${cells[0]!.padEnd(first)}${cells.slice(1).map((cell) => cell.padStart(width)).join('')}\n`;
}

export type Database = Awaited<ReturnType<typeof createDatabase>>;

/** A fresh database of its own: a SQLite file in a temporary directory, or a PostgreSQL database. */
export async function createDatabase(engine: Engine): Promise<{ url: string; drop: () => Promise<void> }> {
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

/** The service's own knex on `databaseUrl`, migrated. */
export async function openDb(databaseUrl: string): Promise<Db> {
  const db = createDb(loadConfig({ DATABASE_URL: databaseUrl }).database);
  await migrate(db);
  return db;
}

/** `count` tasks stored straight in the database with their change numbers, as if made one by one; their ids in order. */
export async function seedTasks(db: Db, accountId: string, count: number): Promise<string[]> {
  const start = Date.now() - count;
  const rows = Array.from({ length: count }, (_, i) => ({
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
  await db('accounts').where('id', accountId).update({ task_count: count, task_change_seq: count });
  // Without table statistics (autovacuum gathers them within a minute) PostgreSQL sorts the account's rows for every page.
  if (isPostgres(db)) await db.raw('analyze tasks');
  return rows.map((row) => row.id);
}

/** The app's server as src/main.ts makes it (src/http/http-server.ts), listening on 127.0.0.1. */
function listenApp(app: RequestListener, config: Config): Promise<Server> {
  return new Promise((resolve) => {
    const server = createHttpServer(app, config).listen(0, '127.0.0.1', () => resolve(server));
    server.keepAliveTimeout = 65_000;
  });
}

interface App extends Service {
  config: Config;
  server: Server;
  url: string;
  /** Closes the server, stops the components, closes the database and, if serveApp made it, drops it. */
  close: () => Promise<void>;
}

/**
 * The app as createService builds it for production, on the database `where` names (an engine: a fresh
 * one), with the bench's JWT secret, a day-long access token, rate limits off and a silent log
 * (`settings` adds or overrides), listening.
 */
export async function serveApp(where: Engine | string, settings: Record<string, string> = {}, overrides: ServiceOverrides = {}): Promise<App> {
  const database = where === 'sqlite' || where === 'postgres' ? await createDatabase(where) : undefined;
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: database?.url ?? where,
    JWT_SECRET: BENCH_JWT_SECRET,
    JWT_ACCESS_EXPIRES: '86400',
    CONNECTOR_SECRET_KEY: '0'.repeat(64),
    RATE_LIMITS_ENABLED: 'false',
    LOG_LEVEL: 'silent',
    ...settings,
  });
  const service = await createService(config, createLogger(config.LOG_LEVEL), overrides);
  const server = await listenApp(service.app, config);
  const close = async () => {
    server.closeAllConnections();
    server.close();
    await service.components.stop();
    await closeDb(service.db);
    await database?.drop();
  };
  return { ...service, config, server, url: urlOf(server), close };
}

/** The address of a server listening on 127.0.0.1. */
export const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

/** One API call; `elapsedMs` runs from sending to the answer's last byte, before parsing; an answer of 300 or more fails. */
export async function call(client: Client, method: string, path: string, token?: string, body?: unknown, headers: Record<string, string> = {}) {
  const started = performance.now();
  const res = await client.request({
    method: method as 'GET',
    path,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  const elapsedMs = performance.now() - started;
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text.slice(0, 300)}`);
  return { body: JSON.parse(text || 'null') as Record<string, unknown>, elapsedMs };
}

/** A new account signed up through the API: its access token and id. */
export async function register(api: Client): Promise<{ token: string; accountId: string }> {
  const registered = await call(api, 'POST', '/auth/register', undefined, { email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' });
  const token = registered.body.accessToken as string;
  return { token, accountId: (await call(api, 'GET', '/me', token)).body.id as string };
}

/** An account signed up at `url` with `tasks` tasks made through the API. */
export async function signUp(url: string, tasks: number): Promise<{ token: string; accountId: string }> {
  const api = new Client(url);
  try {
    const account = await register(api);
    for (let i = 0; i < tasks; i++) await call(api, 'POST', '/tasks', account.token, { title: `Task ${i} with a title of ordinary length`, labels: ['work', 'release'] });
    return account;
  } finally {
    await api.close();
  }
}

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** autocannon against one URL; any answer but a 2xx, or a socket error, fails the bench. */
export async function runLoad(baseUrl: string, request: LoadRequest, options: { connections: number; seconds: number }) {
  const result = await autocannon({
    url: `${baseUrl}${request.path}`,
    method: request.method ?? 'GET',
    headers: request.headers,
    body: request.body,
    connections: options.connections,
    duration: options.seconds,
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${request.method ?? 'GET'} ${baseUrl}${request.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return { requestsPerSecond: result.requests.total / options.seconds, total: result.requests.total, p99: result.latency.p99 };
}

/** Runs `measure` for every target in every round, the order rotated, so a busy moment of the shared machine falls on all alike. */
export async function interleaved<T, R>(targets: readonly T[], rounds: number, measure: (target: T) => Promise<R>): Promise<R[][]> {
  const results = targets.map(() => [] as R[]);
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < targets.length; turn++) {
      const i = (turn + round) % targets.length;
      results[i]!.push(await measure(targets[i]!));
    }
  }
  return results;
}

/**
 * CPU µs this process has used so far: all its threads, and its main thread alone (NaN off Linux), which
 * bounds a Node server's throughput and is steadier than req/s on shared cores.
 */
function cpuSoFar() {
  const { user, system } = process.cpuUsage();
  let main = NaN;
  try {
    main = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    // not Linux: the main thread's share is unknown
  }
  return { all: user + system, main };
}

/** In a bench's server process: sends `ready` to the bench, answers its 'cpu' questions, and runs `close` on SIGTERM. */
export function answerTheBench(ready: unknown, close: () => Promise<unknown>): void {
  process.send?.(ready);
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: cpuSoFar() });
  });
  process.on('SIGTERM', () => void close().finally(() => process.exit(0)));
}

/** Asks a bench's server process for its CPU so far; fails if it exits first. */
export function serverCpu(child: ChildProcess): Promise<ReturnType<typeof cpuSoFar>> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('cpu' in message)) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve((message as { cpu: ReturnType<typeof cpuSoFar> }).cpu);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`the server exited (${code}) before it told its CPU`));
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send('cpu');
  });
}

/** Stops a bench's server process (SIGTERM) and waits until it has exited; at once if it already has. */
export async function stopServer(child: ChildProcess): Promise<void> {
  child.removeAllListeners('exit');
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** A bench's server process, `node <nodeArgs>`, and the first message it sends once ready; stopped if it fails before. */
export async function startServerProcess<T>(
  name: string,
  nodeArgs: readonly string[],
  options: { env: NodeJS.ProcessEnv; stdout?: 'inherit' | number },
): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawn(process.execPath, [...nodeArgs], { env: options.env, stdio: ['ignore', options.stdout ?? 'inherit', 'inherit', 'ipc'] });
  try {
    const ready = await new Promise<T>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${name}'s server exited (${code}) before it was ready`)));
      child.once('message', (message: T) => resolve(message));
    });
    return { child, ready };
  } catch (error) {
    await stopServer(child);
    throw error;
  }
}

let compiledOnce = false;

/**
 * The compiled file of a bench module (`moduleUrl`, its `import.meta.url`), as `npm start` runs the
 * service: under tsx every function is wrapped in a `__name` call that production does not pay.
 * Compiles src/ and bench/ once per run (tsconfig.bench.json, into dist-bench/).
 */
export function compiledModule(moduleUrl: string): string {
  if (!compiledOnce) {
    execFileSync(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.bench.json'], { cwd: projectRoot, stdio: 'inherit' });
    compiledOnce = true;
  }
  return join(projectRoot, 'dist-bench', relative(projectRoot, fileURLToPath(moduleUrl))).replace(/\.ts$/, '.js');
}
