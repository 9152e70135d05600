import type { Request } from 'express';

/** The documented operation a request was for: its path template and operationId. */
export interface RouteOf {
  readonly route: string;
  readonly operationId: string;
}

/** One operation of the document, as the matcher finds it. */
export interface DocumentOperation extends RouteOf {
  /** Upper-case, as Express gives `req.method`. */
  readonly method: string;
  /** The operation object as the document writes it, for the components that read its extensions. */
  readonly definition: Readonly<Record<string, unknown>>;
}

/** The operations of one document path, by upper-case method. */
export type PathOperations = ReadonlyMap<string, DocumentOperation>;

export interface OperationMatcher {
  /**
   * The operations of the document path that `path` (no query) routes to, matched the way Express
   * routes: case-insensitive, trailing slashes ignored. Paths without parameters win, so
   * `/oauth/authorizations` never reads as `/oauth/authorizations/{clientId}`.
   */
  operationsAt(path: string): PathOperations | undefined;
  readonly operations: readonly DocumentOperation[];
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);
const SLASH = 47;
const compiled = new WeakMap<object, OperationMatcher>();

/**
 * The one path matcher of a document, compiled once however many ask (the limiter before the body
 * is read, the access log and the metrics after the answer): a Map for the paths without
 * parameters, and for the others a short list by first segment, each tried with its own pattern.
 */
export function operationMatcher(document: Record<string, unknown>): OperationMatcher {
  let matcher = compiled.get(document);
  if (!matcher) {
    matcher = compile(document);
    compiled.set(document, matcher);
  }
  return matcher;
}

/**
 * Names the operation of any request from the document, also of those answered before the
 * validator looked at them (429, 413, a NUL refusal, /healthz): the access log and the request
 * metrics label every request the same way. HEAD reads as the GET it is served as.
 */
export function createRouteMatcher(document: Record<string, unknown>): (req: Request) => RouteOf | undefined {
  const matcher = operationMatcher(document);
  return (req) => {
    // originalUrl: a router mounted on a path rewrites req.url while it serves.
    const url = req.originalUrl;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    // Express routes one trailing slash, not two.
    if (path.length > 2 && path.charCodeAt(path.length - 1) === SLASH && path.charCodeAt(path.length - 2) === SLASH) return undefined;
    return servedOperation(matcher.operationsAt(path), req.method);
  };
}

/** The operation a request with `method` is served as, among a path's operations: a HEAD is its GET. */
export function servedOperation(operations: PathOperations | undefined, method: string): DocumentOperation | undefined {
  return operations?.get(method) ?? (method === 'HEAD' ? operations?.get('GET') : undefined);
}

interface Template {
  readonly pattern: RegExp;
  readonly operations: PathOperations;
}

function compile(document: Record<string, unknown>): OperationMatcher {
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  const statics = new Map<string, PathOperations>();
  const templates: { firstSegment: string | undefined; template: Template }[] = [];
  const all: DocumentOperation[] = [];
  for (const [route, item] of Object.entries(paths)) {
    const operations = new Map<string, DocumentOperation>();
    for (const [method, definition] of Object.entries(item ?? {})) {
      if (!METHODS.has(method)) continue;
      const operationId = (definition as { operationId?: unknown } | null)?.operationId;
      if (typeof operationId !== 'string') continue;
      const operation = Object.freeze({ route, operationId, method: method.toUpperCase(), definition: definition as Record<string, unknown> });
      operations.set(operation.method, operation);
      all.push(operation);
    }
    const key = canonicalPath(route);
    if (!route.includes('{')) {
      if (!statics.has(key)) statics.set(key, operations);
      continue;
    }
    const source = key
      .split(/(\{[^}]*\})/)
      .map((part) => (part.startsWith('{') ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('');
    const first = key.slice(1).split('/')[0]!;
    templates.push({ firstSegment: first.includes('{') ? undefined : first, template: { pattern: new RegExp(`^${source}$`), operations } });
  }
  // By first segment, in document order; a template starting with a parameter is a candidate for any path.
  const anyFirst = templates.filter((t) => t.firstSegment === undefined).map((t) => t.template);
  const byFirstSegment = new Map<string, Template[]>();
  for (const { firstSegment } of templates) {
    if (firstSegment === undefined || byFirstSegment.has(firstSegment)) continue;
    byFirstSegment.set(
      firstSegment,
      templates.filter((t) => t.firstSegment === firstSegment || t.firstSegment === undefined).map((t) => t.template),
    );
  }

  return {
    operations: all,
    operationsAt(path) {
      const key = canonicalPath(path);
      const found = statics.get(key);
      if (found !== undefined || templates.length === 0) return found;
      const end = key.indexOf('/', 1);
      const candidates = end === -1 ? anyFirst : (byFirstSegment.get(key.slice(1, end)) ?? anyFirst);
      for (const template of candidates) if (template.pattern.test(key)) return template.operations;
      return undefined;
    },
  };
}

/**
 * Express routes case-insensitively and ignores a trailing slash, so `/Auth/Login/` reaches the
 * login handler (and must reach the login budget too).
 */
export function canonicalPath(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === SLASH) end--;
  return (end === path.length ? path : path.slice(0, end)).toLowerCase();
}
