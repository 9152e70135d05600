import type { Request, RequestHandler, Response } from 'express';
import { callerOf, type Caller, type CallerAccount } from './caller.js';
import type { OperationId, OperationRoute } from './operation-table.js';
import type { operations } from '../../generated/api.js';

export type { OperationId };

type Operation<Id extends OperationId> = operations[Id];
type Defined<T> = [NonNullable<T>] extends [never] ? Record<string, never> : NonNullable<T>;
type ContentOf<T> = T extends { content: infer C } ? C[keyof C] : undefined;
type Responses<Id extends OperationId> = Operation<Id>['responses'];
type Status<Id extends OperationId> = Extract<keyof Responses<Id>, number>;

/** What the document lets a request of this operation carry, as the validator has checked (and coerced) it. */
export interface OperationInput<Id extends OperationId> {
  /** The signed-in caller; reading it on an operation open to anyone without one throws the 401 of the request. */
  readonly caller: Caller;
  /** The caller's account as the identify step read it for this request; undefined for an API token's caller (identified without it) and outside HTTP. */
  readonly callerAccount: CallerAccount | undefined;
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

/** The sign-in pages (consent, device) pick their status among those their forms end in: 200, 400, or 429 for a locked sign-in. */
export interface PageAnswer {
  status: 200 | 400 | 429;
  headers: Record<string, string>;
  body: string;
}

type AnswerOf<Id extends OperationId> = Answer<Id> | (ContentOf<Responses<Id>[Status<Id> & 200]> extends string ? PageAnswer : never);

export type OperationHandler<Id extends OperationId> = (context: OperationContext<Id>) => Promise<AnswerOf<Id>> | AnswerOf<Id>;

/** What serves one operation: a handler of its typed input, or an Express handler for the few that write their own response (probes, /metrics, /mcp). */
export type OperationEntry =
  | { [Id in OperationId]: { readonly operationId: Id; readonly handler: OperationHandler<Id> } }[OperationId]
  | { readonly operationId: OperationId; readonly writesOwnResponse: RequestHandler };

/** Entries typed by their operationId: `operation('createTask', ({ caller, body }) => ...)`. */
export function operation<Id extends OperationId>(operationId: Id, handler: OperationHandler<Id>): OperationEntry {
  // TypeScript cannot pick the member of the OperationEntry union for a generic Id; this is that member.
  return { operationId, handler } as unknown as OperationEntry;
}

/** An operation that writes its own response: `ownResponse('getHealth', (req, res) => ...)`. */
export function ownResponse(operationId: OperationId, writesOwnResponse: RequestHandler): OperationEntry {
  return { operationId, writesOwnResponse };
}

/** Every operation's entry by operationId; fails at start-up on an operation nothing serves, an entry the document lacks, or one served twice. */
export function entriesByOperation(table: readonly OperationRoute[], entries: readonly OperationEntry[]): ReadonlyMap<OperationId, OperationEntry> {
  const documented = new Set<string>(table.map((row) => row.operationId));
  const served = new Map<OperationId, OperationEntry>();
  for (const entry of entries) {
    if (!documented.has(entry.operationId)) throw new Error(`No operation ${entry.operationId} in the OpenAPI document: a handler names it`);
    if (served.has(entry.operationId)) throw new Error(`Two handlers for the operation ${entry.operationId}`);
    served.set(entry.operationId, entry);
  }
  const unserved = table.filter((row) => !served.has(row.operationId)).map((row) => row.operationId);
  if (unserved.length > 0) throw new Error(`Operations of the OpenAPI document that nothing serves: ${unserved.join(', ')}`);
  return served;
}

/** A route's handle step: the handler on the typed context; its answer through `res.json` where responses are validated, else written as `res.json` would. */
export function handle(entry: OperationEntry, { validateResponses }: { validateResponses: boolean }): RequestHandler {
  if ('writesOwnResponse' in entry) return entry.writesOwnResponse;
  // One context type for every entry: each handler was registered under its own operation's types.
  const handler = entry.handler as OperationHandler<OperationId>;
  const writeJson = validateResponses ? viaExpress : directly;
  return async function handle(req, res) {
    send(res, (await handler(new CheckedRequest(req, res))) as SentAnswer, writeJson);
  };
}

/** A request's context, `caller` and `callerAccount` read when asked: a class's getters, not new ones for each request. */
class CheckedRequest implements OperationContext<OperationId> {
  readonly body: never;
  readonly params: never;
  readonly query: never;
  readonly header: (name: string) => string | undefined;

  constructor(
    readonly req: Request,
    private readonly res: Response,
  ) {
    // The one place the checked request meets its types: the validator has checked (and coerced) it for this operation.
    const checked: { body: unknown; query: unknown } = req;
    this.body = checked.body as never;
    // express-openapi-validator's match of the request to its operation holds the path parameters.
    this.params = ((req.openapi as { pathParams?: Record<string, string> } | undefined)?.pathParams ?? req.params) as never;
    this.query = checked.query as never;
    // A field, not a method: handlers take it apart from the context (`({ header }) => header(...)`).
    this.header = (name) => req.get(name);
  }

  get caller(): Caller {
    return callerOf(this.res.locals.identity);
  }

  get callerAccount(): CallerAccount | undefined {
    const identity = this.res.locals.identity;
    return identity?.kind === 'caller' ? identity.account : undefined;
  }
}

interface SentAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
}

function send(res: Response, { status, headers = {}, body }: SentAnswer, writeJson: (res: Response, body: unknown) => void): void {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) {
    // Express's location() percent-encodes what a URL may not hold raw, as the handlers always had it.
    if (name.toLowerCase() === 'location') res.location(value);
    else res.set(name, value);
  }
  if (body === undefined) res.end();
  else if (typeof body === 'string') res.send(body);
  else writeJson(res, body);
}

const viaExpress = (res: Response, body: unknown) => void res.json(body);

/** What `res.json` writes for a JSON answer (no ETag: src/app.ts turns them off), without its detours. */
function directly(res: Response, body: unknown): void {
  // A 204 or 304 has no body, and an answer that names its own type keeps it, as Express has them.
  if (res.statusCode === 204 || res.statusCode === 304 || res.hasHeader('Content-Type')) return viaExpress(res, body);
  // Encoded once: a string would be measured, then joined to the head and encoded (a page of 100 is 40 kB).
  const bytes = Buffer.from(JSON.stringify(body));
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}
