import type { Request, RequestHandler, Response } from 'express';
import type { operations } from '../../generated/api.js';
import { callerOf, type Caller } from './caller.js';

export type OperationId = keyof operations;

type Operation<Id extends OperationId> = operations[Id];
type Defined<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;
type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : undefined;
type Responses<Id extends OperationId> = Operation<Id>['responses'];
type Status<Id extends OperationId> = Extract<keyof Responses<Id>, number>;

/** What the document lets a request of this operation carry, as the validator has checked (and coerced) it. */
export interface OperationInput<Id extends OperationId> {
  /** The signed-in caller; reading it on an operation open to anyone without one throws the 401 of the request. */
  readonly caller: Caller;
  readonly body: [ContentOf<NonNullable<Operation<Id>['requestBody']>>] extends [never] ? undefined : ContentOf<NonNullable<Operation<Id>['requestBody']>>;
  readonly params: Defined<Operation<Id>['parameters']['path']>;
  readonly query: Defined<Operation<Id>['parameters']['query']>;
  /** A request header; a run that did not come over HTTP (an MCP tool) has none. */
  header(name: string): string | undefined;
}

/** The request over HTTP, for the few operations that answer from what only HTTP has (the address it came to, cookies). */
export interface OperationContext<Id extends OperationId> extends OperationInput<Id> {
  readonly req: Request;
}

/** An answer the document declares for the operation: a status it lists, that status's body, and headers. */
export type Answer<Id extends OperationId> = {
  [S in Status<Id>]: { status: S; headers?: Record<string, string> } & (ContentOf<Responses<Id>[S]> extends undefined
    ? { body?: undefined }
    : { body: ContentOf<Responses<Id>[S]> });
}[Status<Id>];

export type OperationHandler<Id extends OperationId> = (context: OperationContext<Id>) => Promise<Answer<Id>> | Answer<Id>;

/** One row of the table: the document names the path, the method and the shapes; the handler runs it. */
export type OperationEntry = { [Id in OperationId]: { readonly operationId: Id; readonly handler: OperationHandler<Id> } }[OperationId];

/** Entries typed by their operationId: `operation('createTask', ({ caller, body }) => ...)`. */
export function operation<Id extends OperationId>(operationId: Id, handler: OperationHandler<Id>): OperationEntry {
  return { operationId, handler } as OperationEntry;
}

/**
 * The operations the components serve, by operationId, served after the validator has matched the
 * request to one of the document's operations. Fails at start-up on an operationId the document does not
 * have, or one served twice; a documented operation without an entry is left to the caller (a 501).
 */
export function serveOperations(document: Record<string, unknown>, entries: readonly OperationEntry[]): RequestHandler {
  const documented = documentedOperationIds(document);
  const handlers = new Map<string, OperationEntry['handler']>();
  for (const { operationId, handler } of entries) {
    if (!documented.has(operationId)) throw new Error(`No operation ${operationId} in the OpenAPI document: a handler names it`);
    if (handlers.has(operationId)) throw new Error(`Two handlers for the operation ${operationId}`);
    handlers.set(operationId, handler);
  }
  return async (req, res, next) => {
    const handler = handlers.get(operationIdOf(req) ?? '');
    if (!handler) return next();
    // One context type for every entry: each handler was registered under its own operation's types.
    send(res, (await (handler as OperationHandler<OperationId>)(contextOf(req))) as SentAnswer);
  };
}

/** The context of a request the validator has checked against its operation. */
function contextOf(req: Request): OperationContext<OperationId> {
  // The one place the checked request meets its types: the validator has matched it to this operation
  // and checked (and coerced) its path, query and body against the operation's schemas.
  // (Express gives each middleware its own req.params: the path's are kept on req.openapi.)
  const checked: { body: unknown; query: unknown } = req;
  return {
    get caller() {
      return callerOf(req);
    },
    body: checked.body as never,
    params: (matchedOperationOf(req)?.pathParams ?? {}) as never,
    query: checked.query as never,
    header: (name) => req.get(name),
    req,
  };
}

interface SentAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

function send(res: Response, { status, headers = {}, body }: SentAnswer): void {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) {
    // Express's location() percent-encodes what a URL may not hold raw, as the handlers always had it.
    if (name.toLowerCase() === 'location') res.location(value);
    else res.set(name, value);
  }
  if (body === undefined) res.end();
  else if (typeof body === 'string') res.send(body);
  else res.json(body);
}

/** What express-openapi-validator sets on a request it matched to an operation of the document. */
interface MatchedOperation {
  schema?: { operationId?: string };
  pathParams?: Record<string, string>;
}

const matchedOperationOf = (req: Request) => req.openapi as MatchedOperation | undefined;
const operationIdOf = (req: Request): string | undefined => matchedOperationOf(req)?.schema?.operationId;

function documentedOperationIds(document: Record<string, unknown>): Set<string> {
  const ids = new Set<string>();
  for (const pathItem of Object.values((document.paths ?? {}) as Record<string, Record<string, { operationId?: string }>>)) {
    for (const operation of Object.values(pathItem)) if (typeof operation?.operationId === 'string') ids.add(operation.operationId);
  }
  return ids;
}
