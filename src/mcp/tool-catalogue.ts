import type { Tool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type { components, operations } from '../../generated/api.js';

/**
 * The MCP tools of docs/signing-in.md: names, words for the model, hints, and which REST operation each
 * one is. Pure (a function of a parsed OpenAPI document, nothing of the server's), so the server's
 * `POST /mcp` and `taskctl mcp` describe the same tools from the same document.
 */
export type ToolName = (typeof TOOL_NAMES)[number];
export type OperationId = keyof operations;
export type Scope = components['schemas']['Scope'];

export interface ToolEntry {
  readonly name: ToolName;
  readonly title: string;
  readonly description: string;
  readonly operationId: OperationId;
  readonly annotations: ToolAnnotations;
  /** Takes an optional `expectedVersion`, sent as the operation's If-Match (docs/change-feed.md). */
  readonly expectedVersion?: true;
}

/** A tool as a client sees it, with what it takes to run it as its REST operation. */
export interface DescribedTool extends ToolEntry {
  readonly method: 'get' | 'post' | 'patch' | 'delete';
  /** The operation's path template, e.g. `/tasks/{taskId}`. */
  readonly path: string;
  /** Which argument goes where: path parameters, query parameters, fields of the JSON body. */
  readonly argumentPlaces: { readonly path: readonly string[]; readonly query: readonly string[]; readonly body: readonly string[] | null };
  /** JSON Schema of the arguments, every $ref resolved: the operation's parameters and body fields side by side. */
  readonly inputSchema: Tool['inputSchema'];
}

/** The pieces of a REST request that a tool call's arguments make. */
export interface OperationRequest {
  path: Record<string, string>;
  query: Record<string, unknown>;
  /** Undefined for an operation without a body. */
  body?: Record<string, unknown>;
  /** Request headers the arguments make (If-Match from `expectedVersion`). */
  headers?: Record<string, string>;
}

export const TOOL_NAMES = [
  'list_tasks',
  'get_task',
  'create_task',
  'update_task',
  'delete_task',
  'get_usage',
  'list_connector_accounts',
  'start_sync',
  'get_sync_job',
] as const;

const readOnly: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

export const TOOL_CATALOGUE: readonly ToolEntry[] = [
  {
    name: 'list_tasks',
    title: 'List tasks',
    description:
      'Finds tasks of the signed-in account, one page at a time; every filter given must hold. `q`: words that each start a word of the title or notes, without case or accents ("rent" finds "Pay rent", "cafe" finds "Café"). `label`: labels the task must all carry, any case (["home"]). `priority`: any of these (1 is the most urgent). `dueAfter` / `dueBefore`: due at or after / before these times (RFC 3339; tasks without a due time do not match). `hasDue`: with or without a due time. `status`: open, completed or all. `sort`: created (oldest first, the default), -created (newest first), updated, -updated, due (soonest first) or priority (1 first). Example: {"q": "report", "status": "open", "sort": "due"}. Pass the returned `nextCursor` as `cursor`, with the same filters, for the next page (null at the end).',
    operationId: 'listTasks',
    annotations: readOnly,
  },
  {
    name: 'get_task',
    title: 'Get a task',
    description: 'Reads one task by its id.',
    operationId: 'getTask',
    annotations: readOnly,
  },
  {
    name: 'create_task',
    title: 'Create a task',
    description:
      'Creates a task. Only `title` is required; `priority` is 1 (most urgent) to 4, 3 when left out. Refused with QUOTA_EXCEEDED at the account task cap.',
    operationId: 'createTask',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  },
  {
    name: 'update_task',
    title: 'Change a task',
    description:
      'Changes the fields given of one task (at least one besides `taskId`); null clears `notes` and `dueAt`. Setting `status` to completed sets `completedAt`.',
    operationId: 'updateTask',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    expectedVersion: true,
  },
  {
    name: 'delete_task',
    title: 'Delete a task',
    description: 'Deletes one task for good, freeing a place under the task cap.',
    operationId: 'deleteTask',
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    expectedVersion: true,
  },
  {
    name: 'get_usage',
    title: 'Usage and budgets',
    description:
      'What the account uses of its caps (tasks, connected accounts per type) and its request budgets: the account windows and this client’s own.',
    operationId: 'getUsage',
    annotations: readOnly,
  },
  {
    name: 'list_connector_accounts',
    title: 'Connected accounts',
    description: 'Lists the external accounts (GitHub, iCalendar feeds) connected to this account, with when each last synced.',
    operationId: 'listConnectorAccounts',
    annotations: readOnly,
  },
  {
    name: 'start_sync',
    title: 'Start a sync',
    description:
      'Starts pulling a connected account’s items into tasks (`accountId` is the connected account’s id) and answers at once with the job; while one is queued or running, that job is returned. Poll it with get_sync_job.',
    operationId: 'startSync',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  },
  {
    name: 'get_sync_job',
    title: 'Get a sync job',
    description: 'Reads a sync job: its status, counters, and the error when it failed.',
    operationId: 'getSyncJob',
    annotations: readOnly,
  },
];

/** Every tool of the catalogue, described from the document (throws when the document lacks an operation). */
export function describeTools(document: object): DescribedTool[] {
  return TOOL_CATALOGUE.map((entry) => describeTool(document, entry));
}

/** What the MCP `tools/list` answer says of a tool. */
export function toListedTool(tool: DescribedTool): Tool {
  return { name: tool.name, title: tool.title, description: tool.description, inputSchema: tool.inputSchema, annotations: tool.annotations };
}

/** Splits a tool call's (already validated) arguments into the REST operation's path, query and body. */
export function toOperationRequest(tool: DescribedTool, args: Record<string, unknown>): OperationRequest {
  const request: OperationRequest = { path: {}, query: {} };
  for (const name of tool.argumentPlaces.path) request.path[name] = String(args[name]);
  for (const name of tool.argumentPlaces.query) if (args[name] !== undefined) request.query[name] = args[name];
  if (tool.argumentPlaces.body) {
    const body: Record<string, unknown> = {};
    for (const name of tool.argumentPlaces.body) if (args[name] !== undefined) body[name] = args[name];
    request.body = body;
  }
  if (tool.expectedVersion && args.expectedVersion !== undefined) request.headers = { 'If-Match': `"${String(args.expectedVersion)}"` };
  return request;
}

type JsonObject = Record<string, unknown>;
const METHODS = ['get', 'post', 'patch', 'delete'] as const;
/** OpenAPI's own keywords, not JSON Schema's: a client validating arguments would not know them. */
const OPENAPI_ONLY_KEYWORDS = new Set(['example', 'xml', 'externalDocs', 'discriminator', 'deprecated']);

function describeTool(document: object, entry: ToolEntry): DescribedTool {
  const found = findOperation(document as JsonObject, entry.operationId);
  if (!found) throw new Error(`The OpenAPI document has no operation ${entry.operationId} for the tool ${entry.name}`);
  const { method, path, pathItem, operation } = found;
  const resolve = (value: unknown) => resolveRefs(document as JsonObject, value, []);

  const properties: JsonObject = {};
  const required: string[] = [];
  const places = { path: [] as string[], query: [] as string[], body: null as string[] | null };
  const parameters = [...asArray(pathItem.parameters), ...asArray(operation.parameters)].map(resolve) as JsonObject[];
  for (const parameter of parameters) {
    const name = String(parameter.name);
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    places[parameter.in].push(name);
    properties[name] = withDescription(parameter.schema as JsonObject, parameter.description);
    if (parameter.required === true) required.push(name);
  }

  let minProperties: number | undefined;
  const requestBody = resolve(operation.requestBody) as JsonObject | undefined;
  const bodySchema = (requestBody?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined;
  if (bodySchema) {
    const schema = resolve(bodySchema.schema) as JsonObject;
    const fields = (schema.properties ?? {}) as JsonObject;
    places.body = Object.keys(fields);
    for (const [name, fieldSchema] of Object.entries(fields)) {
      if (name in properties) throw new Error(`The tool ${entry.name} would take ${name} both as a parameter and a body field`);
      properties[name] = fieldSchema;
    }
    if (requestBody?.required === true) required.push(...asArray(schema.required).map(String));
    // The body's own minimum (TaskUpdate: at least one change), counted beside the required path parameters.
    if (typeof schema.minProperties === 'number') minProperties = places.path.length + schema.minProperties;
  }

  if (entry.expectedVersion) properties.expectedVersion = EXPECTED_VERSION;
  // expectedVersion is no change by itself: with it, the body's minimum still has to be met by body fields.
  const versionIsNoChange = entry.expectedVersion && minProperties !== undefined ? { not: { required: ['expectedVersion'], maxProperties: minProperties } } : {};

  const inputSchema: Tool['inputSchema'] = {
    type: 'object',
    properties: properties as Record<string, object>,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...(minProperties !== undefined ? { minProperties } : {}),
    ...versionIsNoChange,
  };
  return { ...entry, method, path, argumentPlaces: places, inputSchema };
}

function findOperation(document: JsonObject, operationId: string) {
  for (const [path, pathItem] of Object.entries((document.paths ?? {}) as Record<string, JsonObject>)) {
    for (const method of METHODS) {
      const operation = pathItem[method] as JsonObject | undefined;
      if (operation?.operationId === operationId) return { method, path, pathItem, operation };
    }
  }
  return undefined;
}


/** A copy of the value with every local `$ref` replaced by what it points at (the document is left untouched). */
function resolveRefs(document: JsonObject, value: unknown, seen: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveRefs(document, item, seen));
  if (value === null || typeof value !== 'object') return value;
  const object = value as JsonObject;
  if (typeof object.$ref === 'string') {
    const ref = object.$ref;
    if (seen.includes(ref)) throw new Error(`The OpenAPI document's ${ref} refers to itself: a tool cannot take it`);
    const { $ref: _ref, ...siblings } = object;
    const target = resolveRefs(document, pointer(document, ref), [...seen, ref]) as JsonObject;
    return { ...target, ...(resolveRefs(document, siblings, seen) as JsonObject) };
  }
  const copy: JsonObject = {};
  for (const [key, item] of Object.entries(object)) {
    if (!OPENAPI_ONLY_KEYWORDS.has(key)) copy[key] = resolveRefs(document, item, seen);
  }
  return copy;
}

function pointer(document: JsonObject, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references can be resolved, not ${ref}`);
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    node = (node as JsonObject | undefined)?.[key];
    if (node === undefined) throw new Error(`The OpenAPI document has nothing at ${ref}`);
  }
  return node;
}

function withDescription(schema: JsonObject, description: unknown): JsonObject {
  return typeof description === 'string' && schema.description === undefined ? { ...schema, description } : schema;
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const EXPECTED_VERSION = {
  type: 'integer',
  minimum: 1,
  description:
    'Optional: the task’s `version` as last read. The change applies only if the task is still at that version; otherwise nothing changes and the tool fails with PRECONDITION_FAILED (read the task again).',
};
