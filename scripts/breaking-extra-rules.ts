import type { Json } from './breaking-fixtures.js';

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

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;
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

const pointerPart = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');
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

const typesOf = (schema: Json | undefined): string[] => {
  const type = schema?.type;
  return type === undefined ? [] : Array.isArray(type) ? type : [type];
};

/** Whether every value of a schema typed `before` is still accepted by one typed `after`. */
export function typeWidened(before: Json | undefined, after: Json | undefined): boolean {
  const was = typesOf(before);
  const now = typesOf(after);
  if (now.length === 0) return true;
  return was.length > 0 && was.every((type) => now.includes(type) || (type === 'integer' && now.includes('number')));
}

/** What a response no longer keeps of its promise: a property removed, or a value of a type it never had (nested objects and array items too). */
function responseChanges(before: Json | undefined, after: Json | undefined, where: string, out: string[]): void {
  if (!before || !after) return;
  const was = typesOf(before);
  const added = typesOf(after).filter((type) => !was.includes(type) && !(type === 'integer' && was.includes('number')));
  if (where && was.length > 0 && added.length > 0) out.push(`property \`${where}\` may now be ${added.join(' or ')}`);
  if (before.items && after.items) responseChanges(before.items, after.items, `${where}[]`, out);
  const properties = (before.properties ?? {}) as Record<string, Json>;
  const now = (after.properties ?? {}) as Record<string, Json>;
  for (const [name, schema] of Object.entries(properties)) {
    const path = where ? `${where}.${name}` : name;
    if (!(name in now)) out.push(`property \`${path}\` removed`);
    else responseChanges(schema, now[name], path, out);
  }
}

/** Whether a caller who met requirement `held` meets `asked` (same schemes, no scope it lacks). */
const meets = (held: Requirement, asked: Requirement) =>
  Object.entries(asked).every(([scheme, scopes]) => scheme in held && scopes.every((scope) => held[scheme]!.includes(scope)));

/**
 * The breaking changes the diff library does not report (docs/versioning.md names them): a response
 * property removed or its type changed, a parameter's type changed, a scope or security added to an operation, a path
 * parameter renamed. Both documents dereferenced first.
 */
export function extraBreakingChanges(beforeDocument: Json, afterDocument: Json): BreakingChange[] {
  const before = operationsOf(dereference(beforeDocument));
  const after = operationsOf(dereference(afterDocument));
  const changes: BreakingChange[] = [];
  for (const [key, was] of before) {
    const now = after.get(key);
    if (!now) continue;
    if (was.path !== now.path) changes.push({ location: now.pointer, message: `${was.label}: path parameter renamed (now ${now.path})` });
    for (const [status, response] of Object.entries((was.definition.responses ?? {}) as Record<string, Json>)) {
      if (!status.startsWith('2')) continue;
      const nowResponse = (now.definition.responses as Record<string, Json> | undefined)?.[status];
      for (const [mediaType, media] of Object.entries((response.content ?? {}) as Record<string, Json>)) {
        const found: string[] = [];
        responseChanges(media.schema, nowResponse?.content?.[mediaType]?.schema, '', found);
        for (const change of found)
          changes.push({ location: `${was.pointer}/responses/${status}/content/${pointerPart(mediaType)}/schema`, message: `${was.label}: response ${status} ${change}` });
      }
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
  return changes;
}
