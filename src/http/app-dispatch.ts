import finalhandler from 'finalhandler';
import type { Express, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../platform/logger.js';

/**
 * Every request of `app` handed straight to `handler` (the app's one handler: its routes, decided at
 * start-up by http/routes.ts), as Express's `app.handle` and its router would hand it, without their
 * per-request work around a stack of one: a final handler and a bound error logger made for every
 * request, the router's closures, its layer matching and the state it saves and restores
 * (express/lib/application.js `handle`, router/index.js `handle`). What the steps read of them is set
 * the same way: `req.res`, `res.req`, the app's prototypes, `res.locals`, `req.baseUrl` (''),
 * `req.originalUrl`; an error the handler throws or passes on past its renderers goes to
 * finalhandler, as Express's would (a response already begun: the connection is closed), and to the log.
 *
 * The request's path and query are read with one scan of the URL for its `?`
 * (`readUrlOnce`): Express reads them through parseurl, whose loop over every character of the URL
 * was most of what a change-feed poll (`/tasks/changes?cursor=` and 60 characters) cost over a
 * GET /me (docs/benchmarks.md#change-feed).
 */
export function dispatchOnly(app: Express, handler: RequestHandler, logger: Logger): void {
  const { request, response } = app;
  const env = app.get('env') as string;
  // Where Express would print the error's stack to the console (express/lib/application.js `logerror`).
  const onerror = (err: unknown) => logger.error({ err }, 'request failed past its error renderers');
  const hasPath = readUrlOnce(request);
  // `handle` is what the app, called as a request listener, calls (express/lib/express.js); @types/express leaves it out.
  (app as Express & { handle: Handle }).handle = function handle(req, res, callback) {
    req.res = res;
    res.req = req;
    // A server built with the app's own classes (http/message-classes.ts) made them with these prototypes already.
    if (Object.getPrototypeOf(req) !== request) Object.setPrototypeOf(req, request);
    if (Object.getPrototypeOf(res) !== response) Object.setPrototypeOf(res, response);
    res.locals ??= Object.create(null) as Record<string, unknown>;
    req.baseUrl = '';
    req.originalUrl ??= req.url;
    const done = callback ?? ((err?: unknown) => finalhandler(req, res, { env, onerror })(err));
    // What Express's own `res.sendFile` (the docs' files) hands an error it meets, as the router set it.
    req.next = done;
    // A URL whose path cannot be read (`GET http://[::1/`, which Node's parser lets through) is the
    // final handler's 404, as the router answered it, not an error of the routes.
    if (!hasPath(req)) return done();
    try {
      handler(req, res, done);
    } catch (err) {
      done(err);
    }
  };
}

type Handle = (req: Request, res: Response, callback?: (err?: unknown) => void) => void;

/** A URL that parseurl takes apart with `url.parse` rather than its own loop (parseurl/index.js `fastparse`). */
const PARSED_THE_LONG_WAY = /[\t\n\f\r #\u00a0\ufeff]/;
const PARTS = Symbol('urlParts');

class UrlParts {
  constructor(
    readonly url: string,
    readonly pathname: string,
    /** After the first `?`; null without one. */
    readonly query: string | null,
  ) {}
}

/**
 * `req.path` and `req.query` of `request` (an app's request prototype) from one look at the URL, kept
 * while the URL is the same: the same answers as Express's getters (parseurl's pathname and query,
 * the query through the app's 'query parser fn'), which still answer a URL parseurl would take the long way.
 * Answers whether a request's path can be read at all.
 */
function readUrlOnce(request: Request): (req: Request) => boolean {
  const expressPath = getterOf(request, 'path');
  const expressQuery = getterOf(request, 'query');
  const partsOf = (req: Request & { [PARTS]?: UrlParts }): UrlParts | undefined => {
    const { url } = req;
    const known = req[PARTS];
    if (known?.url === url) return known;
    if (typeof url !== 'string' || url.charCodeAt(0) !== 0x2f /* / */ || PARSED_THE_LONG_WAY.test(url)) return undefined;
    const mark = url.indexOf('?');
    const parts = mark < 0 ? new UrlParts(url, url, null) : new UrlParts(url, url.slice(0, mark), url.slice(mark + 1));
    req[PARTS] = parts;
    return parts;
  };
  const hasPath = (req: Request): boolean => {
    if (partsOf(req) !== undefined) return true;
    try {
      return typeof expressPath.call(req) === 'string';
    } catch {
      return false;
    }
  };
  Object.defineProperties(request, {
    path: {
      configurable: true,
      enumerable: true,
      get(this: Request) {
        return partsOf(this)?.pathname ?? expressPath.call(this);
      },
    },
    query: {
      configurable: true,
      enumerable: true,
      get(this: Request) {
        const parts = partsOf(this);
        if (parts === undefined) return expressQuery.call(this);
        const parse = this.app.get('query parser fn') as ((text: string | null) => unknown) | undefined;
        return parse ? parse(parts.query) : Object.create(null);
      },
    },
  });
  return hasPath;
}

function getterOf(prototype: object, name: string): (this: Request) => unknown {
  for (let at: object | null = prototype; at !== null; at = Object.getPrototypeOf(at)) {
    const getter = Object.getOwnPropertyDescriptor(at, name)?.get;
    if (getter) return getter;
  }
  throw new Error(`Express's request has no ${name} getter: check its release before upgrading`);
}
