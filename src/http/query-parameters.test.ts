import { describe, expect, it } from 'vitest';
import { readOpenApiDocument } from './openapi-document.js';

interface Parameter {
  $ref?: string;
  name: string;
  in: string;
  style?: string;
  explode?: boolean;
  content?: unknown;
  schema?: { type?: string | string[]; $ref?: string };
}

// src/app.ts reads queries with Node's own parser ('simple'), which never nests: it holds while no
// query parameter of the document is an object or an array, or is read by a style that splits it.
describe('the query parameters of the document', () => {
  it('are all scalars, read as plain name=value pairs', () => {
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
          const types = [parameter.schema?.type ?? 'unknown'].flat();
          const scalar = types.every((type) => ['string', 'integer', 'number', 'boolean', 'null'].includes(type));
          if (!scalar || parameter.content !== undefined || parameter.style !== undefined || parameter.explode !== undefined) {
            offending.push(`${method.toUpperCase()} ${path} ?${parameter.name}`);
          }
        }
      }
    }
    expect(seen).toBeGreaterThan(5);
    expect(offending).toEqual([]);
  });
});
