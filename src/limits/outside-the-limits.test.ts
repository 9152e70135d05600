import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { readOpenApiDocument } from '../http/openapi-document.js';
import { operationTable } from '../http/operation-table.js';
import { createDb } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { createTestApp, identifyBy } from '../test-support/app.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** An app whose count step writes down the operation (or `none`) of every request it counts. */
async function countingApp() {
  const counted: string[] = [];
  const countingLimiter: RequestHandler = (req, res, next) => {
    counted.push(`${req.method} ${res.locals.route?.operationId ?? 'none'}`);
    next();
  };
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const app = createTestApp({
    config,
    db: createDb({ client: 'sqlite', filename: ':memory:' }),
    logger: createLogger('silent'),
    readiness: { database: async () => true },
    identifyCaller: identifyBy(() => undefined),
    rateLimit: countingLimiter,
    operations: [],
  });
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return { counted, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describe('operations declared outside the rate limits', () => {
  it('have no count step, so they spend nothing and carry no rate-limit headers', async () => {
    const { counted, baseUrl } = await countingApp();
    const outside = operationTable(readOpenApiDocument().document).filter((row) => row.budget.budget === 'none');
    expect(outside.map((row) => row.operationId).sort()).toEqual(['getHealth', 'getMetrics', 'getReadiness']);
    for (const { method, path } of outside) {
      const response = await fetch(`${baseUrl}${path}`, { method });
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
    await fetch(`${baseUrl}/openapi.json`);
    expect(counted).toEqual(['GET getOpenApiJson']);
  });
});

describe('the budget a request spends', () => {
  it('is its operation as Express routes it: any case, one trailing slash, a HEAD as its GET', async () => {
    const { counted, baseUrl } = await countingApp();
    for (const path of ['/auth/login/', '/AUTH/Login']) await fetch(`${baseUrl}${path}`, { method: 'POST' });
    await fetch(`${baseUrl}/oauth/device?user_code=ABCD-EFGH`, { method: 'HEAD' });
    await fetch(`${baseUrl}/Tasks/00000000-0000-4000-8000-000000000000/`);
    expect(counted).toEqual(['POST login', 'POST login', 'HEAD showDeviceVerification', 'GET getTask']);
  });

  it('is no operation\'s for a method the path does not take (405) or a path the document does not have (404), and they are counted too', async () => {
    const { counted, baseUrl } = await countingApp();
    const wrongMethod = await fetch(`${baseUrl}/auth/login`);
    const nowhere = await fetch(`${baseUrl}/nowhere`);
    expect([wrongMethod.status, nowhere.status]).toEqual([405, 404]);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect(counted).toEqual(['GET none', 'GET none']);
  });
});
