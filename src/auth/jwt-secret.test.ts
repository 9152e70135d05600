import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resolveJwtSecret } from './jwt-secret.js';

const dirs: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'jwt-secret-'));
  dirs.push(dir);
  return join(dir, 'data');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the JWT signing secret', () => {
  it('is JWT_SECRET when it is set, and then nothing is written', () => {
    const dataDir = freshDir();
    expect(resolveJwtSecret({ JWT_SECRET: 'x'.repeat(40), DATA_DIR: dataDir })).toBe('x'.repeat(40));
    expect(() => statSync(join(dataDir, 'jwt-secret'))).toThrow();
  });

  it('without JWT_SECRET, is generated once into the data folder, readable by the owner only, and reused', () => {
    const dataDir = freshDir();
    const first = resolveJwtSecret({ JWT_SECRET: undefined, DATA_DIR: dataDir });
    expect(first.length).toBeGreaterThanOrEqual(64);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(resolveJwtSecret({ JWT_SECRET: undefined, DATA_DIR: dataDir })).toBe(first);
  });

  it('refuses a stored secret that is too short to be safe', () => {
    const dataDir = freshDir();
    resolveJwtSecret({ JWT_SECRET: undefined, DATA_DIR: dataDir });
    writeFileSync(join(dataDir, 'jwt-secret'), 'short\n');
    expect(() => resolveJwtSecret({ JWT_SECRET: undefined, DATA_DIR: dataDir })).toThrow(/shorter than 32 characters/);
  });
});
