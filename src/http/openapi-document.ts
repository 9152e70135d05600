import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { openApiPath } from '../platform/paths.js';

/** The contract as the service reads it at start-up: the text served as YAML, and its parsed form. */
export interface OpenApiDocument {
  readonly yaml: string;
  readonly document: Record<string, unknown>;
}

/** Read once by the process entry (wiring.ts) and passed down: the routes, the validator, the docs and the MCP tools. */
export function readOpenApiDocument(path: string = openApiPath): OpenApiDocument {
  const yaml = readFileSync(path, 'utf8');
  return { yaml, document: parse(yaml) as Record<string, unknown> };
}
