import { describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, ownRedisKeys, sleep } from '../support/limits.js';
import { PASSWORD, startServer, uniqueEmail, type TestServer, dataOf } from '../support/server.js';

const GENERIC = 'Rate limit exceeded. Slow down and retry later.';
const signInEnv = { RATE_LIMIT_STRICT_BURST_PER_MINUTE: '3', RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR: '100', RATE_LIMIT_BURST_PER_MINUTE: '50' };

const stores: [string, Record<string, string>][] = [
  ['in-process store', {}],
  ['Redis store', ownRedisKeys()],
];

const register = (server: TestServer, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email: uniqueEmail(), password: PASSWORD }),
  });

// Each store's test waits for the end of a UTC minute, so the two run side by side.
describe.concurrent('the strict sign-in budget', () => {
  it.for(stores)(
    'with the %s: counts each sign-in endpoint apart per client IP, and Retry-After is exact at the end of the window',
    { timeout: 120_000 },
    async ([, storeEnv]) => {
      const server = await startServer({ env: { ...signInEnv, ...storeEnv } });
      try {
        await awayFromMinuteEnd(20);
        const anonymous = server.client();
        const email = uniqueEmail();
        const registered = [await anonymous.registerAccount({ email, password: PASSWORD })];
        for (let i = 0; i < 2; i++) registered.push(await anonymous.registerAccount({ email: uniqueEmail(), password: PASSWORD }));
        expect(registered.map((answer) => [answer.response.status, limitHeaders(answer.response).remaining])).toEqual([
          [201, 2],
          [201, 1],
          [201, 0],
        ]);
        // Every response carries the description's seven headers; sign-in has no client fence, so the
        // client pair repeats the strict budget.
        expect(limitHeaders(registered[2]!.response)).toMatchObject({ limit: 3, 'limit-sustained': 100, 'remaining-sustained': 97, 'limit-client': 3, 'remaining-client': 0 });

        const before = Date.now();
        const fourth = await anonymous.registerAccount({ email: uniqueEmail(), password: PASSWORD });
        const after = Date.now();
        expect(fourth.response.status).toBe(429);
        expect(fourth.error?.body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', message: GENERIC, window: 'strict-burst' });
        const retryAfter = fourth.error!.retryAfterSeconds!;
        expect(fourth.error?.body?.retryAfterSeconds).toBe(retryAfter);
        const windowEnd = Math.ceil(after / 60_000) * 60_000;
        expect(retryAfter).toBeGreaterThanOrEqual(Math.ceil((windowEnd - after) / 1000));
        expect(retryAfter).toBeLessThanOrEqual(Math.ceil((windowEnd - before) / 1000));

        // A forged X-Forwarded-For does not buy a fresh budget.
        expect((await register(server, { 'x-forwarded-for': '198.51.100.77' })).status).toBe(429);

        const logins = [];
        for (let i = 0; i < 4; i++) logins.push((await anonymous.login({ email, password: PASSWORD })).response.status);
        expect(logins).toEqual([200, 200, 200, 429]);

        const tokenAnswers = [];
        for (let i = 0; i < 4; i++) {
          const response = await fetch(`${server.baseUrl}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: 'grant_type=refresh_token&refresh_token=unknown&client_id=taskctl',
          });
          tokenAnswers.push(response.status);
          if (response.status === 429) expect(await response.json()).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', window: 'strict-burst' });
        }
        expect(tokenAnswers.slice(0, 3)).not.toContain(429);
        expect(tokenAnswers[3]).toBe(429);

        // Refresh has its own budget, and sign-in never touched the account budget.
        const refreshed = await anonymous.refreshTokens({ refreshToken: dataOf(registered[0]!).refreshToken });
        expect(refreshed.response.status).toBe(200);
        const me = await server.client({ accessToken: dataOf(refreshed).accessToken }).getMe();
        expect(me.response.status).toBe(200);
        expect(limitHeaders(me.response)).toMatchObject({ limit: 50, remaining: 49 });

        // Just before Retry-After runs out the budget is still spent; once it has, sign-in is served again.
        const stillLimitedAt = before + (retryAfter - 1) * 1000 - 500;
        if (stillLimitedAt > Date.now()) {
          await sleep(stillLimitedAt - Date.now());
          expect((await register(server)).status).toBe(429);
        }
        await sleep(after + retryAfter * 1000 + 50 - Date.now());
        const again = await register(server);
        expect(again.status).toBe(201);
        expect(limitHeaders(again)).toMatchObject({ limit: 3, remaining: 2 });
        expect(server.logs.filter((line) => line.includes('Redis unreachable'))).toEqual([]);
      } finally {
        await server.stop();
      }
    },
  );
});
