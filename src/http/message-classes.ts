import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/** The classes a server builds each request and response of an app with (Node's `createServer` options). */
export interface MessageClasses {
  IncomingMessage: typeof IncomingMessage;
  ServerResponse: typeof ServerResponse;
}

const classesOfApps = new WeakMap<object, MessageClasses>();

/**
 * Builds the app's requests and responses as instances of classes whose prototypes are `app.request` and
 * `app.response` (Node's documented `createServer({ IncomingMessage, ServerResponse })`, which
 * createHttpServer in src/http/http-server.ts uses), so Express's per-request `Object.setPrototypeOf`
 * finds them in place instead of slowing every property access after it (bench/pipeline.bench.ts).
 * Any other server (`app.listen`, `http.createServer(app)`) still works: Express sets the prototypes itself.
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
