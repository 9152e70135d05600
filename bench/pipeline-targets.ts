// The pipeline bench's targets (bench/pipeline.bench.ts): the app as createService builds it, observability
// off and on, and the two floors of bench/floors.ts, each in a server process of its own on a database of
// its own. Started with --serve <target> (compiled, bench/harness.ts's compiledModule), this module is
// that server.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { createDb, migrate } from '../src/platform/db.js';
import { createLogger } from '../src/platform/logger.js';
import { createService, type Service } from '../src/wiring.js';
import { startExpressFloor, startNodeFloor } from './floors.js';
import {
  BENCH_JWT_SECRET,
  compiledModule,
  cpuSoFar,
  createDatabase,
  REDIS_URL,
  startServerProcess,
  stopServer,
  urlOf,
  type CpuAnswer,
  type Database,
  type Engine,
} from './harness.js';

const SEEDED_TASKS = 150;
const MAX_TASKS = 100_000_000;
const HIGH = '1000000000';

export const TARGETS = ['node:http', 'Express', 'API obs off', 'API obs on'] as const;
export type TargetName = (typeof TARGETS)[number];

const highLimits: Record<string, string> = Object.fromEntries(
  ['BURST_PER_MINUTE', 'SUSTAINED_PER_HOUR', 'CLIENT_BURST_PER_MINUTE', 'CLIENT_SUSTAINED_PER_HOUR', 'STRICT_BURST_PER_MINUTE', 'STRICT_SUSTAINED_PER_HOUR'].map(
    (name) => [`RATE_LIMIT_${name}`, HIGH],
  ),
);

export interface ServedTarget {
  name: TargetName;
  url: string;
  token: string;
}

/** A target in a server process of its own: the process whose CPU its rounds read. */
export interface RunningTarget extends ServedTarget {
  child: ChildProcess;
}

/** What a target's process sends once it listens: its URL and, for an app, the account it signed up. */
interface Listening {
  url: string;
  account?: { token: string; accountId: string };
}

const listen = (service: Service) =>
  new Promise<Server>((resolve) => {
    const server: Server = service.app.listen(0, '127.0.0.1', () => resolve(server));
  });

/** An account signed up through the API, with its tasks made through it: the token and the account id. */
async function signUpWithTasks(url: string): Promise<{ token: string; accountId: string }> {
  const registered = await fetch(`${url}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' }),
  });
  const { accessToken: token } = (await registered.json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (let i = 0; i < SEEDED_TASKS; i++) {
    const made = await fetch(`${url}/tasks`, { method: 'POST', headers, body: JSON.stringify({ title: `Task ${i} with a title of ordinary length`, labels: ['work', 'release'] }) });
    if (made.status !== 201) throw new Error(`seeding answered ${made.status}`);
  }
  const me = (await (await fetch(`${url}/me`, { headers })).json()) as { id: string };
  return { token, accountId: me.id };
}

/**
 * A target's server process (`--serve <target>`, on BENCH_DATABASE): one app or one floor, alone, as
 * each runs in production. In one process the targets had shared a heap, its collections, and the
 * code both apps run, whose compiled forms then saw the request objects of both: an app's figure
 * moved with what the other had done (PostgreSQL's GET /me, docs/benchmarks.md#pipeline).
 * An app signs up its own account and makes its tasks; BENCH_CONTROL=1 builds "API obs on" without
 * observability too, so the two apps' difference is what the bench reads where there is none.
 */
async function serve(name: TargetName): Promise<void> {
  const config = loadConfig({ ...process.env, DATABASE_URL: process.env.BENCH_DATABASE! });
  let listening: Listening;
  let close: () => Promise<unknown>;
  if (name === 'API obs off' || name === 'API obs on') {
    const observe = name === 'API obs on' && process.env.BENCH_CONTROL !== '1';
    const service = await createService(config, createLogger(config.LOG_LEVEL), { observe });
    const server = await listen(service);
    listening = { url: urlOf(server), account: await signUpWithTasks(urlOf(server)) };
    close = () => {
      server.closeAllConnections();
      server.close();
      return service.components.stop();
    };
  } else {
    const start = name === 'node:http' ? startNodeFloor : startExpressFloor;
    const floor = await start({ databaseUrl: process.env.BENCH_DATABASE!, jwtSecret: BENCH_JWT_SECRET, issuer: config.JWT_ISSUER, audience: config.JWT_AUDIENCE, maxTasks: MAX_TASKS });
    listening = { url: floor.url };
    close = () => floor.close();
  }
  answerTheBench(listening, close);
}

/** Tells the bench where the process listens, then answers its questions until SIGTERM. */
function answerTheBench(listening: unknown, close: () => Promise<unknown>): void {
  process.send?.(listening);
  process.on('message', (message) => {
    if (message === 'cpu') process.send?.({ cpu: cpuSoFar() } satisfies CpuAnswer);
  });
  process.on('SIGTERM', () => void close().finally(() => process.exit(0)));
}

export interface Running {
  targets: RunningTarget[];
  stop: () => Promise<void>;
}

/**
 * Every target in its own server process, each on a database of its own. The apps come first; each
 * floor's database then gets a copy of the "on" app's account and tasks, so every target reads the
 * same rows with the same token.
 */
export async function start(engine: Engine): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-bench-'));
  const databases: Database[] = [];
  const children: ChildProcess[] = [];
  const redisPrefix = `bench-pipeline-${randomUUID()}:`;
  const spawnTarget = async (name: TargetName, database: Database): Promise<{ child: ChildProcess; listening: Listening }> => {
    const { child, listening } = await spawnServer(['--serve', name], { engine, database, dir, redisPrefix });
    children.push(child);
    return { child, listening: listening as Listening };
  };
  const stop = async () => {
    for (const child of children) await stopServer(child);
    for (const database of databases) await database.drop();
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < TARGETS.length; i++) databases.push(await createDatabase(engine));
    const [nodeDatabase, expressDatabase, offDatabase, onDatabase] = databases as [Database, Database, Database, Database];
    const off = await spawnTarget('API obs off', offDatabase);
    const on = await spawnTarget('API obs on', onDatabase);
    const onAccount = on.listening.account!;
    const source = createDb(loadConfig({ ...process.env, DATABASE_URL: onDatabase.url }).database);
    const floors: RunningTarget[] = [];
    try {
      for (const [name, database] of [['node:http', nodeDatabase], ['Express', expressDatabase]] as const) {
        const db = createDb(loadConfig({ ...process.env, DATABASE_URL: database.url }).database);
        await migrate(db);
        await db('accounts').insert(await source('accounts').where('id', onAccount.accountId));
        await db.batchInsert('tasks', await source('tasks').where('account_id', onAccount.accountId), 100);
        await db.destroy();
        const floor = await spawnTarget(name, database);
        floors.push({ name, url: floor.listening.url, token: onAccount.token, child: floor.child });
      }
    } finally {
      await source.destroy();
    }
    const targets: RunningTarget[] = [
      ...floors,
      { name: 'API obs off', url: off.listening.url, token: off.listening.account!.token, child: off.child },
      { name: 'API obs on', url: on.listening.url, token: onAccount.token, child: on.child },
    ];
    return { targets, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

interface Spawning {
  engine: Engine;
  database: Database;
  /** Where the server's standard output (its log) goes. */
  dir: string;
  redisPrefix: string;
}

/** This module as a server process (`serveArgs`), compiled, as the app ships; what it sent once listening. */
async function spawnServer(serveArgs: string[], spawning: Spawning): Promise<{ child: ChildProcess; listening: unknown }> {
  const { engine, database, dir, redisPrefix } = spawning;
  const log = openSync(join(dir, `${serveArgs.join('-').replaceAll(/[^a-z]/gi, '-')}.log`), 'a');
  // The app and the floors as they ship: compiled by tsc, not under tsx (bench/harness.ts).
  const nodeArgs = [compiledModule(import.meta.url), ...serveArgs];
  const { child, ready } = await startServerProcess(serveArgs.join(' '), nodeArgs, {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      JWT_SECRET: BENCH_JWT_SECRET,
      JWT_ACCESS_EXPIRES: '86400',
      CONNECTOR_SECRET_KEY: '0'.repeat(64),
      TASKS_MAX_PER_ACCOUNT: String(MAX_TASKS),
      ...highLimits,
      ...(engine === 'postgres' ? { REDIS_URL, REDIS_KEY_PREFIX: redisPrefix } : {}),
      BENCH_DATABASE: database.url,
    },
    stdout: log,
  });
  return { child, listening: ready };
}

const served = process.argv.indexOf('--serve');
if (served >= 0) await serve(process.argv[served + 1] as TargetName);
