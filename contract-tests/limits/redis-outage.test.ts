import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, sleep } from '../support/limits.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

/** A redis-server of this test's own, on its own port, so it can be stopped and started again. */
class OwnRedis {
  private child: ChildProcess | undefined;
  constructor(readonly port: number) {}

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }

  signal(signal: NodeJS.Signals): void {
    process.kill(this.child!.pid!, signal);
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid!, 'SIGKILL');
    await exited;
  }
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** Roomy windows: a quiet machine sends well over 5,000 requests in this test's first minute. */
const BURST = 1_000_000;
let redis: OwnRedis;
let server: TestServer;
beforeAll(async () => {
  redis = new OwnRedis(await freePort());
  await redis.start();
  server = await startServer({
    env: {
      REDIS_URL: `redis://127.0.0.1:${redis.port}`,
      RATE_LIMIT_BURST_PER_MINUTE: String(BURST),
      RATE_LIMIT_CLIENT_BURST_PER_MINUTE: String(BURST),
      RATE_LIMIT_SUSTAINED_PER_HOUR: String(BURST),
      RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: String(BURST),
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await redis?.stop();
});

const readiness = async () => (await fetch(`${server.baseUrl}/readyz`)).json();
const outageLogLines = () => server.logs.filter((line) => line.includes('Redis unreachable')).length;

/** Sends batches of parallel requests for `ms`, calling `during` part-way; returns every status and the slowest answer. */
async function traffic(send: () => Promise<Response>, ms: number, during?: () => void) {
  const statuses: number[] = [];
  let slowest = 0;
  const end = Date.now() + ms;
  if (during) setTimeout(during, ms / 3);
  while (Date.now() < end) {
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const started = Date.now();
        statuses.push((await send()).status);
        slowest = Math.max(slowest, Date.now() - started);
      }),
    );
  }
  return { statuses, slowest };
}

describe('when Redis goes away', () => {
  it('keeps serving with per-process counts, never a 5xx or a hang, reports it, and goes back to Redis when it returns', async () => {
    const { client } = await signedInClient(server);
    const getMe = async () => (await client.getMe()).response;
    expect(await readiness()).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });

    // Redis hangs (stopped, connection open) for 5 s: the command timeout bounds every answer
    // well below that, where waiting for Redis would take the whole 5 s.
    redis.signal('SIGSTOP');
    const hung = await traffic(getMe, 5000);
    expect(new Set(hung.statuses)).toEqual(new Set([200]));
    expect(hung.slowest).toBeLessThan(3000);
    expect((await readiness()).checks.redis).toBe('down');
    redis.signal('SIGCONT');
    await getMe();
    await sleep(1100);
    await getMe();
    expect((await readiness()).checks.redis).toBe('up');

    // Redis dies mid-traffic, stopped by its PID. The traffic and the count read after it share a minute's window.
    await awayFromMinuteEnd(8);
    const died = await traffic(getMe, 1500, () => void redis.stop());
    expect(new Set(died.statuses)).toEqual(new Set([200]));
    expect(died.slowest).toBeLessThan(3000);
    expect(await readiness()).toEqual({ status: 'degraded', checks: { database: 'up', redis: 'down' } });
    const duringOutage = limitHeaders(await getMe());
    expect(duringOutage.remaining).toBeLessThan(BURST - 1);
    // One log line per outage, however many requests fell back.
    expect(outageLogLines()).toBe(2);

    // The same Redis comes back on the same port, empty: counting resumes there.
    await redis.start();
    for (let i = 0; i < 50 && (await readiness()).checks.redis !== 'up'; i++) await sleep(200);
    expect(await readiness()).toEqual({ status: 'ok', checks: { database: 'up', redis: 'up' } });
    const afterReturn = limitHeaders(await getMe());
    expect(afterReturn.remaining).toBe(BURST - 1);
    const inspector = createClient({ url: `redis://127.0.0.1:${redis.port}` });
    await inspector.connect();
    expect(await inspector.dbSize()).toBeGreaterThanOrEqual(4);
    inspector.destroy();
    expect(outageLogLines()).toBe(2);
  });
});
