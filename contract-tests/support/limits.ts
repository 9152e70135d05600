// Shared by the tests that count rate-limit windows (limits-*, and the OAuth, SDK, CORS, MCP, CLI and
// operations tests with small budgets): Redis keys of their own, header reading, window timing.
import { randomUUID } from 'node:crypto';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Settings for a test server counting in the shared Redis under keys of its own: test files,
 * both database projects and anyone else's run can share the Redis without meeting (every test
 * server counts 127.0.0.1). Servers that must share windows get the same settings.
 */
export const ownRedisKeys = (): Record<string, string> => ({ REDIS_URL, REDIS_KEY_PREFIX: `test-${randomUUID()}:` });

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
