import type { Request } from 'express';

/** The documented operation a request was for: its path template and operationId. */
export interface RouteOf {
  readonly route: string;
  readonly operationId: string;
}

interface Template {
  readonly route: string;
  readonly pattern: RegExp;
  readonly operations: ReadonlyMap<string, string>;
}

/**
 * Names the operation of any request from the document, also of those answered before the
 * validator looked at them (429, 413, a NUL refusal, /healthz): the access log and the request
 * metrics label every request the same way. Templates without parameters are tried first, so
 * `/oauth/authorizations` never reads as `/oauth/authorizations/{clientId}`.
 */
export function createRouteMatcher(document: Record<string, unknown>): (req: Request) => RouteOf | undefined {
  const paths = (document.paths ?? {}) as Record<string, Record<string, { operationId?: string }>>;
  const templates: Template[] = Object.entries(paths)
    .map(([route, item]) => ({
      route,
      pattern: new RegExp(`^${route.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`, 'i'),
      operations: new Map(
        Object.entries(item)
          .filter(([, operation]) => typeof operation?.operationId === 'string')
          .map(([method, operation]) => [method.toUpperCase(), operation.operationId!]),
      ),
    }))
    .sort((a, b) => Number(a.route.includes('{')) - Number(b.route.includes('{')));
  const cache = new WeakMap<Request, RouteOf | undefined>();

  return (req) => {
    if (cache.has(req)) return cache.get(req);
    // originalUrl: a router mounted on a path rewrites req.url while it serves.
    const query = req.originalUrl.indexOf('?');
    const path = query === -1 ? req.originalUrl : req.originalUrl.slice(0, query);
    let found: RouteOf | undefined;
    for (const template of templates) {
      if (!template.pattern.test(path)) continue;
      // HEAD is served as the GET it stands for.
      const operationId = template.operations.get(req.method) ?? (req.method === 'HEAD' ? template.operations.get('GET') : undefined);
      if (operationId) found = { route: template.route, operationId };
      break;
    }
    cache.set(req, found);
    return found;
  };
}
