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

/** Two requests held in the handler at once: are they made of the app's own message classes, and both answered? */
async function twoHeldRequests(served: ReturnType<typeof heldApp>, url: string) {
  served.held.length = 0;
  served.hold();
  const answers = [getMe(url), getMe(url)];
  while (served.held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  const { IncomingMessage: OwnRequest, ServerResponse: OwnResponse } = messageClassesOf(served.app);
  const own = {
    request: served.held.every((req) => req instanceof OwnRequest!),
    response: served.held.every((req) => req.res instanceof OwnResponse!),
  };
  served.release();
  for (const answer of await Promise.all(answers)) expect(JSON.parse(answer.body)).toEqual(account);
  return own;
}

describe('requests and responses built as the app', () => {
  it('are made of the app\'s own classes, through app.listen and through the service\'s server', async () => {
    const viaListen = heldApp();
    expect(await twoHeldRequests(viaListen, await listening(viaListen.app.listen(0, '127.0.0.1')))).toEqual({ request: true, response: true });

    const viaServer = heldApp();
    const server = createHttpServer(viaServer.app, config).listen(0, '127.0.0.1');
    expect(await twoHeldRequests(viaServer, await listening(server))).toEqual({ request: true, response: true });
  });

  it('are still served on a server of Node\'s own classes (http.createServer(app))', async () => {
    const plain = heldApp();
    const server = createHttpServer((req, res) => plain.app(req, res), config).listen(0, '127.0.0.1');
    await twoHeldRequests(plain, await listening(server));
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
    const url = await listening(app.listen(0, '127.0.0.1'));
    const answer = await fetch(`${url}/x`, { headers: { 'x-probe': 'yes' } });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ ok: true });
    expect(seen).toEqual({ marker: 'kept', app: true, ownClass: true, nodeClasses: true, header: 'yes' });
  });

  it('answer app.listen’s callback once: on listening, or with the error when the port is taken', async () => {
    const app: Express = express();
    useOwnMessageClasses(app);
    const calls: unknown[] = [];
    const first = await new Promise<Server>((resolve) => {
      const server = app.listen(0, '127.0.0.1', (err?: Error) => {
        calls.push(err?.message);
        resolve(server);
      });
    });
    servers.push(first);
    // An error after it listens is the server's to report, not the callback's a second time.
    first.on('error', () => {});
    first.emit('error', new Error('later'));
    expect(calls).toEqual([undefined]);

    const refused = await new Promise<string | undefined>((resolve) => app.listen((first.address() as AddressInfo).port, '127.0.0.1', (err?: Error) => resolve(err?.message)));
    expect(refused).toContain('EADDRINUSE');
  });
});
