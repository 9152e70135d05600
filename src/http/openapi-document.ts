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
  return { yaml, document: compactStrings(parse(yaml)) as Record<string, unknown> };
}

/**
 * The document with each string one byte a character where it can be (src/platform/one-byte.ts): an
 * operationId joined into a request's access line made the line, and the log's gathered lines,
 * two-byte. Keys stay as V8 keeps property names, one copy of each text: what is taken from a key into
 * a request's output goes through `oneByte` where it is taken (the operation table's path, the CORS
 * header). Shared parts (YAML aliases) stay shared.
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
