import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { loadConfig } from '../config.js';
import { loadOpenApiDocument } from '../http/docs.routes.js';
import { operationMatcher } from '../http/route-of.js';
import { createDb } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { operationBudgetsOf } from './operation-budgets.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

describe('operations declared outside the rate limits', () => {
  it('are answered before the limiter runs, so they spend nothing and carry no rate-limit headers', async () => {
    const counted: string[] = [];
    const countingLimiter: RequestHandler = (req, _res, next) => {
      counted.push(`${req.method} ${req.path}`);
      next();
    };
    const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    const app = createApp({
      config,
      db: createDb({ client: 'sqlite', filename: ':memory:' }),
      logger: createLogger('silent'),
      readiness: { database: async () => true },
      identifyCaller: (_req, _res, next) => next(),
      rateLimit: countingLimiter,
      operations: [],
    });
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const declared = operationBudgetsOf(operationMatcher(loadOpenApiDocument().document));
    const outside = [...declared].filter(([, { budget }]) => budget === 'none').map(([operation]) => operation);
    expect(outside.map((operation) => operation.operationId).sort()).toEqual(['getHealth', 'getMetrics', 'getReadiness']);
    for (const { method, route } of outside) {
      const response = await fetch(`${baseUrl}${route}`, { method });
      expect(response.headers.get('x-ratelimit-limit')).toBeNull();
    }
    await fetch(`${baseUrl}/openapi.json`);
    expect(counted).toEqual(['GET /openapi.json']);
  });
});
