// The one bench harness: percentiles and spread, throwaway databases on either engine, the
// autocannon load runner, interleaved rounds, a server process's CPU and its stop, and the bench
// modules compiled as the service ships. Every bench/*.bench.ts takes these from here.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import knexFactory from 'knex';
import { loadConfig, type Config } from '../src/config.js';
import { createLogger } from '../src/platform/logger.js';
import { projectRoot } from '../src/platform/paths.js';
import { createService, type Service } from '../src/wiring.js';

export type Engine = 'sqlite' | 'postgres';

export const POSTGRES_ADMIN_URL = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379/7';
export const BENCH_JWT_SECRET = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

/** The q-quantile (0..1) by the nearest-rank method: a value that was measured, never an interpolation. */
export function percentile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const median = (values: readonly number[]): number => percentile(values, 0.5);

export const sum = (values: readonly number[]): number => values.reduce((total, value) => total + value, 0);

export interface Spread {
  median: number;
  min: number;
  max: number;
}

/** The median of the rounds and the range they spanned: a figure is only as good as its spread. */
export function spreadOf(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** `1,234 (1,100-1,300)`: median and range; `digits` for ratios. */
export function formatSpread(spread: Spread, digits = 0, scale = 1): string {
  const f = (value: number) => (value * scale).toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${f(spread.median)} (${f(spread.min)}-${f(spread.max)})`;
}

export interface Database {
  url: string;
  drop: () => Promise<void>;
}

/** A fresh database of its own: a SQLite file in a temporary directory, or a PostgreSQL database. */
export async function createDatabase(engine: Engine): Promise<Database> {
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

/**
 * The app as createService builds it for production, on `databaseUrl`, with the bench's JWT secret,
 * rate limits off and a silent log (`settings` adds or overrides settings), listening on 127.0.0.1.
 */
export async function serveApp(databaseUrl: string, settings: Record<string, string> = {}): Promise<Service & { config: Config; server: Server; url: string }> {
  const config = loadConfig({
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    JWT_SECRET: BENCH_JWT_SECRET,
    CONNECTOR_SECRET_KEY: '0'.repeat(64),
    RATE_LIMITS_ENABLED: 'false',
    LOG_LEVEL: 'silent',
    ...settings,
  });
  const service = await createService(config, createLogger('silent'));
  const server = await new Promise<Server>((resolve) => {
    const listening: Server = service.app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { ...service, config, server, url: urlOf(server) };
}

/** The address of a server listening on 127.0.0.1. */
export const urlOf = (server: Server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

export interface LoadRequest {
  method?: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requestsPerSecond: number;
  total: number;
  p50: number;
  p99: number;
}

/** autocannon against one URL; any answer but a 2xx, or a socket error, fails the bench. */
export async function runLoad(baseUrl: string, request: LoadRequest, options: { connections: number; seconds: number }): Promise<LoadResult> {
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
  return { requestsPerSecond: result.requests.total / options.seconds, total: result.requests.total, p50: result.latency.p50, p99: result.latency.p99 };
}

/**
 * Runs `measure` for every target in every round, the order rotated each round, so a busy moment of
 * this shared machine falls on all of them alike rather than on whichever happened to run then.
 */
export async function interleaved<T, R>(targets: readonly T[], rounds: number, measure: (target: T, round: number) => Promise<R>): Promise<R[][]> {
  const results = targets.map(() => [] as R[]);
  for (let round = 0; round < rounds; round++) {
    for (let turn = 0; turn < targets.length; turn++) {
      const i = (turn + round) % targets.length;
      results[i]!.push(await measure(targets[i]!, round));
    }
  }
  return results;
}

/** CPU time a process has used so far, µs: all its threads, and its main thread alone. */
export interface CpuSoFar {
  all: number;
  /** NaN where Linux's schedstat is not there. */
  main: number;
}

/**
 * In a bench's server process: its CPU so far. The main thread's alone (Linux's schedstat) is what
 * bounds a Node process's throughput, apart from the garbage collector's and the compiler's helper
 * threads, and is steadier than req/s when other work shares the cores.
 */
export function cpuSoFar(): CpuSoFar {
  const { user, system } = process.cpuUsage();
  let main = NaN;
  try {
    main = Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1000;
  } catch {
    // not Linux: the main thread's share is unknown
  }
  return { all: user + system, main };
}

/**
 * A bench's server process answers the IPC message 'cpu' with this (`{ cpu: cpuSoFar() }`); other
 * messages it sends (profiles, clocks) are told apart by their shape.
 */
export interface CpuAnswer {
  cpu: CpuSoFar;
}

/** Asks a bench's server process for its CPU so far; fails if it exits first. */
export function serverCpu(child: ChildProcess): Promise<CpuSoFar> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: unknown) => {
      if (typeof message !== 'object' || message === null || !('cpu' in message)) return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve((message as CpuAnswer).cpu);
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

/**
 * A bench's server process, `node <nodeArgs>`, and
 * the first message it sends once it is ready; stopped if it fails before.
 */
export async function startServerProcess<T>(
  name: string,
  nodeArgs: readonly string[],
  options: { env: NodeJS.ProcessEnv; stdout: 'inherit' | number },
): Promise<{ child: ChildProcess; ready: T }> {
  const child = spawn(process.execPath, [...nodeArgs], { env: options.env, stdio: ['ignore', options.stdout, 'inherit', 'ipc'] });
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

/** Fixed-width table rows: the first cell left-aligned, the others right-aligned. */
export function tableLine(cells: readonly string[], first = 30, width = 14): string {
  return `${cells[0]!.padEnd(first)}${cells.slice(1).map((cell) => cell.padStart(width)).join('')}\n`;
}

let compiledOnce = false;

/**
 * A bench module compiled by tsc, as the service ships (`npm start` runs what `npm run build` made in
 * dist/): a server process started from it measures the service's own code, where under tsx esbuild
 * wraps every function it makes in a `__name` call, a cost on each closure made per request that
 * production does not pay. Compiles src/ and bench/ (tsconfig.bench.json, into dist-bench/, apart from
 * the dist/ that `npm start` runs) once per run; answers the compiled file of `moduleUrl` (a bench's `import.meta.url`).
 */
export function compiledModule(moduleUrl: string): string {
  if (!compiledOnce) {
    execFileSync(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.bench.json'], { cwd: projectRoot, stdio: 'inherit' });
    compiledOnce = true;
  }
  return join(projectRoot, 'dist-bench', relative(projectRoot, fileURLToPath(moduleUrl))).replace(/\.ts$/, '.js');
}
