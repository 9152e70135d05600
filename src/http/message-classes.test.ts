import type { AddressInfo } from 'node:net';
import { get, IncomingMessage, ServerResponse, type Server } from 'node:http';
import express, { type Express, type Request } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDb } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { createTestApp, identifyBy } from '../test-support/app.js';
import { createHttpServer } from './http-server.js';
import { useOwnMessageClasses, messageClassesOf } from './message-classes.js';
import { operation } from './operations.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
const account = { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' };

/**
 * The service's app whose GET /me holds each request until `release`: two requests held at the same
 * step of the same route, to compare.
 */
function heldApp() {
  const held: Request[] = [];
  let release = () => {};
  let released = Promise.resolve();
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
  return {
    app,
    held,
    hold() {
      released = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
  };
}

async function listening(server: Server): Promise<string> {
  servers.push(server);
  if (!server.listening) await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const getMe = (url: string) =>
  new Promise<{ status: number; body: string }>((resolve, reject) => {
    get(`${url}/me`, { headers: { authorization: 'Bearer any' } }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    }).on('error', reject);
  });

/**
 * Two requests held in the handler at once: each its own request and response, linked to the app, and
 * whether the server built them as the app's classes (looked at before Express sees them).
 */
async function twoHeldRequests(served: ReturnType<typeof heldApp>, server: Server) {
  const { IncomingMessage: OwnRequest, ServerResponse: OwnResponse } = messageClassesOf(served.app);
  const built: boolean[] = [];
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => built.push(OwnRequest !== undefined && req instanceof OwnRequest && res instanceof OwnResponse!));
  const url = await listening(server);
  served.hold();
  const answers = [getMe(url), getMe(url)];
  while (served.held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  const [first, second] = served.held as [Request, Request];
  const seen = {
    distinct: first !== second && first.res !== second.res,
    linked: [first, second].every((req) => req.res!.req === req && req.app === served.app && Object.getPrototypeOf(req) === served.app.request),
    ownClasses: built.every(Boolean),
  };
  served.release();
  for (const answer of await Promise.all(answers)) expect(JSON.parse(answer.body)).toEqual(account);
  return seen;
}

describe('requests and responses built as the app', () => {
  it('are built with the app’s classes by the service’s server, and answered in full', async () => {
    const served = heldApp();
    expect(await twoHeldRequests(served, createHttpServer(served.app, config).listen(0, '127.0.0.1'))).toEqual({ distinct: true, linked: true, ownClasses: true });
  });

  it('are Node’s own on a server made by app.listen or around the app, which the app answers just the same', async () => {
    const viaListen = heldApp();
    expect(await twoHeldRequests(viaListen, viaListen.app.listen(0, '127.0.0.1'))).toEqual({ distinct: true, linked: true, ownClasses: false });

    const wrapped = heldApp();
    const server = createHttpServer((req, res) => wrapped.app(req, res), config).listen(0, '127.0.0.1');
    expect(await twoHeldRequests(wrapped, server)).toEqual({ distinct: true, linked: true, ownClasses: false });
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
    const url = await listening(createHttpServer(app, config).listen(0, '127.0.0.1'));
    const answer = await fetch(`${url}/x`, { headers: { 'x-probe': 'yes' } });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ ok: true });
    expect(seen).toEqual({ marker: 'kept', app: true, ownClass: true, nodeClasses: true, header: 'yes' });
  });
});
