import type { Json } from './breaking-fixtures.js';
import { receivedChanges, requestRemovals, typesOf } from './breaking-received.js';

/** The document with every local `$ref` replaced by what it points at (a cycle is left as its `$ref`). */
export function dereference(document: Json): Json {
  const resolve = (ref: string): unknown =>
    ref
      .slice(2)
      .split('/')
      .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
  const walk = (node: unknown, seen: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, seen));
    if (node === null || typeof node !== 'object') return node;
    const ref = (node as Json).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/')) {
      if (seen.includes(ref)) return node;
      return walk(resolve(ref), [...seen, ref]);
    }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, seen)]));
  };
  return walk(document, []) as Json;
}

/** One breaking change: where (a JSON pointer into the new document, or the old one for what was taken away) and what. */
export interface BreakingChange {
  readonly location: string;
  readonly message: string;
}

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
type Requirement = Record<string, string[]>;

interface Operation {
  readonly key: string;
  readonly pointer: string;
  readonly label: string;
  readonly path: string;
  readonly definition: Json;
  readonly parameters: readonly Json[];
  readonly security: readonly Requirement[];
}

export const pointerPart = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
/** `/tasks/{taskId}` and `/tasks/{id}` are the same route to a client. */
const routeKey = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

function operationsOf(document: Json): Map<string, Operation> {
  const operations = new Map<string, Operation>();
  for (const [path, item] of Object.entries((document.paths ?? {}) as Record<string, Json>)) {
    for (const method of METHODS) {
      const definition = item[method] as Json | undefined;
      if (!definition) continue;
      const parameters = new Map<string, Json>();
      for (const parameter of [...((item.parameters ?? []) as Json[]), ...((definition.parameters ?? []) as Json[])]) parameters.set(`${parameter.in}:${parameter.name}`, parameter);
      const key = `${method} ${routeKey(path)}`;
      operations.set(key, {
        key,
        pointer: `/paths/${pointerPart(path)}/${method}`,
        label: `${method.toUpperCase()} ${path}`,
        path,
        definition,
        parameters: [...parameters.values()],
        security: (definition.security ?? document.security ?? []) as Requirement[],
      });
    }
  }
  return operations;
}

/** Whether every value of a schema typed `before` is still accepted by one typed `after`. */
export function typeWidened(before: Json | undefined, after: Json | undefined): boolean {
  const was = typesOf(before);
  const now = typesOf(after);
  if (now.length === 0) return true;
  return was.length > 0 && was.every((type) => now.includes(type) || (type === 'integer' && now.includes('number')));
}

/** A response or a webhook payload, media type by media type: what a client receives no longer keeps its promise. */
function contentChanges(before: Json | undefined, after: Json | undefined, where: string, pointer: string, label: string, out: BreakingChange[]): void {
  for (const [mediaType, media] of Object.entries((before?.content ?? {}) as Record<string, Json>)) {
    const nowMedia = (after?.content as Record<string, Json> | undefined)?.[mediaType];
    const at = `${pointer}/content/${pointerPart(mediaType)}`;
    if (!nowMedia) {
      out.push({ location: at, message: `${label}: ${where}: media type \`${mediaType}\` removed` });
      continue;
    }
    const found: string[] = [];
    receivedChanges(media.schema, nowMedia.schema, '', found);
    for (const change of found) out.push({ location: `${at}/schema`, message: `${label}: ${where} (${mediaType}): ${change}` });
  }
}

/** A header a client could count on that is no longer always sent. */
function headerChanges(before: Record<string, Json>, after: Record<string, Json>, where: string, pointer: string, label: string, out: BreakingChange[]): void {
  for (const [name, header] of Object.entries(before)) {
    if (header.required !== true) continue;
    const now = after[name];
    if (!now) out.push({ location: pointer, message: `${label}: ${where}: required header \`${name}\` removed` });
    else if (now.required !== true) out.push({ location: pointer, message: `${label}: ${where}: header \`${name}\` no longer always sent` });
  }
}

/** What an operation's responses promise a client: each success status, its required headers and its bodies (every status's body). */
function responseChanges(was: Operation, now: Operation, out: BreakingChange[]): void {
  for (const [status, response] of Object.entries((was.definition.responses ?? {}) as Record<string, Json>)) {
    const nowResponse = (now.definition.responses as Record<string, Json> | undefined)?.[status];
    const pointer = `${was.pointer}/responses/${status}`;
    if (!nowResponse) {
      if (status.startsWith('2')) out.push({ location: pointer, message: `${was.label}: response ${status} removed` });
      continue;
    }
    headerChanges((response.headers ?? {}) as Record<string, Json>, (nowResponse.headers ?? {}) as Record<string, Json>, `response ${status}`, `${pointer}/headers`, was.label, out);
    contentChanges(response, nowResponse, `response ${status}`, pointer, was.label, out);
  }
}

/** A webhook is a request this server sends: its payload and headers are what a receiver relies on, as a response's. */
function webhookChanges(before: Json, after: Json, out: BreakingChange[]): void {
  for (const [name, item] of Object.entries((before.webhooks ?? {}) as Record<string, Json>)) {
    const nowItem = (after.webhooks as Record<string, Json> | undefined)?.[name];
    const pointer = `/webhooks/${pointerPart(name)}`;
    const label = `webhook ${name}`;
    if (!nowItem) {
      out.push({ location: pointer, message: `${label}: removed (no longer sent)` });
      continue;
    }
    for (const method of METHODS) {
      const definition = item[method] as Json | undefined;
      if (!definition) continue;
      const nowDefinition = nowItem[method] as Json | undefined;
      if (!nowDefinition) {
        out.push({ location: `${pointer}/${method}`, message: `${label}: ${method.toUpperCase()} removed (no longer sent)` });
        continue;
      }
      const headers = (definition: Json) => Object.fromEntries(((definition.parameters ?? []) as Json[]).filter((p) => p.in === 'header').map((p) => [p.name as string, p]));
      headerChanges(headers(definition), headers(nowDefinition), 'request', `${pointer}/${method}/parameters`, label, out);
      contentChanges(definition.requestBody, nowDefinition.requestBody, 'payload', `${pointer}/${method}/requestBody`, label, out);
    }
  }
}

const semver = (version: unknown) => String(version).split(/[.+-]/, 3).map(Number);

/** `info.version` may only go up: a lower one would tell a client it is talking to an older contract. */
function versionChanges(before: Json, after: Json, out: BreakingChange[]): void {
  const [was, now] = [semver(before.info?.version), semver(after.info?.version)];
  const order = now.map((part, index) => part - (was[index] ?? 0)).find((difference) => difference !== 0) ?? 0;
  if (order < 0) out.push({ location: '/info/version', message: `info.version went down from ${String(before.info?.version)} to ${String(after.info?.version)}` });
}

/** Whether a caller who met requirement `held` meets `asked` (same schemes, no scope it lacks). */
const meets = (held: Requirement, asked: Requirement) =>
  Object.entries(asked).every(([scheme, scopes]) => scheme in held && scopes.every((scope) => held[scheme]!.includes(scope)));

/**
 * The breaking changes the diff library does not report (docs/versioning.md names them): anything
 * a client receives (responses and webhook payloads, scripts/breaking-received.ts), a request
 * property a closed object stops taking, a parameter's type changed, a scope or security added to an
 * operation, a path parameter renamed, `info.version` going down. Both documents dereferenced first.
 */
export function extraBreakingChanges(beforeDocument: Json, afterDocument: Json): BreakingChange[] {
  const [beforeResolved, afterResolved] = [dereference(beforeDocument), dereference(afterDocument)];
  const before = operationsOf(beforeResolved);
  const after = operationsOf(afterResolved);
  const changes: BreakingChange[] = [];
  for (const [key, was] of before) {
    const now = after.get(key);
    if (!now) continue;
    if (was.path !== now.path) changes.push({ location: now.pointer, message: `${was.label}: path parameter renamed (now ${now.path})` });
    responseChanges(was, now, changes);
    for (const [mediaType, media] of Object.entries((was.definition.requestBody?.content ?? {}) as Record<string, Json>)) {
      const found: string[] = [];
      requestRemovals(media.schema, now.definition.requestBody?.content?.[mediaType]?.schema, '', found);
      for (const change of found)
        changes.push({ location: `${was.pointer}/requestBody/content/${pointerPart(mediaType)}/schema`, message: `${was.label}: request body (${mediaType}): ${change}` });
    }
    for (const parameter of was.parameters) {
      const nowParameter = now.parameters.find((p) => p.in === parameter.in && (p.name === parameter.name || parameter.in === 'path'));
      if (nowParameter && !typeWidened(parameter.schema, nowParameter.schema))
        changes.push({
          location: now.pointer,
          message: `${was.label}: ${parameter.in} parameter \`${parameter.name}\` type changed from ${typesOf(parameter.schema).join('|')} to ${typesOf(nowParameter.schema).join('|') || 'any'}`,
        });
    }
    const open = (security: readonly Requirement[]) => security.length === 0 || security.some((requirement) => Object.keys(requirement).length === 0);
    const stillMet = open(now.security) || (!open(was.security) && was.security.every((held) => now.security.some((asked) => meets(held, asked))));
    if (!stillMet) changes.push({ location: `${now.pointer}/security`, message: `${was.label}: security requirements tightened (a scope or scheme added)` });
  }
  webhookChanges(beforeResolved, afterResolved, changes);
  versionChanges(beforeDocument, afterDocument, changes);
  return changes;
}
