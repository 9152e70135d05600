// Webhooks (docs/webhooks.md) on each engine, the real service in this process: deliveries per second
// of one instance's worker to a loopback receiver in a process of its own that answers 204 (target:
// 500/s), and POST /tasks of an account subscribed to task.created against one without, taking turns
// (target: at most 10% at p50). "Quiet" rounds with the webhook disabled, between the delivering ones,
// give the noise floor and what the deliveries cost every request. docs/benchmarks.md#webhooks.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Client } from 'undici';
import { loadConfig } from '../src/config.js';
import { call, ENGINES, envNumber, formatSpread, median, percentile, register, serveApp, spreadOf, startServerProcess, stopServer, type Engine, type Spread } from './harness.js';

const DELIVERIES = 5_000;
const ROUNDS = envNumber('BENCH_ROUNDS', 6);
const PAIRS_PER_ROUND = 250;
const WARMUP_PAIRS = 200;

/** The receiver's side: answers 204 at once, and tells the bench how many it got. */
function serveReceiver(): void {
  let received = 0;
  let told = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
  setInterval(() => {
    if (received !== told) process.send!({ received: (told = received) });
  }, 5);
  process.on('disconnect', () => process.exit(0));
}

/** A receiver in a process of its own, as a subscriber's server would be: its work is not the instance's. */
async function startReceiver() {
  const { child, ready } = await startServerProcess<{ port: number }>('the receiver', ['--import', 'tsx', fileURLToPath(import.meta.url), '--receiver'], { env: process.env });
  let received = 0;
  child.on('message', (message: { received?: number }) => (received = message.received ?? received));
  return { child, url: `http://127.0.0.1:${ready.port}/hook`, count: () => received };
}

async function until(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Writer {
  api: Client;
  token: string;
}

/**
 * `pairs` POST /tasks each, the two accounts taking turns; latencies in ms. Which goes first is drawn
 * for each pair: the worker looks 25 ms after a subscribed write (delivery-worker.ts), and a fixed
 * order would land its sends on one account's requests more than the other's.
 */
async function takeTurns(subscribed: Writer, plain: Writer, pairs: number) {
  const samples = { subscribed: [] as number[], plain: [] as number[] };
  for (let i = 0; i < pairs; i++) {
    const order: ['subscribed' | 'plain', Writer][] = [
      ['subscribed', subscribed],
      ['plain', plain],
    ];
    if (Math.random() < 0.5) order.reverse();
    for (const [name, writer] of order) samples[name].push((await call(writer.api, 'POST', '/tasks', writer.token, { title: `bench ${i}` })).elapsedMs);
  }
  return samples;
}

interface Rounds {
  /** Per round: p50 subscribed / p50 unsubscribed - 1. */
  cost: number[];
  subscribed: number[];
  plain: number[];
  /** Per round: this process's CPU time (server, worker and the bench's client) per POST /tasks, µs. */
  cpuPerWrite: number[];
}

async function bench(engine: Engine) {
  const { db, components, url: origin, close } = await serveApp(engine, { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', TASKS_MAX_PER_ACCOUNT: '100000' });
  const receiver = await startReceiver();
  const writer = async (): Promise<Writer> => {
    const api = new Client(origin);
    return { api, token: (await register(api)).token };
  };
  const subscribed = await writer();
  const plain = await writer();
  try {
    const hook = (await call(subscribed.api, 'POST', '/webhooks', subscribed.token, { url: receiver.url, events: ['task.created'] })).body;
    const setEnabled = (enabled: boolean) => call(subscribed.api, 'PATCH', `/webhooks/${String(hook.id)}`, subscribed.token, { enabled });

    // 1. Deliveries per second: the outbox filled while the worker is not running, then drained.
    const now = Date.now();
    const payload = JSON.stringify({ type: 'webhook.ping', timestamp: new Date(now).toISOString(), data: { webhookId: hook.id } });
    await db.batchInsert(
      'webhook_deliveries',
      Array.from({ length: DELIVERIES }, (_, i) => ({
        id: randomUUID(),
        webhook_id: hook.id,
        event_id: `msg_bench${i}`,
        event_type: 'webhook.ping',
        payload,
        status: 'pending',
        attempts: 0,
        created_at: now,
        next_attempt_at: now,
      })),
      500,
    );
    const started = performance.now();
    components.start();
    const succeeded = async () => Number((await db('webhook_deliveries').where('status', 'succeeded').count({ n: '*' }))[0]!.n);
    await until(async () => (await succeeded()) >= DELIVERIES, 'the queued deliveries');
    const drainSeconds = (performance.now() - started) / 1000;
    await until(() => receiver.count() >= DELIVERIES, 'the receiver to count every delivery', 5_000);

    // 2. POST /tasks, subscribed against not: delivering and quiet rounds taking turns.
    await takeTurns(subscribed, plain, WARMUP_PAIRS);
    await until(() => receiver.count() >= DELIVERIES + WARMUP_PAIRS, 'the warm-up events');
    const delivering: Rounds = { cost: [], subscribed: [], plain: [], cpuPerWrite: [] };
    const quiet: Rounds = { cost: [], subscribed: [], plain: [], cpuPerWrite: [] };
    let expected = DELIVERIES + WARMUP_PAIRS;
    for (let round = 0; round < ROUNDS * 2; round++) {
      // Delivering, quiet, quiet, delivering, ...: a drift over the run weighs on both alike.
      const deliveringRound = [true, false, false, true][round % 4]!;
      await setEnabled(deliveringRound);
      const cpuBefore = process.cpuUsage();
      const samples = await takeTurns(subscribed, plain, PAIRS_PER_ROUND);
      const cpu = process.cpuUsage(cpuBefore);
      const into = deliveringRound ? delivering : quiet;
      into.cost.push(median(samples.subscribed) / median(samples.plain) - 1);
      into.subscribed.push(...samples.subscribed);
      into.plain.push(...samples.plain);
      into.cpuPerWrite.push((cpu.user + cpu.system) / (2 * PAIRS_PER_ROUND));
      if (deliveringRound) expected += PAIRS_PER_ROUND;
      // Every event of the round delivered before the next round starts: a quiet round is quiet.
      await until(() => receiver.count() >= expected, `the events of round ${round}`);
    }
    if (receiver.count() !== expected) throw new Error(`the receiver got ${receiver.count()} deliveries, expected ${expected}`);
    const plainPerRound = (rounds: Rounds) => Array.from({ length: ROUNDS }, (_, i) => median(rounds.plain.slice(i * PAIRS_PER_ROUND, (i + 1) * PAIRS_PER_ROUND)));
    const quietPlain = plainPerRound(quiet);
    return {
      perSecond: DELIVERIES / drainSeconds,
      delivering,
      quiet,
      deliveriesCost: plainPerRound(delivering).map((p50, i) => p50 / quietPlain[i]! - 1),
      taskEventsDelivered: expected - DELIVERIES,
    };
  } finally {
    await Promise.all([subscribed.api.close(), plain.api.close()]);
    await stopServer(receiver.child);
    await close();
  }
}

const percent = (spread: Spread) => {
  const f = (value: number) => `${value >= 0 ? '+' : ''}${(value * 100).toFixed(1)}%`;
  return `${f(spread.median)} (${f(spread.min)} to ${f(spread.max)})`;
};
const latency = (samples: number[]) => `${median(samples).toFixed(2)} / ${percentile(samples, 0.9).toFixed(2)} ms`;

if (process.argv.includes('--receiver')) {
  serveReceiver();
} else {
  await main();
}

async function main() {
  const lines = [
    `Webhooks: ${DELIVERIES} queued deliveries drained by one instance (concurrency ${loadConfig({}).WEBHOOK_DELIVERY_CONCURRENCY}) to a loopback receiver (a process of its own);`,
    `then POST /tasks for an account subscribed to task.created and one without, taking turns: ${ROUNDS} rounds of ${PAIRS_PER_ROUND} pairs with deliveries,`,
    `${ROUNDS} quiet rounds between them (the webhook disabled). Costs are p50 ratios per round: median (range).`,
  ];
  for (const engine of ENGINES) {
    const figures = await bench(engine);
    lines.push(
      `  ${engine}: ${figures.perSecond.toFixed(0)} deliveries/s; ${figures.taskEventsDelivered} task events delivered during the writes`,
      `    subscribed vs unsubscribed, delivering:  ${percent(spreadOf(figures.delivering.cost))}   p50 / p90 ${latency(figures.delivering.subscribed)} vs ${latency(figures.delivering.plain)}`,
      `    the same, quiet (noise floor):           ${percent(spreadOf(figures.quiet.cost))}   p50 / p90 ${latency(figures.quiet.subscribed)} vs ${latency(figures.quiet.plain)}`,
      `    unsubscribed, delivering vs quiet:       ${percent(spreadOf(figures.deliveriesCost))}   (what the deliveries cost every request of the instance)`,
      `    CPU of this process per write, µs:       delivering ${formatSpread(spreadOf(figures.delivering.cpuPerWrite))}, quiet ${formatSpread(spreadOf(figures.quiet.cpuPerWrite))}`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n`);
  process.exit(0);
}
