// The change feed's empty poll against GET /me in a server process of its own (bench/change-feed.bench.ts
// runs these): under load, what each costs the server, and a CPU profile of either. Also the API calls
// the change-feed bench makes. Started with --serve-poll (compiled, bench/harness.ts's compiledModule),
// this module is that server.
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  sum,
  type CpuAnswer,
  type Engine,
  type LoadRequest,
  type Spread,
  urlOf,
} from './harness.js';
import { instructionsDuring, requestsInTurn, startCounting } from './instructions.js';
import { mainThreadProfile, summariseProfile } from './profile-summary.js';

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

/** The server process, compiled as the service ships (under callgrind when `counted`), and what it serves once it is ready. */
async function startPollServer(engine: Engine, how: { nodeOptions?: string[]; counted?: boolean } = {}): Promise<{ child: ChildProcess; target: PollTarget }> {
  const { child, ready: target } = await startServerProcess<PollTarget>('the poll', [...(how.nodeOptions ?? []), compiledModule(import.meta.url), '--serve-poll'], {
    counted: how.counted,
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
    /**
     * `n` of them one after the other on one connection; each poll with the cursor the one before
     * answered. With one cursor for a whole round, a round that outlived the cursor's minute (under
     * callgrind a round takes seconds) signed a new cursor on every poll after it, which no app does.
     */
    async inTurn(name: 'poll' | 'me', n: number): Promise<number> {
      if (name === 'me') return requestsInTurn(target.url, { path: '/me', headers }, n);
      const client = new Client(target.url);
      try {
        for (let i = 0; i < n; i++) await followed(await client.request({ method: 'GET', path: pollPath(), headers }));
      } finally {
        await client.close();
      }
      return n;
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

function positiveInteger(name: string, otherwise: number): number {
  const value = Number(process.env[name] ?? otherwise);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name}: a whole number of at least 1`);
  return value;
}

const COUNT_ROUNDS = positiveInteger('BENCH_COUNT_ROUNDS', 7);
const COUNT_REQUESTS = positiveInteger('BENCH_COUNT_REQUESTS', 2000);
const COUNT_WARM_UP = 3000;

export interface InstructionFigures {
  /** The empty poll's instructions per request over GET /me's, paired by round: main thread, all threads. */
  mainRatio: Spread;
  allRatio: Spread;
  /**
   * The same over every round taken together, main thread: a scavenge lands in whichever round fills
   * the young generation, so one round's count moves more than the sum over all rounds does.
   */
  mainRatioOfAll: number;
  main: { poll: number; me: number };
}

/**
 * The empty poll and GET /me one after the other, in a server under callgrind (bench/instructions.ts):
 * the instructions each request costs, in turn in every round, after both have warmed up.
 */
export async function pollInstructions(engine: Engine): Promise<InstructionFigures> {
  const { child, target } = await startPollServer(engine, { counted: true });
  try {
    const { inTurn } = pollRequests(target);
    for (const name of ['poll', 'me'] as const) await inTurn(name, COUNT_WARM_UP);
    startCounting(child);
    for (const name of ['poll', 'me'] as const) await inTurn(name, Math.ceil(COUNT_REQUESTS / 5));
    const [poll, me] = await interleaved(['poll', 'me'] as const, COUNT_ROUNDS, (name) =>
      instructionsDuring(child, () => inTurn(name, COUNT_REQUESTS), `${engine}/${name}`),
    );
    return {
      mainRatio: spreadOf(poll!.map((round, i) => round.main / me![i]!.main)),
      allRatio: spreadOf(poll!.map((round, i) => round.all / me![i]!.all)),
      // Per-request counts added up: the ratio of the totals, as every round makes COUNT_REQUESTS requests.
      mainRatioOfAll: sum(poll!.map((round) => round.main)) / sum(me!.map((round) => round.main)),
      main: { poll: median(poll!.map((round) => round.main)), me: median(me!.map((round) => round.main)) },
    };
  } finally {
    await stopServer(child);
  }
}

export const COUNT_SETUP = `${COUNT_REQUESTS} requests one after the other, median of ${COUNT_ROUNDS} rounds, after ${COUNT_WARM_UP} of each`;

export const LOAD_SETUP = `${LOAD_CONNECTIONS} connections, median of ${LOAD_ROUNDS} rounds of ${LOAD_SECONDS} s`;

/** The empty poll (or GET /me) on SQLite under load, in a server started with node --cpu-prof: the profile's summary. */
export async function profilePoll(): Promise<void> {
  const name = process.env.BENCH_PROFILE_REQUEST ?? 'empty poll';
  if (name !== 'empty poll' && name !== 'GET /me') throw new Error("BENCH_PROFILE_REQUEST: 'empty poll' or 'GET /me'");
  const seconds = Number(process.env.BENCH_PROFILE_SECONDS ?? 15);
  const profileDir = mkdtempSync(join(tmpdir(), 'change-feed-profile-'));
  const { child, target } = await startPollServer('sqlite', { nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, '--cpu-prof-interval=200'] });
  let result: Awaited<ReturnType<typeof runLoad>>;
  let clockUs: number;
  try {
    const request = {
      path: name === 'GET /me' ? '/me' : `/tasks/changes?cursor=${target.cursor}`,
      headers: { authorization: `Bearer ${target.token}` },
    };
    await runLoad(target.url, request, { connections: 10, seconds: 2 });
    clockUs = await new Promise<number>((resolve) => {
      child.once('message', (message: { clockUs: number }) => resolve(message.clockUs));
      child.send('clock');
    });
    result = await runLoad(target.url, request, { connections: 10, seconds });
  } finally {
    // The profile is written as the server exits.
    await stopServer(child);
  }
  const file = mainThreadProfile(profileDir);
  process.stdout.write(`${name}, SQLite, 10 connections, ${seconds} s: ${result.requestsPerSecond.toFixed(0)} req/s; profile ${file} (the load's samples only)\n`);
  process.stdout.write(summariseProfile(file, { fromUs: clockUs }));
}

if (process.argv.includes('--serve-poll')) await servePoll();
