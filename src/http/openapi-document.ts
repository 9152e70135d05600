import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { oneByte } from '../platform/one-byte.js';
import { openApiPath } from '../platform/paths.js';

/** The contract as the service reads it at start-up: the text served as YAML, and its parsed form. */
export interface OpenApiDocument {
  readonly yaml: string;
  readonly document: Record<string, unknown>;
}

/** Read once by the process entry (wiring.ts) and passed down: the routes, the validator, the docs and the MCP tools. */
export function readOpenApiDocument(path: string = openApiPath): OpenApiDocument {
  const yaml = readFileSync(path, 'utf8');
  const names = oneByteNames(yaml);
  const document = compactStrings(parse(yaml)) as Record<string, unknown>;
  // Alive until the document's own keys are made: they are then these strings.
  names.clear();
  return { yaml, document };
}

/**
 * The document's keys, one byte a character. V8 keeps one copy of each property name (and of each
 * literal in our code, made when a function is first compiled): the first text of a name is the one
 * every later use gets. The keys parsed out of the YAML text, which has characters beyond one byte, are
 * two-byte, so the first `'X-RateLimit-Limit'` was the document's: the eleven rate-limit headers set
 * on every response went through ICU's lower-casing in `setHeader` and made the head two-byte (about
 * 20,000 instructions of a `GET /me`: bench/functions.ts, docs/benchmarks.md#pipeline). The text of
 * every line's key, made one-byte and kept as a name before the parse asks for it, is the copy kept.
 */
function oneByteNames(yaml: string): Set<string> {
  const names = new Set<string>();
  for (const [, , quoted, plain] of yaml.matchAll(KEYS)) names.add(internalized(oneByte((quoted ?? plain)!)));
  return names;
}

/**
 * A key: at the start of a line (after `- ` items), or after `{` or `,` in a flow mapping; quoted, or plain
 * up to the first `:` followed by a space. A key with escapes is left to the parse; text that only looks like a
 * key (in a description) adds a name no one uses. At most 200 characters: every `,` of a long flow list starts
 * a look for a key, and an unbounded one made such a line's scan grow with its length squared.
 */
const KEYS = /(?:^[ \t]*(?:- +)*|[{,][ \t]*)(?:(['"])([^'"\n]{1,200})\1|([^\s'"#{}[\],][^\n]{0,200}?)):(?=[ \t\r\n]|$)/gm;

/** V8 keeps a property name as its one copy of that text: the same text used as a name later is this string. */
function internalized(name: string): string {
  return Object.keys({ [name]: true })[0]!;
}

/**
 * The document with each string one byte a character where it can be (src/platform/one-byte.ts): an
 * operationId joined into a request's access line made the line, and the log's gathered lines,
 * two-byte. Keys are V8's one copy of each name, made one-byte before the parse (`oneByteNames`).
 * Shared parts (YAML aliases) stay shared.
 */
function compactStrings(value: unknown, done = new Map<object, unknown>()): unknown {
  if (typeof value === 'string') return oneByte(value);
  if (typeof value !== 'object' || value === null) return value;
  const known = done.get(value);
  if (known !== undefined) return known;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    done.set(value, copy);
    for (const item of value) copy.push(compactStrings(item, done));
    return copy;
  }
  const copy: Record<string, unknown> = {};
  done.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    // Defined, not assigned: a key named __proto__ stays a key.
    Object.defineProperty(copy, key, { value: compactStrings(item, done), enumerable: true, writable: true, configurable: true });
  }
  return copy;
}
