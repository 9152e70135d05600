import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { errors } from '../platform/errors.js';
import { accessRefusal } from './access-check.js';
import type { Caller } from './caller.js';
import { toAppError } from './error-translation.js';
import { DOCUMENT_FORMATS } from './openapi-validator.js';
import type { OperationId, OperationRoute } from './operation-table.js';
import type { OperationEntry, OperationHandler, OperationInput } from './operations.js';

/** A request to an operation that did not come over HTTP (an MCP tool call): its path and query parameters and its JSON body. */
export interface OperationRequest {
  path: Record<string, string>;
  query: Record<string, unknown>;
  /** Undefined for an operation without a body. */
  body?: Record<string, unknown>;
  /** Request headers the tool's arguments make (If-Match from update_task's `expectedVersion`). */
  headers?: Record<string, string>;
}

/** Runs an operation for a caller: its answer's body (undefined for a 204), or throws its AppError. */
export type RunOperation = (operationId: OperationId, caller: Caller, request: OperationRequest) => Promise<unknown>;

type Json = Record<string, unknown>;

/**
 * The operations run without HTTP as their routes run them: the same access check, the document's schemas of their
 * parameters and body, the same handler, and what it throws translated into the one error type (http/error-translation.ts).
 */
export function createOperationRunner(document: Json, table: readonly OperationRoute[], entries: readonly OperationEntry[]): RunOperation {
  const routes = new Map(table.map((route) => [route.operationId, route]));
  const handlers = new Map<OperationId, OperationHandler<OperationId>>();
  for (const entry of entries) if ('handler' in entry) handlers.set(entry.operationId, entry.handler as OperationHandler<OperationId>);
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats.default(ajv, { mode: 'full' });
  for (const [name, format] of Object.entries(DOCUMENT_FORMATS)) ajv.addFormat(name, format);
  const checks = new Map<OperationId, RequestChecks>();
  const checksOf = (route: OperationRoute) => checks.get(route.operationId) ?? checks.set(route.operationId, compileChecks(ajv, document, route)).get(route.operationId)!;

  return async (operationId, caller, request) => {
    const route = routes.get(operationId);
    const handler = handlers.get(operationId);
    if (!route || !handler) throw new Error(`No operation ${operationId} runs without HTTP`);
    const refusal = accessRefusal(route.security, { kind: 'caller', caller });
    if (refusal) throw refusal;
    const details = checksOf(route)(request);
    if (details.length > 0) throw errors.validation(details);
    try {
      const header = (name: string) => Object.entries(request.headers ?? {}).find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
      const input = { caller, callerAccount: undefined, params: request.path, query: request.query, body: request.body, header };
      return (await handler(input as unknown as OperationInput<OperationId> as never)).body;
    } catch (err) {
      const appError = toAppError(err, { method: route.method.toUpperCase(), path: route.path, route });
      // The cause travels with a 5xx so that MCP logs it as HTTP's renderer does (mcp/failure-log.ts).
      if (appError !== err && appError.status >= 500) appError.cause = err;
      throw appError;
    }
  };
}

/** What is wrong with a request, as the details of its 400. */
type RequestChecks = (request: OperationRequest) => { path: string; message: string }[];

/** The operation's path, query and body schemas as the document gives them, compiled once. */
function compileChecks(ajv: Ajv2020, document: Json, route: OperationRoute): RequestChecks {
  const definition = ((document.paths as Json)[route.path] as Json)[route.method] as Json;
  const pathItem = (document.paths as Json)[route.path] as Json;
  const parameters = [...asArray(pathItem.parameters), ...asArray(definition.parameters)].map((parameter) => resolve(document, parameter) as Json);
  const objectOf = (place: 'path' | 'query'): Json => {
    const own = parameters.filter((parameter) => parameter.in === place);
    return {
      type: 'object',
      properties: Object.fromEntries(own.map((parameter) => [parameter.name, resolve(document, parameter.schema)])),
      required: own.filter((parameter) => parameter.required === true).map((parameter) => parameter.name),
      additionalProperties: false,
    };
  };
  const requestBody = resolve(document, definition.requestBody) as Json | undefined;
  const bodySchema = ((requestBody?.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
  const validators: [string, ValidateFunction, (request: OperationRequest) => unknown][] = [
    ['/path', ajv.compile(objectOf('path')), (request) => request.path],
    ['/query', ajv.compile(objectOf('query')), (request) => request.query],
  ];
  if (bodySchema) validators.push(['/body', ajv.compile(resolve(document, bodySchema) as Json), (request) => request.body ?? {}]);
  return (request) => validators.flatMap(([root, validate, partOf]) => (validate(partOf(request)) ? [] : (validate.errors ?? []).map((error) => toDetail(root, error))));
}

function toDetail(root: string, error: ErrorObject): { path: string; message: string } {
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const extra = (error.params as { additionalProperty?: string }).additionalProperty;
  return { path: `${root}${error.instancePath}${missing ? `/${missing}` : ''}${extra ? `/${extra}` : ''}`, message: error.message ?? 'is invalid' };
}

/** A copy of the value with every local `$ref` replaced by what it points at; OpenAPI's own keywords left out. */
function resolve(document: Json, value: unknown, seen: readonly string[] = []): unknown {
  if (Array.isArray(value)) return value.map((item) => resolve(document, item, seen));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Json;
  if (typeof object.$ref === 'string') {
    const ref = object.$ref;
    if (seen.includes(ref)) throw new Error(`The OpenAPI document's ${ref} refers to itself`);
    const { $ref: _ref, ...siblings } = object;
    return { ...(resolve(document, pointer(document, ref), [...seen, ref]) as Json), ...(resolve(document, siblings, seen) as Json) };
  }
  const copy: Json = {};
  for (const [key, item] of Object.entries(object)) if (!OPENAPI_ONLY_KEYWORDS.has(key)) copy[key] = resolve(document, item, seen);
  return copy;
}

const OPENAPI_ONLY_KEYWORDS = new Set(['example', 'xml', 'externalDocs', 'discriminator', 'deprecated']);

function pointer(document: Json, ref: string): unknown {
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) node = (node as Json | undefined)?.[raw.replaceAll('~1', '/').replaceAll('~0', '~')];
  if (node === undefined) throw new Error(`The OpenAPI document has nothing at ${ref}`);
  return node;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
