// Shared by the limits-*.test.ts files: Redis databases of their own, header reading, window timing.
import { createClient } from 'redis';

const REDIS_BASE_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A Redis database that only this test file of this project run uses (the sqlite and postgres
 * projects run at the same time, and every test server counts 127.0.0.1), emptied first.
 * Databases 10 to 15 belong to the limits contract tests; 9 to the limits unit tests.
 */
export async function ownRedisDatabase(firstOfPair: 10 | 12 | 14): Promise<{ url: string; flush: () => Promise<void> }> {
  const url = `${REDIS_BASE_URL}/${firstOfPair + (process.env.TEST_DATABASE === 'postgres' ? 1 : 0)}`;
  const flush = async () => {
    const client = createClient({ url });
    await client.connect();
    await client.flushDb();
    client.destroy();
  };
  await flush();
  return { url, flush };
}

/** The X-RateLimit-* and Retry-After headers as numbers (absent ones left out). */
export function limitHeaders(response: Response): Record<string, number> {
  const headers: Record<string, number> = {};
  for (const [name, value] of response.headers) {
    if (name.startsWith('x-ratelimit-') || name === 'retry-after') headers[name.replace(/^x-ratelimit-/, '')] = Number(value);
  }
  return headers;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits, when the UTC minute is about to end, for the next one: a test's requests then share one window. */
export async function awayFromMinuteEnd(secondsNeeded = 10): Promise<void> {
  const msLeft = 60_000 - (Date.now() % 60_000);
  if (msLeft < secondsNeeded * 1000) await sleep(msLeft + 100);
}
