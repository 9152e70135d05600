import type { AddressInfo } from 'node:net';
import { get, IncomingMessage, ServerResponse, type Server } from 'node:http';
import express, { type Express, type Request } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDb } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { createTestApp, identifyBy } from '../test-support/app.js';
import { hasFastProperties, haveSameHiddenClass } from '../test-support/hidden-classes.js';
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

/** After warming up, two requests held in the handler at once: do their request and response objects share a hidden class? */
async function twoHeldRequests(served: ReturnType<typeof heldApp>, url: string) {
  for (let i = 0; i < 20; i++) expect((await getMe(url)).status).toBe(200);
  served.held.length = 0;
  served.hold();
  const answers = [getMe(url), getMe(url)];
  while (served.held.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
  const [first, second] = served.held as [Request, Request];
  const shared = {
    request: haveSameHiddenClass(first, second) && hasFastProperties(second),
    response: haveSameHiddenClass(first.res!, second.res!) && hasFastProperties(second.res!),
  };
  served.release();
  for (const answer of await Promise.all(answers)) expect(JSON.parse(answer.body)).toEqual(account);
  return shared;
}

describe('requests and responses built as the app', () => {
  it('keep one hidden class from request to request, through app.listen and through the service’s server', async () => {
    const viaListen = heldApp();
    expect(await twoHeldRequests(viaListen, await listening(viaListen.app.listen(0, '127.0.0.1')))).toEqual({ request: true, response: true });

    const viaServer = heldApp();
    const server = createHttpServer(viaServer.app, config).listen(0, '127.0.0.1');
    expect(await twoHeldRequests(viaServer, await listening(server))).toEqual({ request: true, response: true });
  });

  it('is what tells them apart: the same app on a server of Node’s own classes (http.createServer(app)) makes a new hidden class per request', async () => {
    // Express's setPrototypeOf on every request (express/lib/application.js): the cost src/http/message-classes.ts takes away.
    const plain = heldApp();
    const server = createHttpServer((req, res) => plain.app(req, res), config).listen(0, '127.0.0.1');
    expect(
      await twoHeldRequests(plain, await listening(server)),
      `V8 ${process.versions.v8} keeps one hidden class after setPrototypeOf: src/http/message-classes.ts may no longer be needed`,
    ).toEqual({ request: false, response: false });
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
