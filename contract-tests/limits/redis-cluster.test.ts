import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, sleep } from '../support/limits.js';
import { TestRedisCluster } from '../support/redis-cluster.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

const BURST = 20;
let cluster: TestRedisCluster;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  cluster = await TestRedisCluster.start(3);
  const env = {
    REDIS_URL: cluster.url,
    REDIS_CLUSTER: 'true',
    REDIS_KEY_PREFIX: 'cluster-test:',
    RATE_LIMIT_BURST_PER_MINUTE: String(BURST),
    RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '1000',
  };
  first = await startServer({ env });
  second = await startServer({ env, database: first.database });
}, 90_000);
afterAll(async () => {
  await second?.stop();
  await first?.stop();
  await cluster?.stop();
});

const logsOf = (text: string) => [...first.logs, ...second.logs].filter((line) => line.includes(text));
const redisState = async (server: TestServer) => ((await (await fetch(`${server.baseUrl}/readyz`)).json()) as { checks: { redis: string } }).checks.redis;

/** Parallel getMe calls of one fresh account, alternating between the two servers: how many were served. */
async function admittedOfOneAccount(requests: number) {
  const { tokens } = await signedInClient(first);
  const clients = [first, second].map((server) => server.client({ accessToken: tokens.accessToken }));
  const answers = await Promise.all(Array.from({ length: requests }, (_, i) => clients[i % 2]!.getMe()));
  return answers.map((answer) => ({ status: answer.response.status, remaining: limitHeaders(answer.response).remaining }));
}

describe('two server processes counting in a three-master Redis Cluster', () => {
  it('serve exactly the burst limit of an account between them, and spread the accounts over the masters', async () => {
    await awayFromMinuteEnd(20);
    const answers = await admittedOfOneAccount(3 * BURST);
    expect(logsOf('Redis unreachable')).toEqual([]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(BURST);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(2 * BURST);
    const remaining = answers.filter((answer) => answer.status === 200).map((answer) => answer.remaining!);
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: BURST }, (_, i) => i));

    // More accounts: their keys land on different masters (each account's keys on one).
    for (let i = 0; i < 8; i++) await (await signedInClient(i % 2 ? first : second)).client.getMe();
    const keys = await cluster.keysPerNode();
    expect(keys.filter((count) => count > 0).length).toBeGreaterThanOrEqual(2);
  });

  it('keep serving with no 5xx when a master is killed mid-traffic, count per process meanwhile, and go back to the cluster once it returns', async () => {
    const accounts = await Promise.all(Array.from({ length: 6 }, (_, i) => signedInClient(i % 2 ? first : second)));
    const clients = accounts.flatMap(({ tokens }) => [first, second].map((server) => server.client({ accessToken: tokens.accessToken })));
    const statuses: number[] = [];
    let stopTraffic = false;
    const traffic = (async () => {
      let i = 0;
      while (!stopTraffic) {
        await Promise.all(Array.from({ length: 6 }, async () => statuses.push((await clients[i++ % clients.length]!.getMe()).response.status)));
      }
    })();

    await sleep(500);
    await cluster.killNode(1);
    await sleep(3_000);
    const duringOutage = await Promise.all([redisState(first), redisState(second)]);
    await cluster.startNode(1);
    await cluster.waitUntilOk();
    await sleep(2_500);
    stopTraffic = true;
    await traffic;

    expect(statuses.length).toBeGreaterThan(100);
    expect(statuses.filter((status) => status >= 500)).toEqual([]);
    expect(duringOutage).toContain('down');
    expect(logsOf('Redis unreachable').length).toBeGreaterThanOrEqual(2);
    // Both are back on the cluster: counting is shared again.
    for (const server of [first, second]) {
      for (let i = 0; i < 50 && (await redisState(server)) !== 'up'; i++) await sleep(100);
      expect(await redisState(server)).toBe('up');
    }
    expect(logsOf('Redis reachable again').length).toBeGreaterThanOrEqual(2);
    await awayFromMinuteEnd(20);
    const answers = await admittedOfOneAccount(2 * BURST);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(BURST);
  });
});
