import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { operation } from '../http/operations.js';
import { loadConfig } from '../config.js';
import type { Caller } from '../http/caller.js';
import { createDb } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { createTestApp, identifyBy } from '../test-support/app.js';
import { createLimitsComponent, type LimitsComponent } from './limits.component.js';

const ACCOUNT_ID = '00000000-0000-4000-8000-000000000001';
const open: { server: Server; limits: LimitsComponent }[] = [];
afterEach(async () => {
  for (const { server, limits } of open.splice(0)) {
    server.close();
    await limits.close();
  }
});

/** A bearer token names the client (`Bearer web`, `Bearer api-token:a`); no header, no caller. */
const identifyByClientName = identifyBy((req) => {
  const clientId = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return clientId ? ({ accountId: ACCOUNT_ID, clientId, kind: 'web', scopes: ['tasks:read'] } satisfies Caller) : undefined;
});

const getMe = () => operation('getMe', () => ({ status: 200, body: { id: ACCOUNT_ID, email: 'ada@example.com', name: null, createdAt: '2030-01-01T00:00:00.000Z' } }));

async function serve(env: Record<string, string>, clock: () => number) {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', OPENAPI_VALIDATE_RESPONSES: 'true', ...env });
  const logger = createLogger('silent');
  const db = createDb({ client: 'sqlite', filename: ':memory:' });
  const limits = await createLimitsComponent({ config, db, logger }, { refreshTokenAccount: async () => undefined }, { clock });
  const app = createTestApp({
    config,
    db,
    logger,
    readiness: { database: async () => true },
    identifyCaller: identifyByClientName,
    rateLimit: limits.rateLimit,
    operations: [getMe()],
  });
  const server = app.listen(0, '127.0.0.1');
  open.push({ server, limits });
  await new Promise((resolve) => server.once('listening', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl}${path}`, { headers });
}

const rateHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => /^(x-)?ratelimit/.test(name) || name === 'retry-after'));

const minuteAndSeconds = (second: number, ms = 0) => Date.UTC(2030, 0, 1, 9, 15, second, ms);

describe('the rate-limit middleware in the app', () => {
  it('sets the account, sustained and client headers on an authenticated answer, counting down', async () => {
    const get = await serve({ RATE_LIMIT_BURST_PER_MINUTE: '5', RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '3' }, () => minuteAndSeconds(20, 250));
    const first = await get('/me', { authorization: 'Bearer web' });
    const second = await get('/me', { authorization: 'Bearer web' });
    expect(first.status).toBe(200);
    expect(rateHeaders(first)).toEqual({
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '4',
      'x-ratelimit-reset': '40',
      'x-ratelimit-limit-sustained': '8000',
      'x-ratelimit-remaining-sustained': '7999',
      'x-ratelimit-reset-sustained': String(45 * 60 - 20),
      'x-ratelimit-limit-client': '3',
      'x-ratelimit-remaining-client': '2',
      'x-ratelimit-reset-client': '40',
      'ratelimit-policy': '"account-burst";q=5;w=60, "account-sustained";q=8000;w=3600, "client-burst";q=3;w=60, "client-sustained";q=4000;w=3600',
      ratelimit: `"account-burst";r=4;t=40, "account-sustained";r=7999;t=${45 * 60 - 20}, "client-burst";r=2;t=40, "client-sustained";r=3999;t=${45 * 60 - 20}`,
    });
    expect(rateHeaders(second)).toMatchObject({
      'x-ratelimit-remaining': '3',
      'x-ratelimit-remaining-client': '1',
      ratelimit: `"account-burst";r=3;t=40, "account-sustained";r=7998;t=${45 * 60 - 20}, "client-burst";r=1;t=40, "client-sustained";r=3998;t=${45 * 60 - 20}`,
    });
  });

  it('answers the client fence with 429, the client message, Retry-After and the window, in the common body', async () => {
    const get = await serve({ RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '2' }, () => minuteAndSeconds(50, 1));
    await get('/me', { authorization: 'Bearer api-token:a' });
    await get('/me', { authorization: 'Bearer api-token:a' });
    const limited = await get('/me', { authorization: 'Bearer api-token:a' });
    expect(limited.status).toBe(429);
    expect(await limited.json()).toEqual({
      statusCode: 429,
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'This client is sending too many requests. Slow down and retry later.',
      retryAfterSeconds: 10,
      window: 'client-burst',
    });
    expect(rateHeaders(limited)).toMatchObject({
      'retry-after': '10',
      'x-ratelimit-remaining': '398',
      'x-ratelimit-remaining-client': '0',
      'x-ratelimit-reset-client': '10',
      // The refused request spent nothing: the fence that refused stands at 0, the account where it was.
      ratelimit: '"account-burst";r=398;t=10, "account-sustained";r=7998;t=2650, "client-burst";r=0;t=10, "client-sustained";r=3998;t=2650',
    });
    const otherClient = await get('/me', { authorization: 'Bearer api-token:b' });
    expect(otherClient.status).toBe(200);
    expect(rateHeaders(otherClient)).toMatchObject({ 'x-ratelimit-remaining': '397', 'x-ratelimit-remaining-client': '1' });
  });

  it('answers the anonymous budget with the generic message; its client headers repeat that budget, the standard fields do not', async () => {
    const get = await serve({ RATE_LIMIT_BURST_PER_MINUTE: '1' }, () => minuteAndSeconds(0));
    const served = await get('/openapi.json');
    expect(served.status).toBe(200);
    expect(rateHeaders(served)).toMatchObject({
      'ratelimit-policy': '"anonymous-burst";q=1;w=60, "anonymous-sustained";q=8000;w=3600',
      ratelimit: '"anonymous-burst";r=0;t=60, "anonymous-sustained";r=7999;t=2700',
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': '60',
      'x-ratelimit-limit-client': '1',
      'x-ratelimit-remaining-client': '0',
      'x-ratelimit-reset-client': '60',
    });
    const limited = await get('/me');
    expect(limited.status).toBe(429);
    expect(await limited.json()).toMatchObject({ message: 'Rate limit exceeded. Slow down and retry later.', window: 'anonymous-burst' });
    expect(limited.headers.get('retry-after')).toBe('60');
    expect(limited.headers.get('ratelimit')).toBe('"anonymous-burst";r=0;t=60, "anonymous-sustained";r=7999;t=2700');
  });

  it('ignores a forged X-Forwarded-For by default: the socket address keeps its budget', async () => {
    const get = await serve({ RATE_LIMIT_BURST_PER_MINUTE: '2' }, () => minuteAndSeconds(0));
    const statuses = [];
    for (const forged of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      statuses.push((await get('/openapi.json', { 'x-forwarded-for': forged })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });

  it('keys by the forwarded address when TRUST_PROXY says the proxy in front is to be believed', async () => {
    const get = await serve({ RATE_LIMIT_BURST_PER_MINUTE: '1', TRUST_PROXY: 'loopback' }, () => minuteAndSeconds(0));
    expect((await get('/openapi.json', { 'x-forwarded-for': '198.51.100.1' })).status).toBe(200);
    expect((await get('/openapi.json', { 'x-forwarded-for': '198.51.100.2' })).status).toBe(200);
    expect((await get('/openapi.json', { 'x-forwarded-for': '198.51.100.2' })).status).toBe(429);
  });

  it('counts nothing and sets no headers when RATE_LIMITS_ENABLED=false', async () => {
    const get = await serve({ RATE_LIMITS_ENABLED: 'false', RATE_LIMIT_BURST_PER_MINUTE: '1' }, () => minuteAndSeconds(0));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get('/me', { authorization: 'Bearer web' })).status);
    expect(statuses).toEqual([200, 200, 200]);
    expect(rateHeaders(await get('/me', { authorization: 'Bearer web' }))).toEqual({});
  });
});
