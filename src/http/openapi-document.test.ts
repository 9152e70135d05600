import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { openApiPath } from '../platform/paths.js';
import { readOpenApiDocument } from './openapi-document.js';

describe('the OpenAPI document as read at start-up', () => {
  it('is the document the YAML says, whole', () => {
    const { yaml, document } = readOpenApiDocument();
    expect(yaml).toBe(readFileSync(openApiPath, 'utf8'));
    expect(document).toEqual(parse(yaml));
  });

  it('keeps the parts YAML shares shared, and a key named __proto__ a key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-document-'));
    const path = join(dir, 'doc.yaml');
    writeFileSync(path, 'a: &shared {x: "1"}\nb: *shared\nc: {__proto__: {polluted: true}}\n');
    const read = readOpenApiDocument(path).document as { a: object; b: object; c: Record<string, unknown> };
    expect(read.a).toBe(read.b);
    expect(read.a).toEqual({ x: '1' });
    expect(Object.keys(read.c)).toEqual(['__proto__']);
    expect((read.c as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
