// The change feed's empty poll against GET /me in a server process of its own (bench/change-feed.bench.ts
// runs these): under load, what each costs the server. Also the API calls
// the change-feed bench makes. Started with --serve-poll (compiled, bench/harness.ts's compiledModule),
// this module is that server.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import {
  compiledModule,
  cpuSoFar,
  createDatabase,
  interleaved,
  median,
  runLoad,
  serveApp,
  serverCpu,
  spreadOf,
  startServerProcess,
  stopServer,
  type CpuAnswer,
  type Engine,
  type LoadRequest,
  type Spread,
  urlOf,
} from './harness.js';

const LOAD_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const LOAD_SECONDS = 2;
const LOAD_CONNECTIONS = 10;

/** `elapsedMs`: from sending the request to the last byte of the answer, before it is parsed. */
export async function call(client: Client, method: string, path: string, token?: string, body?: unknown) {
  const started = performance.now();
  const res = await client.request({
    method: method as 'GET',
    path,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  const elapsedMs = performance.now() - started;
  if (res.statusCode >= 300) throw new Error(`${method} ${path} answered ${res.statusCode}: ${text}`);
  return { body: JSON.parse(text || 'null') as Record<string, unknown>, elapsedMs };
}

export async function register(api: Client): Promise<{ token: string; accountId: string }> {
  const registered = await call(api, 'POST', '/auth/register', undefined, { email: `bench-${randomUUID()}@example.com`, password: 'correct horse battery staple' });
  const token = registered.body.accessToken as string;
  return { token, accountId: (await call(api, 'GET', '/me', token)).body.id as string };
}

interface PollTarget {
  url: string;
  token: string;
  cursor: string;
}

/** The server (a child process): an account with a few tasks, and the cursor of its feed's end, sent over IPC. */
async function servePoll(): Promise<void> {
  const database = await createDatabase((process.env.BENCH_POLL_ENGINE ?? 'sqlite') as Engine);
  const { server } = await serveApp(database.url, { JWT_ACCESS_EXPIRES: '86400' });
  const api = new Client(urlOf(server));
  const { token } = await register(api);
  for (let i = 0; i < 10; i++) await call(api, 'POST', '/tasks', token, { title: `Task ${i}`, labels: ['work'] });
  const feed = await call(api, 'GET', '/tasks/changes', token);
  await api.close();
  process.send?.({ url: urlOf(server), token, cursor: feed.body.nextCursor as string } satisfies PollTarget);
  process.on('message', (message) => {
    // The monotonic clock V8's profiler stamps its samples with, in µs: where the load starts.
    if (message === 'clock') process.send?.({ clockUs: Number(process.hrtime.bigint() / 1000n) });
    if (message === 'cpu') process.send?.({ cpu: cpuSoFar() } satisfies CpuAnswer);
  });
  process.on('SIGTERM', () => {
    server.closeAllConnections();
    server.close();
    void database.drop().finally(() => process.exit(0));
  });
}

/** The server process, compiled as the service ships, and what it serves once it is ready. */
async function startPollServer(engine: Engine): Promise<{ child: ChildProcess; target: PollTarget }> {
  const { child, ready: target } = await startServerProcess<PollTarget>('the poll', [compiledModule(import.meta.url), '--serve-poll'], {
    env: { ...process.env, BENCH_POLL_ENGINE: engine },
    stdout: 'inherit',
  });
  return { child, target };
}

export interface LoadFigures {
  /** The empty poll's main-thread CPU per request over GET /me's, paired by round. */
  cpuRatio: Spread;
  cpu: { poll: number; me: number };
  requestsPerSecond: { poll: number; me: number };
}

/**
 * The requests of an app polling `target`'s feed, and GET /me. Each poll asks with the cursor the last
 * poll answered, as an app does (past a minute it is a new one); a poll that finds a change fails.
 */
function pollRequests(target: PollTarget) {
  const headers = { authorization: `Bearer ${target.token}` };
  let cursor = target.cursor;
  const pollPath = () => `/tasks/changes?cursor=${cursor}`;
  const followed = async (answered: { statusCode: number; body: { text(): Promise<string> } }) => {
    const text = await answered.body.text();
    if (answered.statusCode !== 200) throw new Error(`the poll answered ${answered.statusCode}: ${text}`);
    const answer = JSON.parse(text) as { changes: unknown[]; nextCursor: string };
    if (answer.changes.length !== 0) throw new Error('an empty poll found changes');
    cursor = answer.nextCursor;
  };
  return {
    /** For a load (its requests all alike): GET /me, or a poll with the cursor a poll answers now. */
    async requestOf(name: 'poll' | 'me'): Promise<LoadRequest> {
      if (name === 'me') return { path: '/me', headers };
      const client = new Client(target.url);
      await followed(await client.request({ method: 'GET', path: pollPath(), headers })).finally(() => client.close());
      return { path: pollPath(), headers };
    },
  };
}

/** The empty poll and GET /me under load, in turn in every round: what each costs the server. */
export async function pollUnderLoad(engine: Engine): Promise<LoadFigures> {
  const { child, target } = await startPollServer(engine);
  try {
    const { requestOf } = pollRequests(target);
    for (const name of ['poll', 'me'] as const) await runLoad(target.url, await requestOf(name), { connections: LOAD_CONNECTIONS, seconds: 1 });
    const [poll, me] = await interleaved(['poll', 'me'] as const, LOAD_ROUNDS, async (name) => {
      const request = await requestOf(name);
      const before = await serverCpu(child);
      const result = await runLoad(target.url, request, { connections: LOAD_CONNECTIONS, seconds: LOAD_SECONDS });
      const after = await serverCpu(child);
      return { cpu: (after.main - before.main) / result.total, requestsPerSecond: result.requestsPerSecond };
    });
    return {
      cpuRatio: spreadOf(poll!.map((round, i) => round.cpu / me![i]!.cpu)),
      cpu: { poll: median(poll!.map((round) => round.cpu)), me: median(me!.map((round) => round.cpu)) },
      requestsPerSecond: { poll: median(poll!.map((round) => round.requestsPerSecond)), me: median(me!.map((round) => round.requestsPerSecond)) },
    };
  } finally {
    await stopServer(child);
  }
}

export const LOAD_SETUP = `${LOAD_CONNECTIONS} connections, median of ${LOAD_ROUNDS} rounds of ${LOAD_SECONDS} s`;

if (process.argv.includes('--serve-poll')) await servePoll();
