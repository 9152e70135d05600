import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, ownRedisKeys } from '../support/limits.js';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

const GENERIC = 'Rate limit exceeded. Slow down and retry later.';
const CLIENT = 'This client is sending too many requests. Slow down and retry later.';

/** Small budgets so each one runs out within a test. */
const budgetEnv = {
  RATE_LIMIT_BURST_PER_MINUTE: '10',
  RATE_LIMIT_SUSTAINED_PER_HOUR: '1000',
  RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '4',
  RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '1000',
  RATE_LIMIT_REFRESH_BURST_PER_MINUTE: '3',
};

const stores: [string, Record<string, string>][] = [
  ['in-process store', {}],
  ['Redis store', ownRedisKeys()],
];

describe.each(stores)('rate limits with the %s', (_store, storeEnv) => {
  let budgets: TestServer;
  beforeAll(async () => {
    budgets = await startServer({ env: { ...budgetEnv, ...storeEnv } });
  });
  afterAll(async () => {
    await budgets?.stop();
  });
  // A Redis too slow to answer in time would have been replaced by per-process counts: then the
  // figures below prove nothing about Redis, so say so rather than fail on a count.
  afterEach(() => {
    expect(budgets.logs.filter((line) => line.includes('Redis unreachable'))).toEqual([]);
  });

  /** A fresh account: its web client, and one API-token client per name. */
  async function account(server: TestServer, tokenNames: string[] = []) {
    const web = await signedInClient(server);
    const tokens = [];
    for (const name of tokenNames) {
      const created = await web.client.createApiToken({ name });
      if (created.error) throw created.error;
      tokens.push(server.client({ accessToken: created.data.token }));
    }
    return { ...web, tokens };
  }

  it('counts the account, sustained and client windows down on every authenticated answer', async () => {
    await awayFromMinuteEnd();
    const { client } = await account(budgets);
    const seen = [];
    for (let i = 0; i < 3; i++) seen.push(limitHeaders((await client.getMe()).response));
    expect(seen.map((h) => [h.limit, h.remaining, h['limit-sustained'], h['remaining-sustained'], h['limit-client'], h['remaining-client']])).toEqual([
      [10, 9, 1000, 999, 4, 3],
      [10, 8, 1000, 998, 4, 2],
      [10, 7, 1000, 997, 4, 1],
    ]);
    for (const headers of seen) {
      const reset = headers.reset!;
      expect(reset).toBeGreaterThanOrEqual(1);
      expect(reset).toBeLessThanOrEqual(60);
      expect(headers['reset-client']).toBe(reset);
      expect(headers['reset-sustained']).toBeGreaterThanOrEqual(reset);
      expect(headers['reset-sustained']).toBeLessThanOrEqual(3600);
    }
  });

  it('GET /me/usage shows the account and client windows as they stand after this request', async () => {
    await awayFromMinuteEnd();
    const { client } = await account(budgets);
    await client.getMe();
    const usage = await client.getUsage();
    const headers = limitHeaders(usage.response);
    const { account: accountWindows, client: clientWindows } = dataOf(usage).rateLimits;
    const window = (w: { limit: number; remaining: number }) => [w.limit, w.remaining];
    expect([accountWindows.burst, accountWindows.sustained, clientWindows.burst, clientWindows.sustained].map(window)).toEqual([
      [10, 8],
      [1000, 998],
      [4, 2],
      [1000, 998],
    ]);
    // Read a moment after the headers were set: a second may have passed in between.
    expect(Math.abs(accountWindows.burst.resetSeconds - headers.reset!)).toBeLessThanOrEqual(1);
    expect(Math.abs(clientWindows.burst.resetSeconds - headers['reset-client']!)).toBeLessThanOrEqual(1);
    expect(Math.abs(accountWindows.sustained.resetSeconds - headers['reset-sustained']!)).toBeLessThanOrEqual(1);
    expect(headers).toMatchObject({ remaining: 8, 'remaining-client': 2 });
  });

  it('when one API token hammers its fence it gets the client message, and the account budget is left to the others', async () => {
    await awayFromMinuteEnd();
    const { client: web, tokens } = await account(budgets, ['runaway script']);
    const script = tokens[0]!;
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await script.getMe());
    expect(answers.map((answer) => answer.response.status)).toEqual([200, 200, 200, 200, 429, 429, 429, 429, 429, 429]);
    const rejected = answers[9]!;
    expect(rejected.error?.body).toMatchObject({ statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: CLIENT, window: 'client-burst' });
    expect(rejected.error?.isRateLimited).toBe(true);
    expect(rejected.error?.retryAfterSeconds).toBe(rejected.error?.body?.retryAfterSeconds);
    expect(limitHeaders(rejected.response)).toMatchObject({ 'remaining-client': 0, remaining: 10 - 1 - 4 });

    // One token created by the web client, four served to the script: the six rejections spent nothing.
    const fromWeb = await web.getMe();
    expect(fromWeb.response.status).toBe(200);
    expect(limitHeaders(fromWeb.response)).toMatchObject({ remaining: 10 - 1 - 4 - 1, 'remaining-client': 4 - 2 });
  });

  it('when the account budget is spent, every client of the account gets 429 on the account window with the generic message', async () => {
    await awayFromMinuteEnd();
    const { client: web, tokens } = await account(budgets, ['one', 'two']);
    for (const token of tokens) {
      for (let i = 0; i < 4; i++) expect((await token.getMe()).response.status).toBe(200);
    }
    for (const client of [web, ...tokens]) {
      const answer = await client.getMe();
      expect(answer.response.status).toBe(429);
      expect(answer.error?.body).toMatchObject({ message: GENERIC, window: 'account-burst' });
      expect(limitHeaders(answer.response)).toMatchObject({ remaining: 0 });
    }
    const other = await account(budgets);
    expect((await other.client.getMe()).response.status).toBe(200);
  });

  it('refreshing spends only the refresh budget of the account: it neither spends nor restores the account budget', async () => {
    await awayFromMinuteEnd();
    const { client, tokens: pair } = await signedInClient(budgets);
    expect(limitHeaders((await client.getMe()).response)).toMatchObject({ remaining: 9 });

    const anonymous = budgets.client();
    let refreshToken = pair.refreshToken;
    let accessToken = pair.accessToken;
    const refreshHeaders = [];
    for (let i = 0; i < 3; i++) {
      const refreshed = await anonymous.refreshTokens({ refreshToken });
      expect(refreshed.response.status).toBe(200);
      refreshHeaders.push(limitHeaders(refreshed.response));
      refreshToken = dataOf(refreshed).refreshToken;
      accessToken = dataOf(refreshed).accessToken;
    }
    // No client fence on refresh: its client headers repeat the refresh budget.
    expect(refreshHeaders.map((h) => [h.limit, h.remaining, h['limit-client'], h['remaining-client']])).toEqual([
      [3, 2, 3, 2],
      [3, 1, 3, 1],
      [3, 0, 3, 0],
    ]);
    const fourth = await anonymous.refreshTokens({ refreshToken });
    expect(fourth.response.status).toBe(429);
    expect(fourth.error?.body).toMatchObject({ message: GENERIC, window: 'refresh-burst' });

    const withNewToken = await budgets.client({ accessToken }).getMe();
    expect(limitHeaders(withNewToken.response)).toMatchObject({ remaining: 8, 'remaining-client': 2 });

    // Unknown tokens are counted by client IP, apart from this account's spent refresh budget.
    const unknown = await anonymous.refreshTokens({ refreshToken: 'no-such-refresh-token' });
    expect(unknown.error?.code).toBe('INVALID_REFRESH_TOKEN');
  });

  // Last on its server: it spends the anonymous budget of 127.0.0.1 for the rest of the minute.
  it('counts requests without valid credentials on the anonymous budget of the client IP', async () => {
    await awayFromMinuteEnd();
    const { client: signedIn } = await signedInClient(budgets);
    const statuses = [];
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${budgets.baseUrl}/openapi.json`);
      statuses.push([response.status, limitHeaders(response).remaining]);
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, (_, i) => [200, 9 - i]));
    const badToken = await budgets.client({ accessToken: 'not-a-valid-token' }).getMe();
    expect(badToken.response.status).toBe(429);
    expect(badToken.error?.body).toMatchObject({ message: GENERIC, window: 'anonymous-burst' });
    expect(limitHeaders(badToken.response)).toMatchObject({ 'limit-client': 10, 'remaining-client': 0 });
    const forged = await fetch(`${budgets.baseUrl}/openapi.json`, { headers: { 'x-forwarded-for': '198.51.100.78' } });
    expect(forged.status).toBe(429);
    expect((await signedIn.getMe()).response.status).toBe(200);
  });
});
