import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd } from '../support/limits.js';
import { TASKCTL_REDIRECT, oauthTokens, refresh as oauthRefresh } from '../support/oauth.js';
import { PASSWORD, signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_REFRESH_BURST_PER_MINUTE: '12', REFRESH_REUSE_INTERVAL_SECONDS: '2' } });
});
afterAll(async () => {
  await server?.stop();
});

const refreshWith = (refreshToken: string) =>
  fetch(`${server.baseUrl}/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken }) });

const login = async (email: string) => {
  const answer = await server.client().login({ email, password: PASSWORD });
  if (answer.error) throw answer.error;
  return answer.data;
};

describe('the refresh reuse interval (REFRESH_REUSE_INTERVAL_SECONDS)', () => {
  it('parallel refreshes of one token all get working pairs of the same session, and every new refresh token works', async () => {
    await awayFromMinuteEnd(15);
    const { email } = await signedInClient(server);
    const { refreshToken } = await login(email);
    const answers = await Promise.all(Array.from({ length: 4 }, () => refreshWith(refreshToken)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const pairs = (await Promise.all(answers.map((answer) => answer.json()))) as { accessToken: string; refreshToken: string }[];
    expect(new Set(pairs.map((pair) => pair.refreshToken)).size).toBe(4);
    for (const pair of pairs) {
      expect((await server.client({ accessToken: pair.accessToken }).getMe()).response.status).toBe(200);
      expect((await refreshWith(pair.refreshToken)).status).toBe(200);
    }
  });

  it('after the interval, presenting the rotated token again is reuse: 401 REFRESH_TOKEN_REUSED and the session is revoked', async () => {
    const { email } = await signedInClient(server);
    const { refreshToken } = await login(email);
    const rotated = (await (await refreshWith(refreshToken)).json()) as { refreshToken: string };
    await new Promise((resolve) => setTimeout(resolve, 2300));
    const reused = await refreshWith(refreshToken);
    expect(reused.status).toBe(401);
    expect(await reused.json()).toMatchObject({ code: 'REFRESH_TOKEN_REUSED' });
    expect((await refreshWith(rotated.refreshToken)).status).toBe(401);
  });

  it('applies to the OAuth refresh_token grant too', async () => {
    const { refreshToken } = await oauthTokens(server, 'taskctl', TASKCTL_REDIRECT);
    const answers = await Promise.all([oauthRefresh(server, 'taskctl', refreshToken), oauthRefresh(server, 'taskctl', refreshToken)]);
    expect(answers.map((answer) => answer.response.status)).toEqual([200, 200]);
    for (const answer of answers) expect((await oauthRefresh(server, 'taskctl', answer.body.refresh_token as string)).response.status).toBe(200);
  });
});

// Last: it spends the refresh budget of this address for the minute.
describe('the refresh budget', () => {
  it('refusals of a dead refresh token do not spend the budget of the live sessions of its account', async () => {
    await awayFromMinuteEnd(15);
    const { email, tokens: loggedOut } = await signedInClient(server);
    await server.client().logout({ refreshToken: loggedOut.refreshToken });
    const live = await login(email);

    // Someone replays the victim's logged-out token, well past the refresh burst (12).
    for (let attempt = 0; attempt < 14; attempt++) expect([401, 429]).toContain((await refreshWith(loggedOut.refreshToken)).status);

    const own = await refreshWith(live.refreshToken);
    expect(own.status).toBe(200);
  });
});
