import { describe, expect, it } from 'vitest';
import { readOpenApiDocument } from './openapi-document.js';

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
  content?: unknown;
  schema?: { type?: string | string[]; $ref?: string; items?: { type?: string | string[] } };
}

const SCALARS = ['string', 'integer', 'number', 'boolean', 'null'];
const scalar = (type: string | string[] | undefined) => [type ?? 'unknown'].flat().every((one) => SCALARS.includes(one));

// src/app.ts reads queries with Node's own parser ('simple'), which never nests and gives a name sent
// several times as an array: it holds while every query parameter of the document is a scalar, or an
// array of scalars sent as the name repeated (style form, explode, OpenAPI's default for a query).
describe('the query parameters of the document', () => {
  it('are scalars, or arrays of scalars sent as the name repeated, read as plain name=value pairs', () => {
    const document = readOpenApiDocument().document as {
      paths: Record<string, Record<string, { parameters?: Parameter[] }>>;
      components: { parameters?: Record<string, Parameter> };
    };
    const resolved = (parameter: Parameter) => (parameter.$ref ? document.components.parameters![parameter.$ref.split('/').pop()!]! : parameter);
    const offending: string[] = [];
    let seen = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const parameter of [...((item.parameters as unknown as Parameter[] | undefined) ?? []), ...(operation.parameters ?? [])].map(resolved)) {
          if (parameter.in !== 'query') continue;
          seen++;
          const repeated = parameter.schema?.type === 'array' && scalar(parameter.schema.items?.type) && (parameter.style ?? 'form') === 'form' && parameter.explode !== false;
          const plain = scalar(parameter.schema?.type) && parameter.style === undefined && parameter.explode === undefined;
          if (!(plain || repeated) || parameter.content !== undefined) {
            offending.push(`${method.toUpperCase()} ${path} ?${parameter.name}`);
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});
