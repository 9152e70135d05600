// The change feed's empty poll against GET /me under load, in a server process of its own (run by
// bench/change-feed.bench.ts). Started with --serve-poll (compiled, bench/harness.ts's compiledModule),
// this module is that server.
import { Client } from 'undici';
import {
  answerTheBench,
  call,
  compiledModule,
  envNumber,
  interleaved,
  median,
  runLoad,
  serveApp,
  serverCpu,
  signUp,
  spreadOf,
  startServerProcess,
  stopServer,
  type Engine,
  type LoadRequest,
  type Spread,
} from './harness.js';

const LOAD_ROUNDS = envNumber('BENCH_ROUNDS', 7);
const LOAD_SECONDS = 2;
const LOAD_CONNECTIONS = 10;
export const LOAD_SETUP = `${LOAD_CONNECTIONS} connections, median of ${LOAD_ROUNDS} rounds of ${LOAD_SECONDS} s`;

interface PollTarget {
  url: string;
  token: string;
  cursor: string;
}

/** The server: an account with a few tasks, and the cursor of its feed's end, sent to the bench. */
async function servePoll(): Promise<void> {
  const app = await serveApp(process.env.BENCH_POLL_ENGINE as Engine);
  const { token } = await signUp(app.url, 10);
  const api = new Client(app.url);
  const feed = await call(api, 'GET', '/tasks/changes', token);
  await api.close();
  answerTheBench({ url: app.url, token, cursor: feed.body.nextCursor as string } satisfies PollTarget, app.close);
}

interface LoadFigures {
  /** The empty poll's main-thread CPU per request over GET /me's, paired by round. */
  cpuRatio: Spread;
  cpu: { poll: number; me: number };
  requestsPerSecond: { poll: number; me: number };
}

/** The empty poll and GET /me under load, in turn in every round: what each costs the server. */
export async function pollUnderLoad(engine: Engine): Promise<LoadFigures> {
  const { child, ready: target } = await startServerProcess<PollTarget>('the poll', [compiledModule(import.meta.url), '--serve-poll'], {
    env: { ...process.env, BENCH_POLL_ENGINE: engine },
  });
  const headers = { authorization: `Bearer ${target.token}` };
  let cursor = target.cursor;
  /** A load's requests are all alike: each round's polls send the cursor a poll answers just before, as an app does; one that finds a change fails. */
  const requestOf = async (name: 'poll' | 'me'): Promise<LoadRequest> => {
    if (name === 'me') return { path: '/me', headers };
    const client = new Client(target.url);
    const answer = (await call(client, 'GET', `/tasks/changes?cursor=${cursor}`, target.token).finally(() => client.close())).body;
    if ((answer.changes as unknown[]).length !== 0) throw new Error('an empty poll found changes');
    cursor = answer.nextCursor as string;
    return { path: `/tasks/changes?cursor=${cursor}`, headers };
  };
  try {
    for (const name of ['poll', 'me'] as const) await runLoad(target.url, await requestOf(name), { connections: LOAD_CONNECTIONS, seconds: 1 });
    const [poll, me] = (await interleaved(['poll', 'me'] as const, LOAD_ROUNDS, async (name) => {
      const request = await requestOf(name);
      const before = await serverCpu(child);
      const result = await runLoad(target.url, request, { connections: LOAD_CONNECTIONS, seconds: LOAD_SECONDS });
      const after = await serverCpu(child);
      return { cpu: (after.main - before.main) / result.total, requestsPerSecond: result.requestsPerSecond };
    })) as [{ cpu: number; requestsPerSecond: number }[], { cpu: number; requestsPerSecond: number }[]];
    const medianOf = (pick: (round: (typeof poll)[number]) => number) => ({ poll: median(poll.map(pick)), me: median(me.map(pick)) });
    return { cpuRatio: spreadOf(poll.map((round, i) => round.cpu / me[i]!.cpu)), cpu: medianOf((r) => r.cpu), requestsPerSecond: medianOf((r) => r.requestsPerSecond) };
  } finally {
    await stopServer(child);
  }
}

if (process.argv.includes('--serve-poll')) await servePoll();
