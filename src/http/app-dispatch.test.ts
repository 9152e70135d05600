import type { AddressInfo } from 'node:net';
import { request as httpRequest, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import express, { type Express, type Request, type RequestHandler } from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { dispatchOnly } from './app-dispatch.js';
import { useOwnMessageClasses } from './message-classes.js';
import { parseQuery } from './query-parser.js';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** An app as src/app.ts builds it: its own message classes, the service's query parser, one handler. */
function appWith(handler: RequestHandler, logged: string[] = []): Express {
  const app = express();
  useOwnMessageClasses(app);
  app.set('query parser', parseQuery);
  dispatchOnly(app, handler, pino({ level: 'error' }, { write: (line: string) => logged.push(line) }));
  return app;
}

async function listening(app: Express): Promise<string> {
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((resolve) => server.once('listening', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** The raw request line's target as sent (fetch would normalise it). */
function rawGet(base: string, target: string): Promise<{ status: number; body: string } | { error: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${base}/`, { path: target }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
    req.end();
  });
}

const URLS = [
  '/me',
  '/',
  '/tasks?limit=10',
  '/tasks/changes?cursor=eyJ2IjoxLCJhIjoiYWNjIiwicyI6MTIzfQ.c2lnbmF0dXJl',
  '/?',
  '/tasks?',
  '/a?b?c=d',
  '/a%20b?x=%41&y=+',
  '/a?x=1&x=2',
  '/a/b/../c?__proto__=1&constructor=2',
  // parseurl takes these the long way (url.parse): the fallback answers them as Express does.
  '/a#frag?x=1',
  '/a?x=1#frag',
  '/a\u00a0b?x=1',
  'http://example.test/abs?x=1',
  '*',
];

describe("the app's one handler, without Express's router", () => {
  it('reads each URL’s path and query as Express’s getters do, the long way’s URLs included', () => {
    const app = appWith((_req, _res, next) => next());
    const expressApp = express();
    expressApp.set('query parser', parseQuery);
    for (const url of URLS) {
      const ours = Object.assign(Object.create(app.request) as Request, { url });
      const theirs = Object.assign(Object.create(expressApp.request) as Request, { url });
      expect({ url, path: ours.path, query: { ...ours.query } }).toEqual({ url, path: theirs.path, query: { ...theirs.query } });
      // Read again after the URL changes: the parts kept are the last URL's only.
      ours.url = '/changed?y=2';
      expect([ours.path, { ...ours.query }]).toEqual(['/changed', { y: '2' }]);
    }
  });

  it('gives the handler what Express’s router gave it: the app’s prototypes, res.locals without inherited names, baseUrl, originalUrl', async () => {
    let seen: Record<string, unknown> = {};
    const app = appWith((req, res) => {
      seen = {
        app: req.app === app && res.app === app,
        links: req.res === res && res.req === req,
        locals: Object.getPrototypeOf(res.locals),
        inherited: 'constructor' in res.locals || 'toString' in res.locals,
        baseUrl: req.baseUrl,
        originalUrl: req.originalUrl,
        path: req.path,
        query: { ...req.query },
        header: req.get('x-probe'),
      };
      res.status(201).json({ ok: true });
    });
    const answer = await fetch(`${await listening(app)}/tasks?limit=5`, { headers: { 'x-probe': 'yes' } });
    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ ok: true });
    expect(seen).toEqual({
      app: true,
      links: true,
      locals: null,
      inherited: false,
      baseUrl: '',
      originalUrl: '/tasks?limit=5',
      path: '/tasks',
      query: { limit: '5' },
      header: 'yes',
    });
  });

  it('answers what the handler throws or passes on as Express’s final handler does: a 500, or a closed connection once the response has begun; and logs it', async () => {
    const logged: string[] = [];
    const app = appWith((req, res, next) => {
      if (req.path === '/throws') throw new Error('thrown');
      if (req.path === '/passes') return next(Object.assign(new Error('passed'), { status: 503 }));
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('begun');
      next(new Error('after the head'));
    }, logged);
    const base = await listening(app);
    const thrown = await rawGet(base, '/throws');
    expect(thrown).toMatchObject({ status: 500 });
    expect(await rawGet(base, '/passes')).toMatchObject({ status: 503 });
    expect(await rawGet(base, '/begun')).toEqual({ error: 'ECONNRESET' });
    expect(logged.map((line) => (JSON.parse(line) as { err: { message: string } }).err.message)).toEqual(['thrown', 'passed', 'after the head']);
  });

  it('gives res.sendFile the final handler for its errors: a precondition or range it cannot meet is answered, the process lives on', async () => {
    const app = appWith((_req, res) => res.sendFile(fileURLToPath(import.meta.url)));
    const base = await listening(app);
    expect((await fetch(`${base}/file`, { headers: { 'if-match': '"x"' } })).status).toBe(412);
    expect((await fetch(`${base}/file`, { headers: { range: 'bytes=99999999-' } })).status).toBe(416);
    expect((await fetch(`${base}/file`)).status).toBe(200);
  });

  it('answers a URL whose path cannot be read with 404, as Express’s router did, without running the handler', async () => {
    let ran = 0;
    const logged: string[] = [];
    const app = appWith((_req, res) => {
      ran++;
      res.end();
    }, logged);
    const base = await listening(app);
    expect(await rawGet(base, 'http://[::1/')).toMatchObject({ status: 404 });
    expect(ran).toBe(0);
    expect(logged).toEqual([]);
  });

  it('is used by an app served by a server Express did not build (Node’s own classes)', async () => {
    const app = appWith((req, res) => void res.json({ path: req.path, query: { ...req.query }, locals: typeof res.locals }));
    const { createServer } = await import('node:http');
    const server = createServer(app).listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x?y=1`);
    expect(await answer.json()).toEqual({ path: '/x', query: { y: '1' }, locals: 'object' });
  });
});
