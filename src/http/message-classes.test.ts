import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import express, { type Express, type Request } from 'express';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDb } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { baseUrlOf, createTestApp, identifyBy } from '../test-support/app.js';
import { createHttpServer } from './http-server.js';
import { useOwnMessageClasses, messageClassesOf } from './message-classes.js';
import { operation } from './operations.js';

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const account = { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' };

/**
 * The service's app serving two GET /me held in the handler at once on `serve(app)`'s server: whether each
 * is its own request and response linked to the app, and whether the server built them as the app's classes.
 */
async function twoHeldRequests(serve: (app: Express) => Server) {
  const held: Request[] = [];
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const app = createTestApp({
    config,
    db: createDb({ client: 'sqlite', filename: ':memory:' }),
    logger: createLogger('silent'),
    readiness: { database: async () => true },
    identifyCaller: identifyBy(() => ({ accountId: account.id, clientId: 'web', kind: 'web', scopes: ['tasks:read'] })),
    rateLimit: (_req, _res, next) => next(),
    operations: [
      operation('getMe', async ({ req }) => {
        held.push(req);
        await released;
        return { status: 200, body: account };
      }),
    ],
  });
  const server = serve(app);
  const { IncomingMessage: OwnRequest, ServerResponse: OwnResponse } = messageClassesOf(app);
  const built: boolean[] = [];
  // Looked at before Express sees them.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => built.push(req instanceof OwnRequest! && res instanceof OwnResponse!));
  const url = await baseUrlOf(server);
  const answers = [1, 2].map(() => fetch(`${url}/me`, { headers: { authorization: 'Bearer any' } }));
  while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  const [first, second] = held as [Request, Request];
  const seen = {
    distinct: first !== second && first.res !== second.res,
    linked: held.every((req) => req.res!.req === req && req.app === app && Object.getPrototypeOf(req) === app.request),
    ownClasses: built.every(Boolean),
  };
  release();
  for (const answer of await Promise.all(answers)) expect(await answer.json()).toEqual(account);
  return seen;
}

describe('requests and responses built as the app', () => {
  it('are built with the app’s classes by the service’s server, and answered in full', async () => {
    expect(await twoHeldRequests((app) => createHttpServer(app, config).listen(0, '127.0.0.1'))).toEqual({ distinct: true, linked: true, ownClasses: true });
  });

  it('are Node’s own on a server made by app.listen or around the app, which the app answers just the same', async () => {
    expect(await twoHeldRequests((app) => app.listen(0, '127.0.0.1'))).toEqual({ distinct: true, linked: true, ownClasses: false });
    const around = (app: Express) => createHttpServer((req, res) => app(req, res), config).listen(0, '127.0.0.1');
    expect(await twoHeldRequests(around)).toEqual({ distinct: true, linked: true, ownClasses: false });
  });

  it('leave Express’s request and response as they were: its methods, the app, and Node’s classes', async () => {
    const app: Express = express();
    Object.defineProperty(app.request, 'marker', { value: 'kept', configurable: true });
    useOwnMessageClasses(app);
    let seen: Record<string, unknown> = {};
    app.get('/x', (req, res) => {
      seen = {
        marker: (req as Request & { marker?: string }).marker,
        app: req.app === app && res.app === app,
        ownClass: req instanceof messageClassesOf(app).IncomingMessage! && res instanceof messageClassesOf(app).ServerResponse!,
        nodeClasses: req instanceof IncomingMessage && res instanceof ServerResponse,
        header: req.get('x-probe'),
      };
      res.status(201).json({ ok: true });
    });
    const answer = await fetch(`${await baseUrlOf(createHttpServer(app, config).listen(0, '127.0.0.1'))}/x`, { headers: { 'x-probe': 'yes' } });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ ok: true });
    expect(seen).toEqual({ marker: 'kept', app: true, ownClass: true, nodeClasses: true, header: 'yes' });
  });
});
