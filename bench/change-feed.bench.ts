// The change feed (docs/change-feed.md) on each engine, against baselines of the same run: a full walk
// of GET /tasks/changes against a full GET /tasks walk; an empty poll against GET /me, one at a time
// and under load (bench/change-feed-poll.ts); and what recording a change adds to POST, PATCH and
// DELETE: the tasks service behind bare node:http with its change recorder against one that records
// nothing, on one database. docs/benchmarks.md#change-feed has the figures.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { Client } from 'undici';
import { compiledQuery } from '../src/platform/compiled-query.js';
import { createChangeCursors } from '../src/tasks/change-cursor.js';
import { createTaskChangeRecorder, type TaskChangeRecorder } from '../src/tasks/task-changes.js';
import { createTasksService, type TasksService } from '../src/tasks/tasks.service.js';
import { LOAD_SETUP, pollUnderLoad } from './change-feed-poll.js';
import { call, ENGINES, formatSpread, median, percentiles, register, seedTasks, serveApp, sum, urlOf, type Engine, type Figures } from './harness.js';

const TASKS = 10_000;
const PAGE = 100;
const WALKS = 5;
const POLLS = 500;
const WRITES = 300;
const WARM_UP = 20;

/**
 * The baseline of a write: the same service, but its recorder takes no number from the account row (a
 * unique one from memory, so stored rows stay valid), deletes without a tombstone and calls no listener;
 * creates still take their number in the cap's UPDATE, which they make anyway.
 */
function recordingNothing(): TaskChangeRecorder {
  let next = 1_000_000_000;
  return {
    takeNumbers: async (_trx, _accountId, count) => (next += count) - count,
    numbersInTaskUpdate: () => false,
    created: createTaskChangeRecorder().created,
    upserted: async () => undefined,
    deleted: async (trx, { accountId, taskId }) => (await deleteTask.run(trx, [taskId, accountId])) === 1,
    now: {
      takeNumbers: (_trx, _accountId, count) => (next += count) - count,
      upserted: () => undefined,
      deleted: (trx, { accountId, taskId }) => deleteTask.now.run(trx, [taskId, accountId]) === 1,
    },
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
    const id = req.url!.split('/')[2]!;
    const answer = async () => {
      const body = await readBody(req);
      if (req.method === 'POST') return (await tasks.create(accountId, body as { title: string })).body;
      if (req.method === 'PATCH') return tasks.update(accountId, id, body!);
      await tasks.remove(accountId, id);
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

type Write = 'POST' | 'PATCH' | 'DELETE';
type Writer = 'recorded' | 'baseline' | 'api';

async function benchEngine(engine: Engine) {
  const app = await serveApp(engine);
  const { config, db } = app;
  const api = new Client(app.url);
  const closers: (() => unknown)[] = [() => api.close(), app.close];
  try {
    // The walks: the feed and the list page by page in turn, after one walk to warm up.
    const reader = await register(api);
    await seedTasks(db, reader.accountId, TASKS);
    const walk = { changes: [] as number[], tasks: [] as number[], changesPages: [] as number[], tasksPages: [] as number[] };
    let endCursor = '';
    for (let round = 0; round <= WALKS; round++) {
      let changesCursor: string | undefined;
      let tasksCursor: string | null | undefined;
      const seen = { changes: 0, tasks: 0 };
      const times = { changes: 0, tasks: 0 };
      for (let more = true; more; ) {
        const changes = await call(api, 'GET', `/tasks/changes?limit=${PAGE}${changesCursor ? `&cursor=${changesCursor}` : ''}`, reader.token);
        const tasks = tasksCursor === null ? undefined : await call(api, 'GET', `/tasks?limit=${PAGE}${tasksCursor ? `&cursor=${tasksCursor}` : ''}`, reader.token);
        changesCursor = changes.body.nextCursor as string;
        more = changes.body.hasMore as boolean;
        seen.changes += (changes.body.changes as unknown[]).length;
        times.changes += changes.elapsedMs;
        if (round > 0) walk.changesPages.push(changes.elapsedMs);
        if (tasks) {
          tasksCursor = tasks.body.nextCursor as string | null;
          seen.tasks += (tasks.body.items as unknown[]).length;
          times.tasks += tasks.elapsedMs;
          if (round > 0) walk.tasksPages.push(tasks.elapsedMs);
        }
      }
      if (seen.changes !== TASKS || seen.tasks !== TASKS) throw new Error(`a walk saw ${seen.changes} changes and ${seen.tasks} tasks, not ${TASKS}`);
      endCursor = changesCursor!;
      if (round > 0) {
        walk.changes.push(times.changes);
        walk.tasks.push(times.tasks);
      }
    }

    // Polls with nothing new, in turn with GET /me, each with the cursor the one before answered, as an app does.
    const poll = { empty: [] as number[], me: [] as number[] };
    for (let i = 0; i < POLLS + WARM_UP; i++) {
      const empty = await call(api, 'GET', `/tasks/changes?cursor=${endCursor}`, reader.token);
      if ((empty.body.changes as unknown[]).length !== 0) throw new Error('an empty poll found changes');
      endCursor = empty.body.nextCursor as string;
      const me = await call(api, 'GET', '/me', reader.token);
      if (i >= WARM_UP) {
        poll.empty.push(empty.elapsedMs);
        poll.me.push(me.elapsedMs);
      }
    }

    // Writes: recorded against recording nothing, same service and database, by bare node:http; and the API's own.
    const cursors = createChangeCursors(randomBytes(32));
    const bareWriter = async (changes: TaskChangeRecorder) => {
      const tasks = createTasksService({ db, maxTasks: config.TASKS_MAX_PER_ACCOUNT, changes, cursors, tombstoneRetentionDays: config.TASK_TOMBSTONE_RETENTION_DAYS });
      const bare = await startBareWriter(tasks, (await register(api)).accountId);
      const client = new Client(urlOf(bare));
      closers.push(() => client.close(), () => bare.close());
      return { client, token: undefined };
    };
    const writers: Record<Writer, { client: Client; token: string | undefined }> = {
      recorded: await bareWriter(createTaskChangeRecorder()),
      baseline: await bareWriter(recordingNothing()),
      api: { client: api, token: (await register(api)).token },
    };
    const samples = Object.fromEntries((['POST', 'PATCH', 'DELETE'] as const).map((op) => [op, { recorded: [] as number[], baseline: [] as number[], api: [] as number[] }])) as Record<Write, Record<Writer, number[]>>;
    for (let i = 0; i < WRITES + WARM_UP; i++) {
      // The order reversed every other round, so a busy moment of the shared machine falls on each alike.
      const order = (['recorded', 'baseline', 'api'] as const).slice();
      if (i % 2) order.reverse();
      for (const name of order) {
        const { client, token } = writers[name];
        const created = await call(client, 'POST', '/tasks', token, { title: `write ${i}`, labels: ['bench'] });
        const path = `/tasks/${created.body.id as string}`;
        const patched = await call(client, 'PATCH', path, token, { status: 'completed', priority: 1 });
        const deleted = await call(client, 'DELETE', path, token);
        if (i < WARM_UP) continue;
        samples.POST[name].push(created.elapsedMs);
        samples.PATCH[name].push(patched.elapsedMs);
        samples.DELETE[name].push(deleted.elapsedMs);
      }
    }
    const writes = (op: Write) => ({ recorded: percentiles(samples[op].recorded), baseline: percentiles(samples[op].baseline), api: percentiles(samples[op].api) });
    return {
      walk: { changes: walk.changes, tasks: walk.tasks, changesPage: percentiles(walk.changesPages), tasksPage: percentiles(walk.tasksPages) },
      poll: { empty: percentiles(poll.empty), me: percentiles(poll.me) },
      writes: { POST: writes('POST'), PATCH: writes('PATCH'), DELETE: writes('DELETE') },
    };
  } finally {
    for (const close of closers) await close();
  }
}

const ms = (value: number) => `${value.toFixed(2)} ms`;
const pair = (figures: Figures) => `${ms(figures.p50)} / ${ms(figures.p99)}`;

const lines = [
  `Change feed: ${TASKS} tasks, pages of ${PAGE}; ${WALKS} walks of each kind page by page in turn; ${POLLS} empty polls in turn with GET /me;`,
  `${WRITES} rounds of POST + PATCH + DELETE, recorded vs recording nothing (bare node:http, same service and database) and through the API. p50 / p99.`,
];
for (const engine of ENGINES) {
  const { walk, poll, writes } = await benchEngine(engine);
  const underLoad = await pollUnderLoad(engine);
  const [walkChanges, walkTasks] = [median(walk.changes), median(walk.tasks)];
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
process.stdout.write(`${lines.join('\n')}\n`);
process.exit(0);
