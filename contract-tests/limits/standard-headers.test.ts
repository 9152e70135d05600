// Decisions §17: the IETF RateLimit-Policy and RateLimit fields beside X-RateLimit-*. Parsed as
// Structured Fields (RFC 9651) with the structured-headers package: a field that is not a valid
// List of sf-string Items with integer parameters fails here, whatever its numbers say.
import { parseList } from 'structured-headers';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, ownRedisKeys } from '../support/limits.js';
import { appTokens, postMcp } from '../support/mcp.js';
import { PASSWORD, signedInClient, startServer, type TestServer } from '../support/server.js';

interface StandardWindow {
  name: string;
  /** q of RateLimit-Policy */
  limit: number;
  /** w of RateLimit-Policy */
  windowSeconds: number;
  /** r of RateLimit */
  remaining: number;
  /** t of RateLimit */
  resetSeconds: number;
}

/** One field's members: each an Item whose value is an sf-string, with exactly the named integer parameters. */
function membersOf(response: Response, field: string, keys: [string, string]): { name: string; params: Record<string, number> }[] {
  const value = response.headers.get(field);
  expect(value, `${field} is sent`).not.toBeNull();
  return parseList(value!).map(([item, parameters]) => {
    expect(typeof item, `each ${field} member is an sf-string Item, not an Inner List or a Token`).toBe('string');
    expect([...parameters.keys()]).toEqual(keys);
    for (const number of parameters.values()) expect(Number.isInteger(number), `${field} parameters are sf-integers`).toBe(true);
    return { name: item as string, params: Object.fromEntries(parameters) as Record<string, number> };
  });
}

/** RateLimit-Policy and RateLimit of a response, joined by name (they list the same windows in the same order). */
function standardWindows(response: Response): StandardWindow[] {
  const policy = membersOf(response, 'ratelimit-policy', ['q', 'w']);
  const state = membersOf(response, 'ratelimit', ['r', 't']);
  expect(state.map((member) => member.name)).toEqual(policy.map((member) => member.name));
  return policy.map((member, i) => ({
    name: member.name,
    limit: member.params.q!,
    windowSeconds: member.params.w!,
    remaining: state[i]!.params.r!,
    resetSeconds: state[i]!.params.t!,
  }));
}

/**
 * The standard windows of a response, after checking them against its X-RateLimit-* headers: the
 * first two are the governing budget's burst and sustained windows, a third the client fence's burst
 * window (without one, the -client headers repeat the governing burst window). Every window has the
 * length its name says, and a reset within it.
 */
function agreeingWindows(response: Response): StandardWindow[] {
  const windows = standardWindows(response);
  const [burst, sustained, clientBurst = burst] = windows;
  expect(windows.length === 2 || windows.length === 4).toBe(true);
  const { 'retry-after': _retryAfter, ...x } = limitHeaders(response);
  expect(x).toEqual({
    limit: burst!.limit,
    remaining: burst!.remaining,
    reset: burst!.resetSeconds,
    'limit-sustained': sustained!.limit,
    'remaining-sustained': sustained!.remaining,
    'reset-sustained': sustained!.resetSeconds,
    'limit-client': clientBurst!.limit,
    'remaining-client': clientBurst!.remaining,
    'reset-client': clientBurst!.resetSeconds,
  });
  for (const window of windows) {
    expect(window.windowSeconds).toBe(window.name.endsWith('-burst') ? 60 : 3600);
    expect(window.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(window.resetSeconds).toBeLessThanOrEqual(window.windowSeconds);
  }
  return windows;
}

const names = (windows: StandardWindow[]) => windows.map((window) => window.name);
const remaining = (windows: StandardWindow[]) => windows.map((window) => window.remaining);
const windowNamed = (windows: StandardWindow[], name: string) => windows.find((window) => window.name === name)!;

/** A refusal: the body names the window, which stands at r=0, and Retry-After is never earlier than its t. */
function expectRefusedBy(response: Response, body: unknown, window: string): StandardWindow[] {
  expect(response.status).toBe(429);
  expect(body).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', window });
  const windows = agreeingWindows(response);
  const refusing = windowNamed(windows, window);
  expect(refusing.remaining).toBe(0);
  expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(refusing.resetSeconds);
  return windows;
}

/** Every window one lower than in the answer before, on each served request. */
function expectCountingDown(answers: StandardWindow[][]): void {
  for (let i = 1; i < answers.length; i++) expect(remaining(answers[i]!)).toEqual(remaining(answers[i - 1]!).map((left) => left - 1));
}

/** Small budgets so each one runs out within a test; the strict one still lets each test register its account. */
const budgetEnv = {
  RATE_LIMIT_BURST_PER_MINUTE: '10',
  RATE_LIMIT_SUSTAINED_PER_HOUR: '1000',
  RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '4',
  RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '500',
  RATE_LIMIT_STRICT_BURST_PER_MINUTE: '6',
  RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR: '100',
  RATE_LIMIT_REFRESH_BURST_PER_MINUTE: '3',
  RATE_LIMIT_REFRESH_SUSTAINED_PER_HOUR: '50',
};

const stores: [string, Record<string, string>][] = [
  ['in-process store', {}],
  ['Redis store', ownRedisKeys()],
];

describe.each(stores)('RateLimit-Policy and RateLimit with the %s', (_store, storeEnv) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { ...budgetEnv, ...storeEnv } });
  });
  afterAll(async () => {
    await server?.stop();
  });
  afterEach(() => {
    expect(server.logs.filter((line) => line.includes('Redis unreachable'))).toEqual([]);
  });

  it('an authenticated answer lists the account and client windows, agrees with X-RateLimit-*, counts down, and the client fence refuses at r=0', async () => {
    await awayFromMinuteEnd();
    const { client: web } = await signedInClient(server);
    const created = await web.createApiToken({ name: 'script' });
    const script = server.client({ accessToken: created.data!.token });
    expect(standardWindows(created.response).slice(0, 2).map((window) => [window.name, window.limit, window.remaining])).toEqual([
      ['account-burst', 10, 9],
      ['account-sustained', 1000, 999],
    ]);

    const served = [];
    for (let i = 0; i < 4; i++) {
      const answer = await script.getMe();
      expect(answer.response.status).toBe(200);
      served.push(agreeingWindows(answer.response));
    }
    expect(names(served[0]!)).toEqual(['account-burst', 'account-sustained', 'client-burst', 'client-sustained']);
    expect(served[0]!.map((window) => [window.limit, window.windowSeconds])).toEqual([
      [10, 60],
      [1000, 3600],
      [4, 60],
      [500, 3600],
    ]);
    expect(remaining(served[0]!)).toEqual([8, 998, 3, 499]);
    expectCountingDown(served);

    const refused = await script.getMe();
    const windows = expectRefusedBy(refused.response, refused.error?.body, 'client-burst');
    // The refusal spent nothing: the account windows stand where the fourth answer left them.
    expect(remaining(windows)).toEqual([5, 995, 0, 496]);
  });

  it('when the account budget is spent, the account window refuses at r=0 while the caller fence still has budget', async () => {
    await awayFromMinuteEnd();
    const { client: web } = await signedInClient(server);
    const tokens = [];
    for (const name of ['one', 'two']) tokens.push(server.client({ accessToken: (await web.createApiToken({ name })).data!.token }));
    for (const token of tokens) {
      const served = [];
      for (let i = 0; i < 4; i++) served.push(agreeingWindows((await token.getMe()).response));
      expectCountingDown(served);
    }
    const refused = await web.getMe();
    const windows = expectRefusedBy(refused.response, refused.error?.body, 'account-burst');
    expect(names(windows)).toEqual(['account-burst', 'account-sustained', 'client-burst', 'client-sustained']);
    expect(windowNamed(windows, 'client-burst').remaining).toBe(2);
  });

  it('refresh lists only the refresh windows of the account, counts them down and refuses at r=0', async () => {
    await awayFromMinuteEnd();
    const { tokens } = await signedInClient(server);
    const anonymous = server.client();
    let refreshToken = tokens.refreshToken;
    const served = [];
    for (let i = 0; i < 3; i++) {
      const refreshed = await anonymous.refreshTokens({ refreshToken });
      expect(refreshed.response.status).toBe(200);
      served.push(agreeingWindows(refreshed.response));
      refreshToken = refreshed.data!.refreshToken;
    }
    expect(served.map((windows) => windows.map((window) => [window.name, window.limit, window.remaining]))).toEqual([
      [['refresh-burst', 3, 2], ['refresh-sustained', 50, 49]],
      [['refresh-burst', 3, 1], ['refresh-sustained', 50, 48]],
      [['refresh-burst', 3, 0], ['refresh-sustained', 50, 47]],
    ]);
    const refused = await anonymous.refreshTokens({ refreshToken });
    expect(remaining(expectRefusedBy(refused.response, refused.error?.body, 'refresh-burst'))).toEqual([0, 47]);
  });

  it('each sign-in endpoint lists its own strict windows per client IP, counts them down and refuses at r=0', async () => {
    await awayFromMinuteEnd();
    const { email } = await signedInClient(server);
    const anonymous = server.client();
    const served = [];
    let answer = await anonymous.login({ email, password: PASSWORD });
    while (answer.response.status === 200) {
      served.push(agreeingWindows(answer.response));
      answer = await anonymous.login({ email, password: PASSWORD });
    }
    expect(served.map((windows) => windows.map((window) => [window.name, window.limit, window.remaining]))).toEqual(
      Array.from({ length: 6 }, (_, i) => [
        ['strict-burst', 6, 5 - i],
        ['strict-sustained', 100, 99 - i],
      ]),
    );
    expectRefusedBy(answer.response, answer.error?.body, 'strict-burst');

    // Another endpoint, another strict budget: the token endpoint's windows are untouched.
    const token = await fetch(`${server.baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&refresh_token=unknown&client_id=taskctl',
    });
    expect(token.status).toBe(400);
    expect(remaining(agreeingWindows(token))).toEqual([5, 99]);
  });

  // Last on its server: it spends the anonymous budget of 127.0.0.1 for the rest of the minute.
  it('requests without valid credentials list the anonymous windows of the client IP, count down and refuse at r=0', async () => {
    await awayFromMinuteEnd();
    const served = [];
    for (let i = 0; i < 10; i++) {
      const response = await fetch(`${server.baseUrl}/openapi.json`);
      expect(response.status).toBe(200);
      served.push(agreeingWindows(response));
    }
    expect(names(served[0]!)).toEqual(['anonymous-burst', 'anonymous-sustained']);
    expect(served.map((windows) => windowNamed(windows, 'anonymous-burst').remaining)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    expectCountingDown(served);
    const badToken = await server.client({ accessToken: 'not-a-valid-token' }).getMe();
    expectRefusedBy(badToken.response, badToken.error?.body, 'anonymous-burst');
  });
});

describe('the standard fields keep to the rules of the endpoints outside the API', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await server?.stop();
  });
  const rateLimitFields = (response: Response) => [...response.headers.keys()].filter((name) => /^(x-)?ratelimit(-|$)/.test(name));

  it('health, readiness and metrics spend no budget and carry no rate-limit field, standard or not', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect({ path, status: response.status, fields: rateLimitFields(response) }).toEqual({ path, status: 200, fields: [] });
    }
  });

  it('the documentation and the document carry the anonymous windows, like any public request', async () => {
    for (const path of ['/docs', '/openapi.json']) {
      const response = await fetch(`${server.baseUrl}${path}`);
      expect(response.status).toBe(200);
      expect(names(agreeingWindows(response))).toEqual(['anonymous-burst', 'anonymous-sustained']);
    }
  });

  it('/mcp answers carry the account and client windows; a tool call refused at the fence gets r=0 and a Retry-After no earlier than its t', async () => {
    const { accessToken } = await appTokens(server);
    const authorization = `Bearer ${accessToken}`;
    await awayFromMinuteEnd(15);
    const served = [];
    for (let id = 1; id <= 3; id++) served.push(await postMcp(server, { jsonrpc: '2.0', id, method: 'ping' }, { authorization }));
    expect(served.map((response) => response.status)).toEqual([200, 200, 200]);
    const windows = served.map(agreeingWindows);
    expect(names(windows[0]!)).toEqual(['account-burst', 'account-sustained', 'client-burst', 'client-sustained']);
    expect(windows.map((answer) => windowNamed(answer, 'client-burst').remaining)).toEqual([2, 1, 0]);
    expectCountingDown(windows);

    const refused = await postMcp(server, { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_tasks', arguments: {} } }, { authorization });
    // A refused tool call is answered as a tool result (200); its HTTP answer keeps the headers of a 429.
    expect(refused.status).toBe(200);
    expect(((await refused.json()) as { result: { structuredContent: unknown } }).result.structuredContent).toMatchObject({ window: 'client-burst' });
    const clientBurst = windowNamed(agreeingWindows(refused), 'client-burst');
    expect(clientBurst.remaining).toBe(0);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(clientBurst.resetSeconds);
  });
});
