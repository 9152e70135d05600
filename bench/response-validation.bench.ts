// Cost of validating responses against the document: the same app with response validation on and
// off, serving a page of 50 tasks (the common list size) to an identified caller. Figures go in docs/benchmarks.md.
import type { AddressInfo } from 'node:net';
import { createTestApp, identifyBy } from '../src/test-support/app.js';
import { operation } from '../src/http/operations.js';
import { loadConfig } from '../src/config.js';
import { createDb } from '../src/platform/db.js';
import { createLogger } from '../src/platform/logger.js';
import { runLoad } from './harness.js';

const page = {
  items: Array.from({ length: 50 }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    title: `Task number ${i} with a title of ordinary length`,
    notes: i % 2 ? 'Some notes about the task, a sentence or two long.' : null,
    status: i % 3 ? 'open' : 'completed',
    priority: (i % 4) + 1,
    dueAt: '2026-12-01T17:00:00.000Z',
    labels: ['work', 'release'],
    completedAt: i % 3 ? null : '2026-11-20T10:00:00.000Z',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedAt: '2026-11-02T10:00:00.000Z',
    source: null,
  })),
  nextCursor: 'eyJjIjoxLCJpIjoiYSJ9',
};

async function measure(validateResponses: boolean): Promise<number> {
  const app = createTestApp({
    config: loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), CONNECTOR_SECRET_KEY: '0'.repeat(64), OPENAPI_VALIDATE_RESPONSES: String(validateResponses) }),
    db: createDb({ client: 'sqlite', filename: ':memory:' }),
    logger: createLogger('silent'),
    readiness: { database: async () => true },
    identifyCaller: identifyBy(() => ({ accountId: '00000000-0000-4000-8000-000000000001', clientId: 'web', kind: 'web', scopes: ['tasks:read'] })),
    rateLimit: (_req, _res, next) => next(),
    // The page is a TaskList; its literal's numbers and strings are wider than the document's enums.
    operations: [operation('listTasks', () => ({ status: 200, body: page as never }))],
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const request = { path: '/tasks?limit=50', headers: { authorization: 'Bearer t' } };
  await runLoad(url, request, { connections: 16, seconds: 2 });
  const result = await runLoad(url, request, { connections: 16, seconds: 8 });
  server.close();
  return result.requestsPerSecond;
}

const off = await measure(false);
const on = await measure(true);
process.stdout.write(
  `GET /tasks (50 tasks per page), 16 connections, 8 s each, same process:\n` +
    `  response validation off: ${off.toFixed(0)} req/s\n` +
    `  response validation on:  ${on.toFixed(0)} req/s  (${((on / off) * 100).toFixed(1)}% of off)\n`,
);
