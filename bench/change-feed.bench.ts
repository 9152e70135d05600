// The change feed (docs/change-feed.md) on SQLite and PostgreSQL, everything measured against a baseline in
// the same run:
// - a full walk of GET /tasks/changes over 10,000 tasks (pages of 100) against a full GET /tasks walk;
// - an empty poll (GET /tasks/changes with the cursor of the end) against GET /me: one at a time (latency),
//   and under load (10 connections) against the service compiled as it ships, in a server process of
//   its own: the server's main-thread CPU per request and req/s, the two in turn in every round
//   (bench/change-feed-poll.ts);
// - what recording a change (the account's change counter, the tombstone) adds to POST, PATCH and
//   DELETE: the tasks service served by bare node:http with its change recorder against the same
//   service with a recorder that records nothing, side by side on one database; the difference is
//   also given as a share of the whole API request.
// Run alone: node --import tsx bench/change-feed.bench.ts
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Client } from 'undici';
import { compiledQuery } from '../src/platform/compiled-query.js';
import { isPostgres, type Db } from '../src/platform/db.js';
import { createDatabase, formatSpread, median, percentile, serveApp, sum, urlOf, type Engine } from './harness.js';
import { call, LOAD_SETUP, pollUnderLoad, register } from './change-feed-poll.js';
import { createChangeCursors } from '../src/tasks/change-cursor.js';
import { createTaskChangeRecorder, type TaskChangeRecorder } from '../src/tasks/task-changes.js';
import { createTasksService, type TasksService } from '../src/tasks/tasks.service.js';

const TASKS = 10_000;
const PAGE = 100;
const WALKS = 5;
const POLLS = 500;
const WRITES = 300;

interface Figures {
  p50: number;
  p99: number;
}

const percentiles = (samples: number[]): Figures => ({ p50: percentile(samples, 0.5), p99: percentile(samples, 0.99) });

/** 10,000 tasks stored straight in the database, each with its change number, as if created one by one. */
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
    change_seq: i + 1,
  }));
  await db.batchInsert('tasks', rows, 400);
  await db('accounts').where('id', accountId).update({ task_count: TASKS, task_change_seq: TASKS });
  if (isPostgres(db)) await db.raw('analyze tasks');
}

/**
 * The baseline of a write: the same service, but its recorder takes no number from the account row
 * (a unique number from memory, so the stored rows stay valid), deletes without a tombstone (a
 * compiled statement, as the recorded delete's are) and calls
 * no listener. Creates and deletes still take their number in the cap's UPDATE, which they make anyway;
 * a change's UPDATE touches the task alone (the recorded one takes its number from the account row in
 * the same statement on PostgreSQL).
 */
function recordingNothing(): TaskChangeRecorder {
  let next = 1_000_000_000;
  return {
    takeNumbers: async (_trx, _accountId, count) => {
      next += count;
      return next - count;
    },
    numbersInTaskUpdate: () => false,
    // A create as a recorder without a listener makes it: it takes its number in the cap's UPDATE anyway.
    created: createTaskChangeRecorder().created,
    upserted: async () => undefined,
    deleted: async (trx, { accountId, taskId }) => (await deleteTask.run(trx, [taskId, accountId])) === 1,
  };
}

/** The baseline's delete, compiled and prepared once as the recorded delete is (src/tasks/task-feed.repository.ts). */
const deleteTask = compiledQuery<[string, string], never>((db, $) => db('tasks').where('id', $(0)).andWhere('account_id', $(1)).delete());

/** POST /tasks, PATCH and DELETE /tasks/{id} for one account, by bare node:http: no routing, sign-in or validation. */
function startBareWriter(tasks: TasksService, accountId: string): Promise<Server> {
  const readBody = async (req: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    return chunks.length === 0 ? undefined : (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
  };
  const server = createServer((req, res) => {
    const id = req.url!.split('/')[2];
    const answer = async () => {
      const body = await readBody(req);
      if (req.method === 'POST') return (await tasks.create(accountId, body as { title: string })).body;
      if (req.method === 'PATCH') return tasks.update(accountId, id!, body!);
      await tasks.remove(accountId, id!);
      return undefined;
    };
    answer().then((result) => {
      const text = result === undefined ? '' : JSON.stringify(result);
      res.writeHead(result === undefined ? 204 : 200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    }, (error: unknown) => res.destroy(error as Error));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface EngineFigures {
  walk: { changes: number[]; tasks: number[]; changesPage: Figures; tasksPage: Figures };
  poll: { empty: Figures; me: Figures };
  writes: Record<'POST' | 'PATCH' | 'DELETE', { recorded: Figures; baseline: Figures; api: Figures }>;
}

async function benchEngine(engine: Engine): Promise<EngineFigures> {
  const database = await createDatabase(engine);
  const { config, db, components, server } = await serveApp(database.url);
  const api = new Client(urlOf(server));
  const bareServers: Server[] = [];
  const bareClients: Client[] = [];
  try {
    // The walks: 10,000 tasks, the feed and the list page by page in turn.
    const reader = await register(api);
    await seed(db, reader.accountId);
    const walk = { changes: [] as number[], tasks: [] as number[], changesPages: [] as number[], tasksPages: [] as number[] };
    let endCursor = '';
    for (let round = 0; round <= WALKS; round++) {
      let changesCursor: string | undefined;
      let tasksCursor: string | null | undefined;
      let seen = 0;
      let listed = 0;
      const times = { changes: 0, tasks: 0 };
      for (let more = true; more; ) {
        const changes = await call(api, 'GET', `/tasks/changes?limit=${PAGE}${changesCursor ? `&cursor=${changesCursor}` : ''}`, reader.token);
        const tasks = tasksCursor === null ? undefined : await call(api, 'GET', `/tasks?limit=${PAGE}${tasksCursor ? `&cursor=${tasksCursor}` : ''}`, reader.token);
        changesCursor = changes.body.nextCursor as string;
        more = changes.body.hasMore as boolean;
        seen += (changes.body.changes as unknown[]).length;
        times.changes += changes.elapsedMs;
        if (round > 0) walk.changesPages.push(changes.elapsedMs);
        if (tasks) {
          tasksCursor = tasks.body.nextCursor as string | null;
          listed += (tasks.body.items as unknown[]).length;
          times.tasks += tasks.elapsedMs;
          if (round > 0) walk.tasksPages.push(tasks.elapsedMs);
        }
      }
      if (seen !== TASKS || listed !== TASKS) throw new Error(`a walk saw ${seen} changes and ${listed} tasks, not ${TASKS}`);
      endCursor = changesCursor!;
      if (round > 0) {
        walk.changes.push(times.changes);
        walk.tasks.push(times.tasks);
      }
    }

    // Polls with nothing new, in turn with GET /me (both: sign-in, one indexed read). Each poll sends the
    // cursor the one before answered, as an app does.
    const poll = { empty: [] as number[], me: [] as number[] };
    for (let i = 0; i < POLLS + 20; i++) {
      const empty = await call(api, 'GET', `/tasks/changes?cursor=${endCursor}`, reader.token);
      if ((empty.body.changes as unknown[]).length !== 0) throw new Error('an empty poll found changes');
      endCursor = empty.body.nextCursor as string;
      const me = await call(api, 'GET', '/me', reader.token);
      if (i >= 20) {
        poll.empty.push(empty.elapsedMs);
        poll.me.push(me.elapsedMs);
      }
    }

    // Writes: recorded vs recording nothing, same service and database, by bare node:http; and the API's own.
    const writer = await register(api);
    const baselineAccount = await register(api);
    const cursors = createChangeCursors(randomBytes(32));
    const serviceWith = (changes: TaskChangeRecorder) =>
      createTasksService({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT, changes, cursors, tombstoneRetentionDays: config.TASK_TOMBSTONE_RETENTION_DAYS });
    const recordedServer = await startBareWriter(serviceWith(createTaskChangeRecorder()), writer.accountId);
    const baselineServer = await startBareWriter(serviceWith(recordingNothing()), baselineAccount.accountId);
    bareServers.push(recordedServer, baselineServer);
    const recordedClient = new Client(urlOf(recordedServer));
    const baselineClient = new Client(urlOf(baselineServer));
    bareClients.push(recordedClient, baselineClient);
    const apiWriter = await register(api);
    const samples = {
      POST: { recorded: [] as number[], baseline: [] as number[], api: [] as number[] },
      PATCH: { recorded: [] as number[], baseline: [] as number[], api: [] as number[] },
      DELETE: { recorded: [] as number[], baseline: [] as number[], api: [] as number[] },
    };
    const runs = [
      { name: 'recorded' as const, client: recordedClient, token: undefined },
      { name: 'baseline' as const, client: baselineClient, token: undefined },
      { name: 'api' as const, client: api, token: apiWriter.token },
    ];
    for (let i = 0; i < WRITES + 20; i++) {
      // A different order each round, so a busy moment of the shared machine falls on each alike.
      const order = i % 2 === 0 ? runs : [...runs].reverse();
      for (const run of order) {
        const created = await call(run.client, 'POST', '/tasks', run.token, { title: `write ${i}`, labels: ['bench'] });
        const id = created.body.id as string;
        const patched = await call(run.client, 'PATCH', `/tasks/${id}`, run.token, { status: 'completed', priority: 1 });
        const deleted = await call(run.client, 'DELETE', `/tasks/${id}`, run.token);
        if (i >= 20) {
          samples.POST[run.name].push(created.elapsedMs);
          samples.PATCH[run.name].push(patched.elapsedMs);
          samples.DELETE[run.name].push(deleted.elapsedMs);
        }
      }
    }
    const figuresOf = (op: keyof typeof samples) => ({
      recorded: percentiles(samples[op].recorded),
      baseline: percentiles(samples[op].baseline),
      api: percentiles(samples[op].api),
    });
    return {
      walk: { changes: walk.changes, tasks: walk.tasks, changesPage: percentiles(walk.changesPages), tasksPage: percentiles(walk.tasksPages) },
      poll: { empty: percentiles(poll.empty), me: percentiles(poll.me) },
      writes: { POST: figuresOf('POST'), PATCH: figuresOf('PATCH'), DELETE: figuresOf('DELETE') },
    };
  } finally {
    await Promise.all([api.close(), ...bareClients.map((client) => client.close())]);
    server.close();
    for (const bare of bareServers) bare.close();
    await components.stop();
    await db.destroy();
    await database.drop();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const pair = (figures: Figures) => `${ms(figures.p50)} / ${ms(figures.p99)}`;

async function report(): Promise<string> {
  const lines = [
    `Change feed: ${TASKS} tasks, pages of ${PAGE}; ${WALKS} walks of each kind page by page in turn; ${POLLS} empty polls in turn with GET /me;`,
    `${WRITES} rounds of POST + PATCH + DELETE, recorded vs recording nothing (bare node:http, same service and database) and through the API. p50 / p99.`,
  ];
  for (const engine of ['sqlite', 'postgres'] as const) {
    const figures = await benchEngine(engine);
    const underLoad = await pollUnderLoad(engine);
    const { walk, poll, writes } = figures;
    const walkChanges = median(walk.changes);
    const walkTasks = median(walk.tasks);
    lines.push(
      `${engine}:`,
      `  full walk (median of ${WALKS}): GET /tasks/changes ${walkChanges.toFixed(0)} ms, GET /tasks ${walkTasks.toFixed(0)} ms: ${(walkChanges / walkTasks).toFixed(2)}x` +
        ` (per page ${pair(walk.changesPage)} vs ${pair(walk.tasksPage)}; all walks ${sum(walk.changes).toFixed(0)} vs ${sum(walk.tasks).toFixed(0)} ms)`,
      `  empty poll ${pair(poll.empty)} vs GET /me ${pair(poll.me)}: ${(poll.empty.p50 / poll.me.p50).toFixed(2)}x at p50, ${(poll.empty.p99 / poll.me.p99).toFixed(2)}x at p99`,
      `  empty poll under load (${LOAD_SETUP}): server main-thread CPU ${underLoad.cpu.poll.toFixed(0)} µs per request` +
        ` vs GET /me ${underLoad.cpu.me.toFixed(0)} µs: ${formatSpread(underLoad.cpuRatio, 3)}x paired by round;` +
        ` ${underLoad.requestsPerSecond.poll.toFixed(0)} vs ${underLoad.requestsPerSecond.me.toFixed(0)} req/s`,
    );
    for (const op of ['POST', 'PATCH', 'DELETE'] as const) {
      const { recorded, baseline, api } = writes[op];
      const extra = recorded.p50 - baseline.p50;
      lines.push(
        `  ${op.padEnd(6)} recorded ${pair(recorded)}, recording nothing ${pair(baseline)}: +${ms(extra)} at p50 (${((recorded.p50 / baseline.p50 - 1) * 100).toFixed(1)}% of the bare request,` +
          ` ${((extra / api.p50) * 100).toFixed(1)}% of the API's ${ms(api.p50)})`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

process.stdout.write(await report());
process.exit(0);
