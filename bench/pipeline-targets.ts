// The pipeline bench's targets (bench/pipeline.bench.ts): the app as createService builds it, observability
// off and on, and the two floors of bench/floors.ts, each in a server process of its own on a database of
// its own. Started with --serve <target> (compiled, bench/harness.ts's compiledModule), this module is
// that server.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.js';
import { closeDb } from '../src/platform/db.js';
import { startExpressFloor, startNodeFloor } from './floors.js';
import {
  answerTheBench,
  BENCH_JWT_SECRET,
  compiledModule,
  createDatabase,
  HIGH_LIMITS,
  openDb,
  REDIS_URL,
  serveApp,
  signUp,
  startServerProcess,
  stopServer,
  type Database,
  type Engine,
} from './harness.js';

const SEEDED_TASKS = 150;
const MAX_TASKS = '100000000';

export const TARGETS = ['node:http', 'Express', 'API obs off', 'API obs on'] as const;
type TargetName = (typeof TARGETS)[number];

/** A target in a server process of its own, the token its load sends, and the process whose CPU its rounds read. */
export interface RunningTarget {
  name: TargetName;
  url: string;
  token: string;
  child: ChildProcess;
}

/** What a target's process sends once it listens: its URL and, for an app, the account it signed up. */
interface Listening {
  url: string;
  account?: { token: string; accountId: string };
}

/**
 * A target's server process, alone as in production, so that no other target's heap or compiled code
 * moves its figures. An app (served by createHttpServer(service.app, config) as src/main.ts serves it,
 * bench/harness.ts's serveApp) signs up its own account and makes its tasks through the API.
 */
async function serve(name: TargetName): Promise<void> {
  const databaseUrl = process.env.BENCH_DATABASE!;
  if (name === 'API obs off' || name === 'API obs on') {
    const settings = {
      LOG_LEVEL: 'info',
      RATE_LIMITS_ENABLED: 'true',
      TASKS_MAX_PER_ACCOUNT: MAX_TASKS,
      ...HIGH_LIMITS,
      ...(process.env.BENCH_REDIS_PREFIX ? { REDIS_URL, REDIS_KEY_PREFIX: process.env.BENCH_REDIS_PREFIX } : {}),
    };
    const app = await serveApp(databaseUrl, settings, { observe: name === 'API obs on' });
    answerTheBench({ url: app.url, account: await signUp(app.url, SEEDED_TASKS) } satisfies Listening, app.close);
  } else {
    const defaults = loadConfig({});
    const start = name === 'node:http' ? startNodeFloor : startExpressFloor;
    const redisPrefix = process.env.BENCH_REDIS_PREFIX;
    const floor = await start({
      databaseUrl,
      jwtSecret: BENCH_JWT_SECRET,
      issuer: defaults.JWT_ISSUER,
      audience: defaults.JWT_AUDIENCE,
      maxTasks: Number(MAX_TASKS),
      // On PostgreSQL, Redis too, as the API there (its own keys: the floor's windows are its own).
      ...(redisPrefix ? { redisUrl: REDIS_URL, redisPrefix: `${redisPrefix}${name}:` } : {}),
    });
    answerTheBench({ url: floor.url } satisfies Listening, floor.close);
  }
}

/**
 * Every target in its own server process, each on a database of its own. The apps come first; each
 * floor's database then gets a copy of the "on" app's account and tasks, so every target reads the
 * same rows with the same token.
 */
export async function start(engine: Engine): Promise<{ targets: RunningTarget[]; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'pipeline-bench-'));
  const databases: Database[] = [];
  const children: ChildProcess[] = [];
  const redisPrefix = engine === 'postgres' ? `bench-pipeline-${randomUUID()}:` : '';
  const spawnTarget = async (name: TargetName, database: Database, token?: string): Promise<RunningTarget & Listening> => {
    const { child, ready } = await startServerProcess<Listening>(name, [compiledModule(import.meta.url), '--serve', name], {
      env: { ...process.env, BENCH_DATABASE: database.url, BENCH_REDIS_PREFIX: redisPrefix },
      stdout: openSync(join(dir, `${name.replaceAll(/[^a-z]/gi, '-')}.log`), 'a'),
    });
    children.push(child);
    return { name, child, ...ready, token: token ?? ready.account!.token };
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
    const { accountId } = on.account!;
    const source = await openDb(onDatabase.url);
    const floors: RunningTarget[] = [];
    try {
      for (const [name, database] of [['node:http', nodeDatabase], ['Express', expressDatabase]] as const) {
        const db = await openDb(database.url);
        await db('accounts').insert(await source('accounts').where('id', accountId));
        await db.batchInsert('tasks', await source('tasks').where('account_id', accountId), 100);
        await closeDb(db);
        floors.push(await spawnTarget(name, database, on.token));
      }
    } finally {
      await closeDb(source);
    }
    return { targets: [...floors, off, on], stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

const served = process.argv.indexOf('--serve');
if (served >= 0) await serve(process.argv[served + 1] as TargetName);
