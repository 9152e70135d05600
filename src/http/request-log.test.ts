import { request } from 'node:http';
import express from 'express';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../platform/logger.js';
import { baseUrlOf } from '../test-support/app.js';
import type { OperationRoute } from './operation-table.js';
import { requestLog, type FinishedRequest } from './request-log.js';

const route = { path: '/tasks/{taskId}', operationId: 'getTask' } as OperationRoute;
const caller = { accountId: 'a1', clientId: 'web', kind: 'web', scopes: [] } as const;

/** An app whose one handler answers `status` for the route above, its access lines parsed as pino writes them. */
async function served(logger: pino.Logger, status: number, finish = true) {
  const finished: FinishedRequest[] = [];
  const app = express();
  app.use(requestLog(logger, (request) => finished.push(request)));
  app.use((_req, res) => {
    res.locals.route = route;
    res.locals.identity = { kind: 'caller', caller };
    if (finish) res.status(status).json({});
    else res.writeHead(status).write('begun');
  });
  return { url: `${await baseUrlOf(app.listen(0, '127.0.0.1'))}/tasks/t1?secret=s3cret`, finished };
}

const capture = (level: string, options: pino.LoggerOptions = {}) => {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level, ...options }, { write: (text: string) => void lines.push(JSON.parse(text) as Record<string, unknown>) });
  return { logger, lines };
};

const get = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ id: string | undefined }>((resolve, reject) => {
    request(url, { headers }, (res) => {
      res.resume().on('end', () => resolve({ id: res.headers['x-request-id'] as string | undefined }));
    })
      .on('error', reject)
      .end();
  });

const settled = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('requestLog', () => {
  it("writes one access line of named fields through the service's logger, the URL's query and the headers left out", async () => {
    const lines: string[] = [];
    const logger = createLogger('info', { write: (text: string) => void lines.push(text) });
    const { url, finished } = await served(logger, 200);
    const { id } = await get(url, { authorization: 'Bearer t0ken', 'x-request-id': 'req-1' });
    await settled();
    expect(id).toBe('req-1');
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/s3cret|t0ken|authorization/);
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    // These fields, in this order, and no other.
    expect(Object.entries(line)).toEqual([
      ['level', 30], ['time', expect.any(Number)], ['pid', process.pid], ['hostname', expect.any(String)], ['requestId', 'req-1'], ['method', 'GET'], ['route', '/tasks/{taskId}'],
      ['operationId', 'getTask'], ['status', 200], ['durationMs', expect.any(Number)], ['accountId', 'a1'], ['clientId', 'web'], ['msg', 'request'],
    ]);
    expect(finished.map(({ route: finishedRoute, res }) => [finishedRoute?.operationId, res.statusCode])).toEqual([['getTask', 200]]);
  });

  it("carries the logger's bindings and options, and a 5xx line at level 50", async () => {
    const { logger, lines } = capture('info', { messageKey: 'message', base: { service: 'tasks' } });
    const { url } = await served(logger.child({ instance: 'i-1' }), 503);
    await get(url);
    await settled();
    expect(lines).toEqual([expect.objectContaining({ level: 50, service: 'tasks', instance: 'i-1', message: 'request', status: 503 })]);
  });

  it('keeps to the logger level: at warn only the 5xx lines are written', async () => {
    const { logger, lines } = capture('warn');
    await get((await served(logger, 200)).url);
    await get((await served(logger, 500)).url);
    await settled();
    expect(lines.map((line) => line.status)).toEqual([500]);
  });

  it('marks the line of a response the client left before it was written whole', async () => {
    const { logger, lines } = capture('info');
    const { url } = await served(logger, 200, false);
    await new Promise<void>((resolve) => {
      const sent = request(url, (res) => {
        res.once('data', () => {
          sent.destroy();
          resolve();
        });
      });
      sent.on('error', () => {}).end();
    });
    for (let waited = 0; lines.length === 0 && waited < 2000; waited += 20) await settled();
    expect(lines).toEqual([expect.objectContaining({ status: 200, aborted: true })]);
  });
});
