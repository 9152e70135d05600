import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, ownRedisKeys } from '../support/limits.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

const BURST = 20;
let first: TestServer;
let second: TestServer;

beforeAll(async () => {
  const env = {
    ...ownRedisKeys(),
    RATE_LIMIT_BURST_PER_MINUTE: String(BURST),
    RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '1000',
    RATE_LIMIT_STRICT_BURST_PER_MINUTE: '1000',
  };
  first = await startServer({ env });
  second = await startServer({ env, database: first.database });
});
afterAll(async () => {
  await second?.stop();
  await first?.stop();
});

describe('two server processes sharing one Redis', () => {
  it('serve exactly the burst limit of an account between them under parallel requests, none more', async () => {
    await awayFromMinuteEnd(15);
    const { tokens } = await signedInClient(first);
    const clients = [first, second].map((server) => server.client({ accessToken: tokens.accessToken }));
    const answers = await Promise.all(Array.from({ length: 3 * BURST }, (_, i) => clients[i % 2]!.getMe()));

    // Had either process fallen back to counting alone, the test would prove nothing.
    expect([...first.logs, ...second.logs].filter((line) => line.includes('Redis unreachable'))).toEqual([]);
    // Counted per process, each would have served BURST: 2 × BURST in all.
    const statuses = answers.map((answer) => answer.response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(BURST);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2 * BURST);
    const remaining = answers.filter((answer) => answer.response.status === 200).map((answer) => limitHeaders(answer.response).remaining);
    expect(remaining.sort((a, b) => a! - b!)).toEqual(Array.from({ length: BURST }, (_, i) => i));
  });
});
