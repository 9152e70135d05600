import type { BreakingChange } from './breaking-extra-rules.js';
import { METHODS, pointerPart } from './breaking-extra-rules.js';
import type { Json } from './breaking-fixtures.js';

/** The part of an api-smart-diff diff this reads. */
export interface LibraryDiff {
  readonly action: string;
  readonly path: readonly (string | number)[];
  readonly before?: unknown;
  readonly after?: unknown;
}

const COMPOSITION = new Set(['oneOf', 'anyOf', 'allOf']);
const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : JSON.stringify(value) ?? 'nothing');

/**
 * A line of the gate for one of the diff library's findings, in the gate's own words: the operation,
 * where in it (request body and media type, which parameter, which property) and the value, e.g.
 * `GET /tasks: query parameter \`status\`: no longer takes "all" (enum value removed)`.
 */
export function describeLibraryDiff(diff: LibraryDiff, before: Json, after: Json): BreakingChange {
  const path = diff.path.map(String);
  const location = `/${path.map(pointerPart).join('/')}`;
  const [, route = '', third = '', ...rest] = path;
  const onOperation = (METHODS as readonly string[]).includes(third);
  const label = onOperation ? `${third.toUpperCase()} ${route}` : route;
  const tail = onOperation ? rest : [third, ...rest];
  if (tail.length === 0 || tail[0] === '') return { location, message: `${label}: operation removed` };
  return { location, message: `${label}: ${describeTail(tail, diff, path, before, after)}` };
}

function describeTail(tail: string[], diff: LibraryDiff, path: string[], before: Json, after: Json): string {
  const [part, second, third, ...rest] = tail;
  if (part === 'requestBody') {
    if (second === 'required') return 'request body now required';
    if (second === 'content' && third !== undefined && rest.length === 0) return `request body media type \`${third}\` ${diff.action === 'remove' ? 'no longer accepted' : 'changed'}`;
    if (second === 'content' && third !== undefined && rest[0] === 'schema') return `request body (${third}): ${schemaWords(rest.slice(1), diff, 'the body')}`;
  }
  if (part === 'parameters' && second !== undefined) {
    const at = path.slice(0, path.length - tail.length + 2);
    const parameter = (lookup(diff.action === 'add' ? after : before, at) ?? lookup(after, at) ?? {}) as Json;
    const name = `${String(parameter.in ?? '')} parameter \`${String(parameter.name ?? second)}\``;
    if (third === undefined) return diff.action === 'add' ? `${name} added, required` : `${name} removed`;
    if (third === 'required') return `${name} now required`;
    if (third === 'schema') return `${name}: ${schemaWords(rest, diff, 'its value')}`;
  }
  return `${tail.join('.')}: ${change(tail.at(-1) ?? '', diff)}`;
}

/** `properties/title/maxLength` -> property `title`: maxLength changed from 200 to 100. */
function schemaWords(segments: string[], diff: LibraryDiff, root: string): string {
  const names: string[] = [];
  let index = 0;
  for (; index < segments.length; index++) {
    const segment = segments[index]!;
    const next = segments[index + 1];
    if (segment === 'properties' && next !== undefined && index + 2 < segments.length) {
      names.push(next);
      index++;
    } else if (segment === 'items') names.push('[]');
    else if (COMPOSITION.has(segment) && next !== undefined && /^\d+$/.test(next) && index + 2 < segments.length) {
      names.push(`${segment}[${next}]`);
      index++;
    } else break;
  }
  const where = names.join('.').replaceAll('.[]', '[]');
  const subject = where ? `property \`${where}\`` : root;
  const keyword = segments.slice(index);
  const [first, second] = keyword;
  if (first === 'required') return diff.action === 'add' ? `property \`${joined(where, String(diff.after))}\` now required` : `property \`${joined(where, String(diff.before))}\` no longer required`;
  if (first === 'properties' && second !== undefined) return `property \`${joined(where, second)}\` ${diff.action === 'add' ? 'added' : 'removed'}`;
  if (first === 'enum') {
    return diff.action === 'remove'
      ? `${subject} no longer takes ${shown(diff.before)} (enum value removed)`
      : diff.action === 'add'
        ? `${subject} may now be ${shown(diff.after)} (enum value added)`
        : `${subject}: enum value ${shown(diff.before)} replaced by ${shown(diff.after)}`;
  }
  return `${subject}: ${change(keyword.join('.') || 'schema', diff)}`;
}

const joined = (where: string, name: string) => (where ? `${where}.${name}` : name);

function change(keyword: string, diff: LibraryDiff): string {
  if (diff.action === 'add') return `${keyword} added (${shown(diff.after)})`;
  if (diff.action === 'remove') return `${keyword} removed (was ${shown(diff.before)})`;
  return `${keyword} changed from ${shown(diff.before)} to ${shown(diff.after)}`;
}

function lookup(document: Json, path: readonly string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Json | undefined)?.[key], document);
}
