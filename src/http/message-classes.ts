import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';

/** The classes a server builds each request and response of an app with (Node's `createServer` options). */
export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const classesOfApps = new WeakMap<object, MessageClasses>();

/**
 * The app's servers build each request and response as an instance of a class whose prototype is the
 * app's own (Node's `createServer({ IncomingMessage, ServerResponse })`), so Express's per-request
 * `Object.setPrototypeOf` (express/lib/application.js `handle`) finds it in place: that call was what
 * slowed every property access after it (expressjs/express#5998; bench/pipeline.bench.ts measures it).
 * `app.request` and `app.response` become those classes' prototypes, holding what Express had there;
 * `app.listen` and `createHttpServer` (src/http/http-server.ts) build with them. A server made elsewhere
 * (`http.createServer(app)`) still works: Express sets the prototypes as it always did.
 */
export function useOwnMessageClasses(app: Express): void {
  const classes: MessageClasses = {
    IncomingMessage: subclassCarrying(class extends IncomingMessage {}, app.request),
    // Cast: @types/node's ServerResponse is generic over its request, which the anonymous subclass's type drops.
    ServerResponse: subclassCarrying(class extends ServerResponse {} as typeof ServerResponse, app.response),
  };
  app.request = classes.IncomingMessage.prototype as Express['request'];
  app.response = classes.ServerResponse.prototype as Express['response'];
  classesOfApps.set(app, classes);
  // Express's own listen, with the classes (express/lib/application.js, `listen`).
  app.listen = function listen(this: Express, ...args: unknown[]): Server {
    const server = createServer(classes, this);
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      // Called once: on listening, or with the error that kept the server from it.
      let called = false;
      const done = (...results: unknown[]) => {
        if (called) return;
        called = true;
        callback(...results);
      };
      args[args.length - 1] = done;
      server.once('error', done);
    }
    return server.listen(...(args as Parameters<Server['listen']>));
  } as Express['listen'];
}

/** The classes of `app`'s requests and responses; none (Node's own) for a listener not built by `useOwnMessageClasses`. */
export function messageClassesOf(app: object): Partial<MessageClasses> {
  return classesOfApps.get(app) ?? {};
}

/** `Class`, its prototype holding what `prototype` holds and inheriting what it inherits. */
function subclassCarrying<T extends { prototype: object }>(Class: T, prototype: object): T {
  Object.setPrototypeOf(Class.prototype, Object.getPrototypeOf(prototype));
  Object.defineProperties(Class.prototype, Object.getOwnPropertyDescriptors(prototype));
  return Class;
}
