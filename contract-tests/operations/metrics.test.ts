import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders, ownRedisKeys } from '../support/limits.js';
import { PASSWORD, signedInClient, startServer, type TestServer } from '../support/server.js';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const BURST = 40;
let open: TestServer;
let guarded: TestServer;
beforeAll(async () => {
  [open, guarded] = await Promise.all([
    startServer({
      env: {
        ...ownRedisKeys(),
        RATE_LIMIT_BURST_PER_MINUTE: String(BURST),
        TASKS_MAX_PER_ACCOUNT: '1',
        LOGIN_MAX_FAILED_ATTEMPTS: '2',
      },
    }),
    startServer({ env: { METRICS_TOKEN } }),
  ]);
});
afterAll(async () => {
  await Promise.all([open?.stop(), guarded?.stop()]);
});

const scrape = async (server: TestServer, headers: Record<string, string> = {}) => {
  const response = await fetch(`${server.baseUrl}/metrics`, { headers });
  return { response, text: await response.text() };
};

/** The value of one sample, `name{labels}` written exactly as the registry writes it. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('serves the Prometheus text: process metrics, request durations from 1 ms to 10 s, limiter, refusals, store and pool', async () => {
    const { client } = await signedInClient(open);
    await client.getMe();
    expect((await client.createTask({ title: 'the one allowed' })).response.status).toBe(201);
    expect((await client.createTask({ title: 'over the cap' })).response.status).toBe(403);
    const anonymous = open.client();
    const { email } = await signedInClient(open);
    for (let i = 0; i < 3; i++) await anonymous.login({ email, password: `${PASSWORD}-wrong` });
    expect((await anonymous.login({ email, password: PASSWORD })).response.status).toBe(429);

    const { response, text } = await scrape(open);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds \d/m);

    const getMe = 'task_service_http_request_duration_seconds_bucket{le="%s",operation="getMe",status="200"}';
    expect(sample(text, getMe.replace('%s', '0.001'))).toBeGreaterThanOrEqual(0);
    expect(sample(text, getMe.replace('%s', '10'))).toBe(1);
    expect(sample(text, 'task_service_http_request_duration_seconds_count{operation="createTask",status="403"}')).toBe(1);
    expect(sample(text, 'task_service_http_request_duration_seconds_count{operation="login",status="429"}')).toBeGreaterThanOrEqual(1);

    expect(sample(text, 'task_service_rate_limit_decisions_total{budget="account",window="all",outcome="allowed"}')).toBeGreaterThanOrEqual(3);
    expect(sample(text, 'task_service_rate_limit_decisions_total{budget="strict",window="all",outcome="allowed"}')).toBeGreaterThanOrEqual(6);
    expect(sample(text, 'task_service_quota_refusals_total{quota="tasks"}')).toBe(1);
    expect(sample(text, 'task_service_login_lockout_refusals_total')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'task_service_rate_limit_store{store="redis"}')).toBe(1);
    expect(sample(text, 'task_service_rate_limit_store{store="fallback"}')).toBe(0);
    expect(sample(text, 'task_service_db_pool_max_connections')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'task_service_db_pool_connections{state="pending"}')).toBe(0);
    expect(text).toContain('# TYPE task_service_sync_job_duration_seconds histogram');
  });

  it('counts rejections under the window that said no', async () => {
    await awayFromMinuteEnd(10);
    const { client } = await signedInClient(open);
    let rejected = 0;
    for (let i = 0; i <= BURST && rejected === 0; i++) if ((await client.listTasks()).response.status === 429) rejected++;
    expect(rejected).toBe(1);
    const { text } = await scrape(open);
    expect(sample(text, 'task_service_rate_limit_decisions_total{budget="account",window="burst",outcome="rejected"}')).toBeGreaterThanOrEqual(1);
  });

  it('is outside the rate limits: scraping spends nothing and is never refused', async () => {
    await awayFromMinuteEnd(10);
    const before = limitHeaders(await fetch(`${open.baseUrl}/openapi.json`));
    const scrapes = await Promise.all(Array.from({ length: BURST + 5 }, () => scrape(open)));
    expect(scrapes.map(({ response }) => response.status)).toEqual(Array(BURST + 5).fill(200));
    for (const { response } of scrapes) expect(limitHeaders(response)).toEqual({});
    const after = limitHeaders(await fetch(`${open.baseUrl}/openapi.json`));
    expect(after.remaining).toBe(before.remaining! - 1);
  });

  it('wants METRICS_TOKEN as a bearer token when the server has one: 401 in the common body otherwise', async () => {
    const refused: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token-0123456789abcdef' }, { authorization: METRICS_TOKEN }];
    for (const headers of refused) {
      const { response, text } = await scrape(guarded, headers);
      expect(response.status).toBe(401);
      expect(JSON.parse(text)).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
      expect(text).not.toContain('process_cpu');
    }
    const { response, text } = await scrape(guarded, { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(response.status).toBe(200);
    expect(sample(text, 'task_service_rate_limit_store{store="memory"}')).toBe(1);
  });
});
