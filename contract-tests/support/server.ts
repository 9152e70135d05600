import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import knexFactory, { type Knex } from 'knex';
import { createTaskClient, type TaskClient, type TaskClientOptions } from '@task-service/sdk';

const projectRoot = new URL('../../', import.meta.url).pathname;
const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The JWT secret of every test server unless a test sets another: keys derived from it (change cursors) can be made by a test. */
export const TEST_JWT_SECRET = 'contract-tests-secret-0123456789-abcdefghijklmnop';

/** Settings every test server gets unless a test overrides them: roomy sign-in budgets, quiet logs. */
const testDefaults: Record<string, string> = {
  NODE_ENV: 'test',
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'info',
  RATE_LIMIT_STRICT_BURST_PER_MINUTE: '10000',
  RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR: '100000',
  JWT_SECRET: TEST_JWT_SECRET,
  CONNECTOR_SECRET_KEY: '0'.repeat(64),
  OPENAPI_VALIDATE_RESPONSES: 'true',
  // Reuse detection at once, as the tests of rotation expect; security-refresh.test.ts tests the interval.
  REFRESH_REUSE_INTERVAL_SECONDS: '0',
};

export interface TestDatabase {
  url: string;
  /** A knex handle on the same database, for seeding and for looking at what is stored. */
  knex: () => Knex;
  drop: () => Promise<void>;
}

/** A fresh database of the engine this project run is for (TEST_DATABASE=sqlite|postgres). */
export async function createTestDatabase(): Promise<TestDatabase> {
  let handle: Knex | undefined;
  if (process.env.TEST_DATABASE === 'postgres') {
    const name = `task_service_test_${randomUUID().replaceAll('-', '')}`;
    const admin = knexFactory({ client: 'pg', connection: POSTGRES_ADMIN_URL, pool: { min: 0, max: 1 } });
    await admin.raw(`create database ${name}`);
    await admin.destroy();
    const url = POSTGRES_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
    return {
      url,
      knex: () => (handle ??= knexFactory({ client: 'pg', connection: url, pool: { min: 0, max: 4 } })),
      drop: async () => {
        await handle?.destroy();
        const cleanup = knexFactory({ client: 'pg', connection: POSTGRES_ADMIN_URL, pool: { min: 0, max: 1 } });
        await cleanup.raw(`drop database if exists ${name} with (force)`);
        await cleanup.destroy();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'task-service-test-'));
  const filename = join(dir, 'db.sqlite');
  return {
    url: `sqlite:${filename}`,
    knex: () => (handle ??= knexFactory({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true })),
    drop: async () => {
      await handle?.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestServer {
  baseUrl: string;
  port: number;
  database: TestDatabase;
  /** Server log lines (pino JSON), for asserting what was or was not logged. */
  logs: string[];
  client: (options?: Partial<TaskClientOptions>) => TaskClient;
  /** Stops the process and starts it again on the same database and settings (a new port). */
  restart: () => Promise<void>;
  /** Sends the process a signal and waits for it to exit: its exit code, null when the signal ended it. */
  kill: (signal: NodeJS.Signals) => Promise<number | null>;
  stop: () => Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Share a database with another server (several instances); the caller drops it. */
  database?: TestDatabase;
}

/** Starts the real server (src/main.ts) in its own process on a free port. */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const ownsDatabase = !options.database;
  const env = { ...process.env, ...testDefaults, DATABASE_URL: database.url, ...options.env };
  const logs: string[] = [];
  let child: ChildProcess;
  let port = 0;

  const launch = async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join('\n')}`)), 30_000);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`server exited with ${code}:\n${logs.join('\n')}`));
      });
      for (const stream of [child.stdout!, child.stderr!]) {
        createInterface({ input: stream }).on('line', (line) => {
          logs.push(line);
          const match = /listening on port (\d+)/.exec(line);
          if (match) {
            clearTimeout(timer);
            resolve(Number(match[1]));
          }
        });
      }
    });
  };
  const halt = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  await launch();
  const server: TestServer = {
    get baseUrl() {
      return `http://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    database,
    logs,
    client: (clientOptions = {}) => createTaskClient({ baseUrl: server.baseUrl, ...clientOptions }),
    restart: async () => {
      await halt();
      await launch();
    },
    kill: async (signal) => {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill(signal);
      return exited;
    },
    stop: async () => {
      await halt();
      if (ownsDatabase) await database.drop();
    },
  };
  return server;
}

let emailCounter = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now()}-${++emailCounter}-${randomUUID().slice(0, 8)}@example.com`;
export const PASSWORD = 'correct horse battery staple';

/** Registers a fresh account and returns a client signed in as it. */
export async function signedInClient(server: TestServer, email = uniqueEmail()) {
  const anonymous = server.client();
  const registered = await anonymous.registerAccount({ email, password: PASSWORD });
  if (registered.error) throw registered.error;
  const tokens = registered.data;
  return { email, tokens, client: server.client({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }) };
}

/**
 * The data of an SDK result a test expects to succeed; anything else fails the test there, naming the
 * status and the error body it got instead of a TypeError further down.
 */
export function dataOf<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data === undefined) throw new Error(`expected data, got HTTP ${result.response.status}: ${JSON.stringify(result.error)}`);
  return result.data;
}
