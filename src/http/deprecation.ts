import type { Request, RequestHandler } from 'express';
import type { OperationRoute } from './operation-table.js';

type Json = Record<string, unknown>;

/** What a request uses of an operation that the document deprecates, and the headers that tell it so. */
interface DeprecatedItem {
  /** The operation itself, or one of its parameters. */
  readonly used: (req: Request) => boolean;
  readonly headers: readonly [name: string, value: string][];
}

/**
 * The step that marks a response as using something deprecated (docs/versioning.md): an operation or
 * parameter with `deprecated: true` and `x-sunset` answers every request that used it with
 * `Deprecation: @<unix seconds of x-deprecated-at>` (RFC 9745), `Sunset: <HTTP date of x-sunset>`
 * (RFC 8594) and `Link: <its documentation>; rel="deprecation"`. Decided once, at start-up, from the
 * document; none for an operation that deprecates nothing.
 */
export function deprecationSteps(document: Json, route: Pick<OperationRoute, 'path' | 'method' | 'operationId'>, publicUrl: string | undefined): RequestHandler[] {
  const item = ((document.paths ?? {}) as Record<string, Json>)[route.path] ?? {};
  const operation = (item[route.method] ?? {}) as Json;
  // The Redoc page of the operation, which shows what is deprecated and says how to migrate; relative
  // (RFC 8288 resolves it against the request) unless the public address is known.
  const link = `<${(publicUrl ?? '').replace(/\/+$/, '')}/docs#operation/${route.operationId}>; rel="deprecation"`;
  const deprecated: DeprecatedItem[] = [];
  const where = `${route.method.toUpperCase()} ${route.path}`;
  if (isSunset(operation)) deprecated.push({ used: () => true, headers: headersOf(operation, where, link) });
  const parameters = [...((item.parameters ?? []) as Json[]), ...((operation.parameters ?? []) as Json[])];
  for (const parameter of parameters.filter(isSunset)) {
    deprecated.push({ used: parameterUse(parameter), headers: headersOf(parameter, `${where} ${String(parameter.in)} parameter ${String(parameter.name)}`, link) });
  }
  if (deprecated.length === 0) return [];
  return [function deprecation(req, res, next) {
    // Several deprecated items used at once: the soonest sunset is the one a client must act on first.
    let soonest: DeprecatedItem | undefined;
    for (const candidate of deprecated) if (candidate.used(req) && (soonest === undefined || sunsetOf(candidate) < sunsetOf(soonest))) soonest = candidate;
    if (soonest) for (const [name, value] of soonest.headers) res.setHeader(name, value);
    next();
  }];
}

const isSunset = (definition: Json) => definition.deprecated === true && definition['x-sunset'] !== undefined;
const sunsetOf = (item: DeprecatedItem) => Date.parse(item.headers[1]![1]);

function headersOf(definition: Json, where: string, link: string): [string, string][] {
  const deprecatedAt = dateOf(definition['x-deprecated-at'], `${where}: x-deprecated-at`);
  const sunset = dateOf(definition['x-sunset'], `${where}: x-sunset`);
  return [
    ['Deprecation', `@${Math.floor(deprecatedAt.getTime() / 1000)}`],
    ['Sunset', sunset.toUTCString()],
    ['Link', link],
  ];
}

/** A date of the document (YAML may have parsed `2027-06-01` unquoted as one); a deprecation without one is a document error. */
function dateOf(value: unknown, what: string): Date {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) throw new Error(`${what} must be a date (YYYY-MM-DD), got ${JSON.stringify(value)}`);
  return date;
}

/** Whether a request carries the parameter; a path parameter is always used. */
function parameterUse(parameter: Json): (req: Request) => boolean {
  const name = String(parameter.name);
  switch (parameter.in) {
    case 'query':
      return (req) => (req.query as Json)[name] !== undefined;
    case 'header': {
      const header = name.toLowerCase();
      return (req) => req.headers[header] !== undefined;
    }
    case 'cookie': {
      const pattern = new RegExp(`(?:^|;\\s*)${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=`);
      return (req) => pattern.test(req.headers.cookie ?? '');
    }
    default:
      return () => true;
  }
}
