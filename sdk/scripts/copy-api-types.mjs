// The SDK ships the types generated from the API document; copy them in rather than keep a copy in git,
// and give every schema of the document a named export (Task, TaskStatus, TokenPair, ...) derived from them.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
const target = process.argv[2] ?? 'src';
const source = new URL('../../generated/api.d.ts', import.meta.url);
mkdirSync(new URL(`../${target}/`, import.meta.url), { recursive: true });
copyFileSync(source, new URL(`../${target}/api.d.ts`, import.meta.url));

if (target === 'src') {
  // The schema names are the keys of `components.schemas` in the generated file (8 spaces deep).
  const lines = readFileSync(source, 'utf8').split('\n');
  const start = lines.indexOf('    schemas: {');
  const names = [];
  for (let i = start + 1; i < lines.length && lines[i] !== '    };'; i++) {
    const match = /^ {8}([A-Za-z_$][\w$]*): /.exec(lines[i]);
    // `Error` would shadow the global class in an app's imports: index.ts exports it as ErrorBody.
    if (match && match[1] !== 'Error') names.push(match[1]);
  }
  if (start < 0 || names.length === 0) throw new Error('copy-api-types: no components.schemas in generated/api.d.ts');
  const body = names.map((name) => `export type ${name} = Schemas['${name}'];`).join('\n');
  writeFileSync(
    new URL('../src/schemas.ts', import.meta.url),
    `// Written by scripts/copy-api-types.mjs from generated/api.d.ts: one named type per schema of the document.\nimport type { components } from './api.js';\n\ntype Schemas = components['schemas'];\n\n${body}\n`,
  );
  // The contract version the types were generated from: info.version, the document's first two-space `version:` (info comes first).
  const version = /^ {2}version: '?(\d+\.\d+\.\d+[^'\n]*)'?$/m.exec(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8'))?.[1];
  if (!version) throw new Error('copy-api-types: no info.version in openapi/openapi.yaml');
  // The error codes of that contract, for telling a code added by a later minor version (an open enum, docs/versioning.md).
  const errorCodes = /^ {8}ErrorCode: ((?:"[A-Z_]+"(?: \| )?)+);$/m.exec(readFileSync(source, 'utf8'))?.[1]?.split(' | ');
  if (!errorCodes) throw new Error('copy-api-types: no ErrorCode in generated/api.d.ts');
  writeFileSync(
    new URL('../src/contract-version.ts', import.meta.url),
    `// Written by scripts/copy-api-types.mjs from openapi/openapi.yaml.\n/** The version of the API contract (the document's info.version) this SDK was generated from. */\nexport const CONTRACT_VERSION = '${version}';\n\n` +
      `/** The error codes of that contract; a later minor version may add codes (ErrorCode is an open enum). */\nexport const KNOWN_ERROR_CODES: readonly string[] = [${errorCodes.map((code) => code.replaceAll('"', "'")).join(', ')}];\n`,
  );
}
