import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CONTRACT_VERSION } from './contract-version.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the SDK version', () => {
  it('is the contract version it was generated from: info.version of openapi/openapi.yaml', () => {
    expect(CONTRACT_VERSION).toBe((parse(read('../../openapi/openapi.yaml')) as { info: { version: string } }).info.version);
    expect((JSON.parse(read('../package.json')) as { version: string }).version).toBe(CONTRACT_VERSION);
  });
});
