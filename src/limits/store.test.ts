import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'redis';
import type { RedisClient } from '../platform/redis.js';
import { MemoryStore } from './memory.store.js';
import { RedisStore } from './redis.store.js';
import type { RateLimitStore, WindowCharge } from './store.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
// Keys of this run only, whoever else uses the Redis; they expire with their windows.
const PREFIX = `unit-test:${randomUUID()}:`;

let redis: RedisClient;
beforeAll(async () => {
  redis = createClient({ url: REDIS_URL });
  await redis.connect();
  await RedisStore.loadScript(redis);
});
afterAll(async () => {
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(keys);
  redis?.destroy();
});

const NOW = Date.UTC(2030, 0, 1, 12, 0, 30);
let unique = 0;
const windowsFor = (limits: number[], endsAt = NOW + 30_000): WindowCharge[] => {
  const id = `${process.pid}-${Date.now()}-${++unique}`;
  return limits.map((limit, i) => ({ key: `test:${id}:${i}`, limit, endsAt }));
};

const stores: [string, () => RateLimitStore][] = [
  ['in-process', () => new MemoryStore()],
  ['Redis', () => new RedisStore(redis, PREFIX)],
];

describe.each(stores)('the %s store', (_name, makeStore) => {
  it('serves while every window has budget and spends one unit in each', async () => {
    const store = makeStore();
    const windows = windowsFor([3, 5]);
    expect(await store.spend(windows, NOW)).toEqual({ allowed: true, counts: [1, 1] });
    expect(await store.spend(windows, NOW)).toEqual({ allowed: true, counts: [2, 2] });
    expect(await store.peek(windows, NOW)).toEqual([2, 2]);
  });

  it('rejects when any one window is exhausted, and the rejection spends nothing in the others', async () => {
    const store = makeStore();
    const [tight, roomy] = windowsFor([2, 100]) as [WindowCharge, WindowCharge];
    await store.spend([tight, roomy], NOW);
    await store.spend([tight, roomy], NOW);
    for (let i = 0; i < 5; i++) expect(await store.spend([tight, roomy], NOW)).toEqual({ allowed: false, counts: [2, 2] });
    expect(await store.peek([roomy], NOW)).toEqual([2]);
    expect(await store.spend([roomy], NOW)).toEqual({ allowed: true, counts: [3] });
  });

  it('peeks at windows nobody spent as zero, and spends nothing by peeking', async () => {
    const store = makeStore();
    const windows = windowsFor([1, 1]);
    expect(await store.peek(windows, NOW)).toEqual([0, 0]);
    expect(await store.peek(windows, NOW)).toEqual([0, 0]);
    expect((await store.spend(windows, NOW)).allowed).toBe(true);
  });

  it('under 100 parallel requests with a limit of 10, serves exactly 10', async () => {
    const store = makeStore();
    const windows = windowsFor([10, 1000, 50, 1000]);
    const decisions = await Promise.all(Array.from({ length: 100 }, () => store.spend(windows, NOW)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(10);
    expect(await store.peek(windows, NOW)).toEqual([10, 10, 10, 10]);
  });
});

describe('the in-process store', () => {
  it('drops windows that have ended, so memory follows the subjects of the live windows only', async () => {
    const store = new MemoryStore();
    for (let i = 0; i < 1000; i++) await store.spend(windowsFor([5, 5], NOW + 30_000), NOW);
    expect(store.size).toBe(2000);
    await store.spend(windowsFor([5], NOW + 90_000), NOW + 30_000);
    expect(store.size).toBe(1);
  });
});

describe('the Redis store', () => {
  it('gives every window key a lifetime that ends shortly after its window', async () => {
    const store = new RedisStore(redis, PREFIX);
    const windows = windowsFor([5], NOW + 30_000);
    await store.spend(windows, NOW);
    const ttl = await redis.pTTL(`${PREFIX}${windows[0]!.key}`);
    expect(ttl).toBeGreaterThan(30_000);
    expect(ttl).toBeLessThanOrEqual(30_000 + 60_000);
  });

  it('still decides after Redis forgot the script (restart, SCRIPT FLUSH), by sending it again', async () => {
    const store = new RedisStore(redis, PREFIX);
    await redis.scriptFlush();
    const windows = windowsFor([1]);
    expect(await store.spend(windows, NOW)).toEqual({ allowed: true, counts: [1] });
    expect(await store.spend(windows, NOW)).toEqual({ allowed: false, counts: [1] });
  });
});
