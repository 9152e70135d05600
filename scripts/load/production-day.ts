// A day in production, compressed: N instances of the built server on one PostgreSQL database and one
// Redis (each behind a TCP fault proxy), or with `--engine sqlite` one instance on a fresh SQLite file
// with in-process counters (the embedded default); every kind of client at once, faults on a schedule
// (those that exist on the engine), and the invariants checked at the end.
// docs/production.md#a-day-in-production says how to read the report.
//
//   npm run production-day -- --minutes 10 [--engine postgres|sqlite] [--instances 2] [--report DIR] [--accounts 300] [--load 1]
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import knexFactory, { type Knex } from 'knex';
import { startFakeIcalFeeds } from '../../contract-tests/support/fakes/ical.fake.js';
import { startWebhookReceiver } from '../../contract-tests/support/fakes/webhook-receiver.fake.js';
import { attacker, mcpHost, oauthApp, openAccount, PUBLIC_URL, sleep, syncer, taskctlBursts, tokenScript, webUser, type World } from './actors.js';
import { createInstance, type Instance } from './instances.js';
import * as check from './invariants.js';
import { Ledger } from './ledger.js';
import { renderReport } from './report.js';
import { startTcpFaultProxy } from '../../src/test-support/tcp-fault-proxy.js';
import { Traffic } from './traffic.js';

const root = new URL('../../', import.meta.url).pathname;
const { values: args } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    /** postgres: PostgreSQL + Redis, several instances; sqlite: one instance on a SQLite file, in-process counters. */
    engine: { type: 'string', default: 'postgres' },
    instances: { type: 'string', default: '2' },
    accounts: { type: 'string' },
    /** Multiplies the number of actors of each kind (the population grows to hold them). */
    load: { type: 'string', default: '1' },
    report: { type: 'string', default: join(root, 'test-artifacts/production-day') },
    'no-build': { type: 'boolean', default: false },
    /** Also writes the verdicts where the test command's summary counts them (scripts/test-summary.mjs). */
    ci: { type: 'boolean', default: false },
  },
});
const durationMs = Number(args.minutes) * 60_000;
const engine = args.engine === 'sqlite' ? 'sqlite' : 'postgres';
if (args.engine !== engine) throw new Error(`--engine ${String(args.engine)}: postgres or sqlite`);
// SQLite is one process's database: its in-process counters and single writer serve one instance.
const instanceCount = engine === 'sqlite' ? 1 : Number(args.instances);
const load = Math.max(1, Number(args.load));
const population = Math.max(Number(args.accounts ?? (durationMs >= 300_000 ? 300 : 60)), Math.ceil(26 * load));
const POSTGRES = process.env.PRODUCTION_DAY_POSTGRES ?? 'postgres://postgres@127.0.0.1:5432';
const REDIS = { host: '127.0.0.1', port: 6379 };

const limits: check.Limits = {
  taskCap: 200,
  accountBurst: 300,
  clientBurst: 120,
  maxFailedLogins: 5,
  lockoutMinutes: 1,
  poolMax: 10,
  instances: instanceCount,
};
const settings: Record<string, string> = {
  NODE_ENV: 'production',
  HOST: '127.0.0.1',
  PUBLIC_URL,
  TRUST_PROXY: 'loopback',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'production-day-secret-0123456789-abcdefghijklmnop',
  CONNECTOR_SECRET_KEY: 'ab'.repeat(32),
  CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true',
  TASKS_MAX_PER_ACCOUNT: String(limits.taskCap),
  RATE_LIMIT_BURST_PER_MINUTE: String(limits.accountBurst),
  RATE_LIMIT_CLIENT_BURST_PER_MINUTE: String(limits.clientBurst),
  // Sign-up of the whole population comes from one address.
  RATE_LIMIT_STRICT_BURST_PER_MINUTE: '100000',
  RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR: '1000000',
  LOGIN_MAX_FAILED_ATTEMPTS: String(limits.maxFailedLogins),
  LOGIN_LOCKOUT_MINUTES: String(limits.lockoutMinutes),
  // Access tokens expire within the run, so every client refreshes.
  JWT_ACCESS_EXPIRES: '60',
  // A day of webhook retries in about two minutes.
  WEBHOOK_RETRY_SCALE: '0.002',
};

async function main(): Promise<void> {
  if (!args['no-build']) {
    const built = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
    if (built.status !== 0) throw new Error('npm run build failed');
  }
  const store = engine === 'sqlite' ? await sqliteStore() : await postgresStore();
  const { db } = store;
  const feeds = await startFakeIcalFeeds();
  const receiver = await startWebhookReceiver();
  const slowReceiver = await startWebhookReceiver({ delayMs: 3_000 });
  const env = { ...settings, ...store.env };
  const instances: Instance[] = [];
  for (let i = 0; i < instanceCount; i += 1) {
    const instance = await createInstance(i, root, env);
    await instance.start();
    instances.push(instance);
  }

  const ledger = new Ledger();
  const traffic = new Traffic(instances);
  let over = false;
  const world: World = { traffic, ledger, feeds, deadline: 0, over: () => over };
  const windows: check.FaultWindow[] = [];
  const samples: check.Sample[] = [];
  const generations = instances.map(() => 0);
  const pgConnections: number[] = [];

  try {
    process.stdout.write(`production day on ${store.name}: ${instanceCount} instance${instanceCount > 1 ? 's' : ''}, ${population} accounts, ${args.minutes} min\n`);
    const accounts: Awaited<ReturnType<typeof openAccount>>[] = [];
    const emails: string[] = [];
    for (let i = 0; i < population; i += 8) {
      const batch = Array.from({ length: Math.min(8, population - i) }, (_, k) => `person-${i + k}-${randomUUID().slice(0, 6)}@example.com`);
      emails.push(...batch);
      accounts.push(...(await Promise.all(batch.map((email) => openAccount(world, email)))));
    }
    const scaled = (n: number) => Math.round(n * load);
    const roles = { web: scaled(10), scripts: scaled(3), taskctl: scaled(2), oauth: scaled(3), mcp: scaled(2), sync: scaled(4) };
    let next = 0;
    const take = (n: number) => accounts.slice(next, (next += n));
    const web = take(roles.web);
    const scripts = take(roles.scripts + 1);
    const ctl = take(roles.taskctl);
    const apps = take(roles.oauth);
    const hosts = take(roles.mcp);
    const syncing = take(roles.sync);
    const [fullOfConnections] = take(1);
    const [attacked] = take(1);
    const attackedEmail = emails[accounts.indexOf(attacked!)]!;

    // Webhooks on four of the web accounts: fast, slow, failing with 500 for a while, gone (410).
    let flakyUntil = 0;
    const gone: { at: number | undefined; arrivals: number[] } = { at: undefined, arrivals: [] };
    receiver.answer('/flaky', () => (Date.now() < flakyUntil ? 500 : 200));
    receiver.answer('/gone', () => {
      gone.arrivals.push(Date.now());
      gone.at ??= Date.now();
      return 410;
    });
    const hooks = [
      { account: web[0]!, behaviour: 'fast', url: receiver.url('/fast'), path: '/fast' },
      { account: web[1]!, behaviour: 'slow', url: slowReceiver.url('/slow'), path: '/slow' },
      { account: web[2]!, behaviour: 'flaky', url: receiver.url('/flaky'), path: '/flaky' },
      { account: web[3]!, behaviour: 'gone', url: receiver.url('/gone'), path: '/gone' },
    ];
    for (const hook of hooks) {
      const made = await hook.account.client.createWebhook({ url: hook.url, events: ['task.created', 'task.updated', 'task.deleted'] });
      if (!made.data) throw new Error(`could not make the ${hook.behaviour} webhook: ${made.response.status} ${JSON.stringify(made.error)}`);
      const [account] = (await db('accounts').where({ id: hook.account.id }).select('task_change_seq')) as { task_change_seq: number | string }[];
      ledger.webhooks.push({ id: made.data.id, account: hook.account.id, path: hook.path, behaviour: hook.behaviour, changesBefore: Number(account?.task_change_seq ?? 0) });
    }
    // One account at the connection cap: five feeds, and a sixth refused.
    for (let i = 0; i < 6; i += 1) {
      feeds.setFeed(`/cap-${i}`, []);
      await fullOfConnections!.client.connectAccount('ical', { url: feeds.url(`/cap-${i}`) } as never);
    }

    const start = Date.now();
    const storeWritesAtStart = store.writes();
    const generatorCpuAtStart = process.cpuUsage();
    /** Each instance process's CPU seconds at its first and latest sample of the run (sign-ups and start-up excluded). */
    const cpuSeconds = new Map<string, { first: number; last: number }>();
    world.deadline = start + durationMs;
    flakyUntil = start + Math.min(60_000, durationMs / 3);
    const sampler = setInterval(() => {
      for (const instance of instances) {
        const pid = instance.pid();
        if (!instance.up || !pid) continue;
        try {
          const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
          samples.push({ t: Date.now(), instance: instance.index, rssMb: rss, generation: generations[instance.index]! });
          // utime + stime of /proc/<pid>/stat, in clock ticks (100 a second).
          const stat = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
          const used = (Number(stat[11]) + Number(stat[12])) / 100;
          const key = `${instance.index}.${generations[instance.index]!}`;
          cpuSeconds.set(key, { first: cpuSeconds.get(key)?.first ?? used, last: used });
        } catch {
          // The process went away between the two reads.
        }
      }
      void store
        .connections()
        .then((n) => n !== undefined && pgConnections.push(n))
        .catch(() => undefined);
    }, 2_000);

    const actors: Promise<void>[] = [
      ...web.map((a, i) => webUser(world, a.id, a.client, `web-${i}`)),
      // A second device of the first two people: their edits meet on the same tasks.
      ...web.slice(0, 2).map(async (a, i) => {
        const second = await openAccount(world, emails[accounts.indexOf(a)]!);
        return webUser(world, a.id, second.client, `web-${i}-second-device`);
      }),
      ...scripts.map((a, i) => tokenScript(world, a.client, a.id, `script-${i}`, i === 0)),
      ...ctl.map((a) => taskctlBursts(world, a.client, a.id)),
      ...apps.map((a, i) => oauthApp(world, emails[accounts.indexOf(a)]!, a.id, `app-${i}`)),
      ...hosts.map((a, i) => mcpHost(world, emails[accounts.indexOf(a)]!, a.id, `mcp-host-${i}`)),
      // Two of the syncing accounts are pushed over the cap by their feeds.
      ...syncing.map((a, i) => syncer(world, a.client, a.id, `/feed-${i}`, i < 2 ? limits.taskCap + 20 : 30)),
      attacker(world, attackedEmail),
    ].map((actor) => actor.catch((err: unknown) => void process.stderr.write(`actor failed: ${err instanceof Error ? err.message : String(err)}\n`)));

    const fault = async (at: number, kind: string, begin: () => Promise<void> | void, end: () => Promise<void> | void, lengthMs: number) => {
      await sleep(Math.max(0, start + at - Date.now()));
      if (over) return;
      const window: check.FaultWindow = { kind, start: Date.now(), end: Date.now() };
      windows.push(window);
      await begin();
      await sleep(lengthMs);
      await end();
      window.end = Date.now();
      process.stdout.write(`fault: ${kind} for ${((window.end - window.start) / 1000).toFixed(1)} s\n`);
    };
    const victim = instances[0]!;
    const faults = Promise.all([
      fault(durationMs * 0.2, 'instance killed', () => victim.kill9(), async () => {
        generations[victim.index]! += 1;
        await victim.start();
      }, 3_000),
      // The stores' faults: PostgreSQL and Redis behind their proxies; a SQLite file has no connection to cut.
      ...store.faults.map(({ at, kind, cut, restore }) => fault(durationMs * at, kind, cut, restore, 4_000)),
      fault(durationMs * 0.75, 'receiver silent', () => receiver.answer('/fast', () => 'hang'), () => receiver.answer('/fast', () => 200), 8_000),
    ]);

    await sleep(durationMs);
    over = true;
    await faults;
    await Promise.race([Promise.all(actors), sleep(60_000)]);
    const end = Date.now();
    clearInterval(sampler);
    const answered = traffic.exchanges.filter((e) => e.status > 0).length;
    const seconds = (end - start) / 1000;
    const sizing = {
      requestsPerSecond: answered / seconds,
      perInstance: answered / seconds / instanceCount,
      instanceCores: [...cpuSeconds.values()].reduce((sum, cpu) => sum + cpu.last - cpu.first, 0) / seconds,
      /** This process: the clients, the fakes and the proxies. */
      generatorCores: ((used) => (used.user + used.system) / 1e6 / seconds)(process.cpuUsage(generatorCpuAtStart)),
      postgresRoundTripsPerRequest: (store.writes().pg - storeWritesAtStart.pg) / answered,
      redisRoundTripsPerRequest: (store.writes().redis - storeWritesAtStart.redis) / answered,
    };

    // Let the retries finish: nothing pending for an enabled webhook, or two minutes.
    for (let waited = 0; waited < 120_000; waited += 2_000) {
      const [pending] = (await db('webhook_deliveries')
        .join('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
        .where({ 'webhook_deliveries.status': 'pending', 'webhooks.enabled': true })
        .count({ n: '*' })) as { n: string }[];
      if (Number(pending?.n ?? 0) === 0) break;
      await sleep(2_000);
    }
    for (const mirror of ledger.mirrors) await mirror.catchUp?.();

    const [kept] = (await db('connector_accounts').where({ account_id: fullOfConnections!.id }).count({ n: '*' })) as { n: string }[];
    const connectionsKept = Number(kept?.n ?? 0);
    const verdicts: check.Verdict[] = [
      check.serverErrors(traffic.exchanges, windows),
      ...(await check.taskCounts(db, ledger, limits)),
      { name: 'connection cap held (5 of a type)', held: connectionsKept === 5, evidence: `${connectionsKept} iCalendar connections kept of 6 attempted` },
      check.budgets(traffic.exchanges, windows, limits, engine === 'sqlite'),
      check.lockout(ledger, limits),
      ...(await check.webhookDeliveries(db, ledger, [...receiver.received, ...slowReceiver.received], gone)),
      await check.feedMirrors(db, ledger),
      check.lostUpdates(ledger),
      check.memoryFlat(samples, start + durationMs * 0.3, durationMs * 0.3),
      ...(engine === 'postgres' ? [check.connections(pgConnections, limits)] : []),
    ];
    if (engine === 'sqlite') {
      // The file's own checks once the instance has stopped as in production (SIGTERM) and nothing else holds it.
      await db.destroy();
      await Promise.all(instances.map((instance) => instance.stop()));
      verdicts.push(...check.sqliteFile(store.filename!));
    }
    const memory = instances.flatMap((instance) =>
      Array.from({ length: generations[instance.index]! + 1 }, (_, generation) => ({
        name: `instance ${instance.index}${generation ? ` (restart ${generation})` : ''}`,
        points: samples.filter((s) => s.instance === instance.index && s.generation === generation).map((s): [number, number] => [(s.t - start) / 1000, s.rssMb]),
      })),
    );
    mkdirSync(args.report, { recursive: true });
    const title = `A day in production on ${store.name}: ${instanceCount} instance${instanceCount > 1 ? 's' : ''}, ${population} accounts, load x${load}, ${args.minutes} min`;
    writeFileSync(join(args.report, 'report.html'), renderReport({ title, start, end, exchanges: traffic.exchanges, windows, verdicts, settings: { ...settings, instances: instanceCount, accounts: population, load }, memory }));
    const byOp = new Map<string, Map<number, number>>();
    for (const e of traffic.exchanges) {
      const statuses = byOp.get(e.op) ?? new Map<number, number>();
      statuses.set(e.status, (statuses.get(e.status) ?? 0) + 1);
      byOp.set(e.op, statuses);
    }
    writeFileSync(join(args.report, 'statuses.json'), JSON.stringify(Object.fromEntries([...byOp].map(([op, statuses]) => [op, Object.fromEntries(statuses)])), null, 1));
    writeFileSync(join(args.report, 'server-errors.log'), instances.flatMap((i) => i.errors.map((e) => `${new Date(e.at).toISOString()} instance ${i.index}: ${e.line}`)).join('\n'));
    writeFileSync(join(args.report, 'verdicts.json'), JSON.stringify({ title, engine, verdicts, windows, requests: traffic.exchanges.length, seconds, sizing }, null, 2));
    for (const verdict of verdicts) process.stdout.write(`${verdict.held ? 'held  ' : 'BROKEN'} ${verdict.name}: ${verdict.evidence}\n`);
    process.stdout.write(`${traffic.exchanges.length} requests in ${seconds.toFixed(0)} s; report: ${join(args.report, 'report.html')}\n`);
    process.stdout.write(
      `sizing (${store.name}): ${sizing.requestsPerSecond.toFixed(0)} answers/s (${sizing.perInstance.toFixed(0)} per instance), the instances using ${sizing.instanceCores.toFixed(2)} cores, the load generator ${sizing.generatorCores.toFixed(2)}` +
        (engine === 'postgres'
          ? `; per request ${sizing.postgresRoundTripsPerRequest.toFixed(2)} PostgreSQL and ${sizing.redisRoundTripsPerRequest.toFixed(2)} Redis round trips (background work included)\n`
          : `; ${((sizing.instanceCores / sizing.requestsPerSecond) * 1000).toFixed(2)} ms of instance CPU per answer\n`),
    );
    const broken = verdicts.filter((v) => !v.held).length;
    if (args.ci) {
      mkdirSync(join(root, '.test-results'), { recursive: true });
      writeFileSync(join(root, `.test-results/production-day-${engine}.json`), JSON.stringify({ passed: verdicts.length - broken, failed: broken }));
    }
    process.exitCode = broken > 0 ? 1 : 0;
  } finally {
    over = true;
    await Promise.all(instances.map((instance) => instance.stop()));
    await Promise.all([feeds.close(), receiver.close(), slowReceiver.close()]);
    await store.close();
  }
}

interface Store {
  name: string;
  /** The instances' settings of the store. */
  env: Record<string, string>;
  /** What the checks read: the database itself, not through a proxy. */
  db: Knex;
  /** SQLite's file. */
  filename?: string;
  faults: { at: number; kind: string; cut: () => void; restore: () => void }[];
  /** Round trips written to each store so far (SQLite: none over a network). */
  writes: () => { pg: number; redis: number };
  /** PostgreSQL connections open now to the run's database. */
  connections: () => Promise<number | undefined>;
  close: () => Promise<void>;
}

/** A new PostgreSQL database and Redis, each behind a TCP fault proxy. */
async function postgresStore(): Promise<Store> {
  const admin = knexFactory({ client: 'pg', connection: `${POSTGRES}/postgres`, pool: { min: 0, max: 1 } });
  const database = `task_service_day_${randomUUID().replaceAll('-', '')}`;
  await admin.raw(`create database ${database}`);
  const db: Knex = knexFactory({ client: 'pg', connection: `${POSTGRES}/${database}`, pool: { min: 0, max: 1 } });
  const pgProxy = await startTcpFaultProxy({ host: '127.0.0.1', port: 5432 });
  const redisProxy = await startTcpFaultProxy(REDIS);
  return {
    name: 'PostgreSQL + Redis',
    env: { DATABASE_URL: `postgres://postgres@127.0.0.1:${pgProxy.port}/${database}`, REDIS_URL: `redis://127.0.0.1:${redisProxy.port}`, REDIS_KEY_PREFIX: `day-${randomUUID()}:` },
    db,
    faults: [
      { at: 0.4, kind: 'postgres down', cut: pgProxy.cut, restore: pgProxy.restore },
      { at: 0.6, kind: 'redis down', cut: redisProxy.cut, restore: redisProxy.restore },
    ],
    writes: () => ({ pg: pgProxy.writes(), redis: redisProxy.writes() }),
    connections: async () =>
      ((await db.raw('select count(*)::int as n from pg_stat_activity where datname = ? and pid <> pg_backend_pid()', [database])) as { rows: { n: number }[] }).rows[0]!.n,
    close: async () => {
      await Promise.all([pgProxy.close(), redisProxy.close()]);
      await db.destroy();
      await admin.raw(`drop database if exists ${database} with (force)`);
      await admin.destroy();
    },
  };
}

/** A fresh SQLite file in a directory of its own; the instance's limiter counts in its own memory. */
async function sqliteStore(): Promise<Store> {
  const directory = mkdtempSync(join(tmpdir(), 'production-day-'));
  const filename = join(directory, 'task-service.sqlite');
  const db: Knex = knexFactory({ client: 'better-sqlite3', connection: { filename }, useNullAsDefault: true, pool: { min: 0, max: 1 } });
  return {
    name: 'SQLite',
    env: { DATABASE_URL: `sqlite:${filename}` },
    db,
    filename,
    faults: [],
    writes: () => ({ pg: 0, redis: 0 }),
    connections: async () => undefined,
    close: async () => {
      await db.destroy();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

main().catch((err: unknown) => {
  process.stderr.write(`production day failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
