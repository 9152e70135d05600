import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForJob } from '../support/connectors.js';
import { startHttpFake, type HttpFake } from '../support/fakes/http-fake.js';
import { manyTodos, vcalendar } from '../support/fakes/ical.fake.js';
import { ownRedisKeys, sleep } from '../support/limits.js';
import { createTestDatabase, signedInClient, startServer, type TestDatabase, type TestServer, dataOf } from '../support/server.js';

/** Feeds that answer after a delay, or hang once (the process syncing it gets killed meanwhile). */
interface Feeds extends HttpFake {
  set: (path: string, options: { todos: number; delayMs?: number; hangNext?: boolean }) => void;
  url: (path: string) => string;
  requestsTo: (path: string) => number;
}

async function startFeeds(): Promise<Feeds> {
  const feeds = new Map<string, { todos: number; delayMs?: number; hangNext?: boolean }>();
  const fake = await startHttpFake((_req, res, url) => {
    const feed = feeds.get(url.pathname);
    if (!feed) return void res.writeHead(404).end();
    if (feed.hangNext) {
      feed.hangNext = false;
      return;
    }
    const answer = () => res.writeHead(200, { 'content-type': 'text/calendar' }).end(vcalendar(manyTodos(feed.todos, url.pathname)));
    if (feed.delayMs) setTimeout(answer, feed.delayMs);
    else answer();
  });
  return {
    ...fake,
    set: (path, options) => void feeds.set(path, { ...options }),
    url: (path) => `${fake.origin}${path}`,
    requestsTo: (path) => fake.requests.filter((request) => request.path === path).length,
  };
}

// Several instances share PostgreSQL (SQLite is one machine's file): this file runs in the postgres project.
describe.skipIf(process.env.TEST_DATABASE !== 'postgres')('several server processes on one PostgreSQL and one Redis', () => {
  let database: TestDatabase;
  let feeds: Feeds;
  let servers: TestServer[];
  beforeAll(async () => {
    database = await createTestDatabase();
    feeds = await startFeeds();
    const env = {
      ...ownRedisKeys(),
      CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
      RATE_LIMIT_BURST_PER_MINUTE: '100000',
      RATE_LIMIT_SUSTAINED_PER_HOUR: '1000000',
      RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '100000',
      RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '1000000',
    };
    // One at a time: all three migrate the same database.
    servers = [];
    for (let i = 0; i < 3; i++) servers.push(await startServer({ env, database }));
  }, 90_000);
  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    await feeds?.close();
    await database?.drop();
  });

  const startedHere = (server: TestServer, jobId: string) => server.logs.some((line) => line.includes('sync job started') && line.includes(jobId));

  it('run sync jobs started on any of them, each exactly once, and the work is shared', async () => {
    const connected = [];
    for (let i = 0; i < 12; i++) {
      const path = `/shared-${i}.ics`;
      feeds.set(path, { todos: 3, delayMs: 300 });
      const { client } = await signedInClient(servers[i % 3]!);
      const account = dataOf(await client.connectAccount('ical', { url: feeds.url(path) }));
      connected.push({ client, path, accountId: account.id });
    }
    const before = connected.map(({ path }) => feeds.requestsTo(path));
    const jobs = await Promise.all(
      connected.map(async ({ client, path, accountId }) => ({ client, path, id: dataOf(await client.startSync(accountId)).id })),
    );
    const finished = await Promise.all(jobs.map((job) => waitForJob(job.client, job.id, 30_000)));

    expect(finished.map((job) => job.status)).toEqual(Array(12).fill('succeeded'));
    expect(finished.map((job) => job.created)).toEqual(Array(12).fill(3));
    const rows = await database.knex()('sync_jobs').whereIn('id', jobs.map((job) => job.id));
    expect(rows.map((row: { attempts: number }) => row.attempts)).toEqual(Array(12).fill(1));
    // Each feed was read once by its sync: no job ran twice.
    expect(jobs.map((job, i) => feeds.requestsTo(job.path) - before[i]!)).toEqual(Array(12).fill(1));
    expect(jobs.map((job) => jobs.filter((other) => other.id === job.id).length)).toEqual(Array(12).fill(1));
    const ranBy = jobs.map((job) => servers.filter((server) => startedHere(server, job.id)).length);
    expect(ranBy).toEqual(Array(12).fill(1));
    expect(new Set(rows.map((row: { runner_id: string }) => row.runner_id)).size).toBeGreaterThanOrEqual(2);
  });

  it('take over the job of a process that was killed mid-sync once its lease runs out', async () => {
    const path = '/killed-mid-sync.ics';
    feeds.set(path, { todos: 5 });
    const { client } = await signedInClient(servers[0]!);
    const account = dataOf(await client.connectAccount('ical', { url: feeds.url(path) }));
    feeds.set(path, { todos: 5, hangNext: true });
    const requestsBefore = feeds.requestsTo(path);
    const jobId = dataOf(await client.startSync(account.id)).id;
    for (let i = 0; i < 100 && feeds.requestsTo(path) === requestsBefore; i++) await sleep(50);
    const victim = servers.find((server) => startedHere(server, jobId))!;
    expect(victim).toBeDefined();

    expect(await victim.kill('SIGKILL')).toBeNull();
    servers = servers.filter((server) => server !== victim);
    const survivor = servers[0]!.client({ accessToken: client.accessToken });
    const job = await waitForJob(survivor, jobId, 60_000);

    expect(job).toMatchObject({ status: 'succeeded', fetched: 5, created: 5 });
    expect(servers.filter((server) => startedHere(server, jobId))).toHaveLength(1);
    const row = await database.knex()('sync_jobs').where({ id: jobId }).first();
    expect(row.attempts).toBe(2);
  }, 90_000);

  it('drain on SIGTERM under load: requests in flight finish, the listener refuses new connections, no client request fails', async () => {
    const [leaving, staying] = servers as [TestServer, TestServer];
    const { client, tokens } = await signedInClient(staying);
    const authorization = `Bearer ${tokens.accessToken}`;
    let stopLoad = false;
    const outcomes = { served: { leaving: 0, staying: 0 }, retried: 0, failed: [] as string[] };

    /** A client-side balancer: each worker prefers one instance and retries on the other when a connection fails before any answer. */
    const worker = async (prefersLeaving: boolean) => {
      const order = prefersLeaving ? [leaving, staying] : [staying, leaving];
      while (!stopLoad) {
        let answered = false;
        for (const [attempt, server] of order.entries()) {
          try {
            const response = await fetch(`${server.baseUrl}/tasks?limit=5`, { headers: { authorization } });
            await response.arrayBuffer();
            if (response.status !== 200) outcomes.failed.push(`status ${response.status}`);
            else outcomes.served[server === leaving ? 'leaving' : 'staying']++;
            if (attempt > 0) outcomes.retried++;
            answered = true;
            break;
          } catch {
            // Refused or closed before any answer: never reached a handler, safe to send elsewhere.
          }
        }
        if (!answered) outcomes.failed.push('no instance answered');
      }
    };
    const load = Promise.all(Array.from({ length: 8 }, (_, i) => worker(i % 2 === 0)));

    feeds.set('/slow-connect-1.ics', { todos: 1, delayMs: 1500 });
    feeds.set('/slow-connect-2.ics', { todos: 1, delayMs: 1500 });
    // Both instances under load before the one leaves: a second, or longer on a busy machine.
    await sleep(1000);
    for (const until = Date.now() + 20_000; outcomes.served.leaving <= 10 && Date.now() < until; ) await sleep(100);
    const servedBefore = outcomes.served.leaving;
    const leavingClient = leaving.client({ accessToken: tokens.accessToken });
    const inFlight = ['/slow-connect-1.ics', '/slow-connect-2.ics'].map((path) => leavingClient.connectAccount('ical', { url: feeds.url(path) }));
    await sleep(300);

    const exited = leaving.kill('SIGTERM');
    await sleep(200);
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(leaving.port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve('accepted');
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    const slow = await Promise.all(inFlight);
    expect(await exited).toBe(0);
    const servedByStayingAfterExit = outcomes.served.staying;
    await sleep(500);
    stopLoad = true;
    await load;

    expect(refused).toBe('ECONNREFUSED');
    expect(slow.map((answer) => answer.response.status)).toEqual([201, 201]);
    expect(outcomes.failed).toEqual([]);
    expect(servedBefore).toBeGreaterThan(10);
    expect(outcomes.retried).toBeGreaterThan(0);
    expect(outcomes.served.staying).toBeGreaterThan(servedByStayingAfterExit);
    expect(leaving.logs.some((line) => line.includes('shutting down'))).toBe(true);
    expect((await client.getMe()).response.status).toBe(200);
  }, 60_000);
});
