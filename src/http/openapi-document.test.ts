import { execFileSync } from 'node:child_process';
import { readFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serialize } from 'node:v8';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { openApiPath } from '../platform/paths.js';
import { corsHeaders, rateLimitHeaderNames } from './cors.js';
import { readOpenApiDocument } from './openapi-document.js';
import { operationTable } from './operation-table.js';

/** V8's serializer writes a one-byte string with the tag '"' and a two-byte one with 'c' (after its two-byte header). */
const isOneByte = (text: string) => serialize(text)[2] === 0x22;

/** Every character of `text` fits in one byte. */
const fitsOneByte = (text: string) => [...text].every((character) => character.codePointAt(0)! <= 0xff);

/** Every string value of `value` (keys are V8's one copy of each name), with where it is. */
function* stringsOf(value: unknown, at = ''): Generator<[string, string]> {
  if (typeof value === 'string') yield [at, value];
  else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) yield* stringsOf(item, `${at}/${key}`);
  }
}

describe('the OpenAPI document as read at start-up', () => {
  const { yaml, document } = readOpenApiDocument();

  it('is the document the YAML says, whole', () => {
    expect(yaml).toBe(readFileSync(openApiPath, 'utf8'));
    expect(document).toEqual(parse(yaml));
  });

  it('keeps every string value that can be one byte a character as one, and the operation table’s paths and operationIds', () => {
    const strings = [...stringsOf(document)];
    expect(strings.length).toBeGreaterThan(1000);
    // The YAML text itself is not one-byte: else the check would hold without the read making it so.
    expect(isOneByte(yaml)).toBe(false);
    expect(strings.filter(([, text]) => fitsOneByte(text) && !isOneByte(text)).map(([at]) => at)).toEqual([]);
    expect(strings.some(([, text]) => !fitsOneByte(text))).toBe(true);
    const table = operationTable(document);
    expect(table.filter(({ path, operationId }) => !isOneByte(path) || !isOneByte(operationId)).map(({ operationId }) => operationId)).toEqual([]);
  });

  it('makes the document’s keys one-byte, and so the same names written later in our code (a fresh process: the first text of a name is the one kept)', () => {
    // In this worker other files may have parsed the YAML already; V8 would hand their two-byte names out.
    const script = `
      import { serialize } from 'node:v8';
      import { readOpenApiDocument } from ${JSON.stringify(fileURLToPath(new URL('./openapi-document.ts', import.meta.url)))};
      const isOneByte = (text) => serialize(text)[2] === 0x22;
      const keys = [];
      const walk = (value) => { if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) { keys.push(key); walk(item); } };
      walk(readOpenApiDocument().document);
      // A function compiled after the read, as the count step's is on the first request.
      const literal = new Function("return 'X-RateLimit-Remaining-sustained'")();
      const fits = (text) => [...text].every((c) => c.codePointAt(0) <= 0xff);
      console.log(JSON.stringify({ keys: keys.length, twoByte: keys.filter((key) => fits(key) && !isOneByte(key)), literal: isOneByte(literal) }));`;
    const answer = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    const { keys, twoByte, literal } = JSON.parse(answer) as { keys: number; twoByte: string[]; literal: boolean };
    expect(keys).toBeGreaterThan(5000);
    expect(twoByte).toEqual([]);
    expect(literal).toBe(true);
  });

  it('gives a one-byte Access-Control-Expose-Headers, though it lists the document’s header names', () => {
    const set: Record<string, string> = {};
    const res = { setHeader: (name: string, value: string) => (set[name] = value) };
    corsHeaders('*', rateLimitHeaderNames(document))({ headers: {}, method: 'GET' } as never, res as never, () => {});
    expect(set['Access-Control-Expose-Headers']).toContain('X-RateLimit-Limit');
    expect(isOneByte(set['Access-Control-Expose-Headers']!)).toBe(true);
  });

  it('keeps the parts YAML shares shared, and a key named __proto__ a key', () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-document-'));
    const path = join(dir, 'doc.yaml');
    writeFileSync(path, 'a: &shared {x: "—1"}\nb: *shared\nc: {__proto__: {polluted: true}}\n');
    const read = readOpenApiDocument(path).document as { a: object; b: object; c: Record<string, unknown> };
    expect(read.a).toBe(read.b);
    expect(read.a).toEqual({ x: '—1' });
    expect(Object.keys(read.c)).toEqual(['__proto__']);
    expect((read.c as { polluted?: boolean }).polluted).toBeUndefined();
  });
});
