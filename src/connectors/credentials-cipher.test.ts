import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../platform/logger.js';
import { createCredentialsCipher, loadConnectorSecretKey } from './credentials-cipher.js';

const key = Buffer.alloc(32, 7);
const binding = { connectorAccountId: '5b0c8a52-7d2e-4d7a-9a53-0f1f5e8f2a11', type: 'github' };
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the credentials cipher', () => {
  it('opens what it sealed, and the sealed text does not contain the secret', () => {
    const cipher = createCredentialsCipher(key);
    const sealed = cipher.seal({ token: 'ghp_verysecret' }, binding);
    expect(sealed).not.toContain('ghp_verysecret');
    expect(sealed).not.toContain(Buffer.from('ghp_verysecret').toString('base64'));
    expect(cipher.open(sealed, binding)).toEqual({ token: 'ghp_verysecret' });
  });

  it('uses a fresh IV each time, so the same credentials never seal to the same text', () => {
    const cipher = createCredentialsCipher(key);
    expect(cipher.seal({ token: 't' }, binding)).not.toBe(cipher.seal({ token: 't' }, binding));
  });

  it('refuses to open a ciphertext moved to another row or another type', () => {
    const cipher = createCredentialsCipher(key);
    const sealed = cipher.seal({ token: 't' }, binding);
    expect(() => cipher.open(sealed, { ...binding, connectorAccountId: '00000000-0000-4000-8000-000000000000' })).toThrow();
    expect(() => cipher.open(sealed, { ...binding, type: 'ical' })).toThrow();
  });

  it('refuses a tampered ciphertext or tag, and another key', () => {
    const cipher = createCredentialsCipher(key);
    const [version, iv, tag, body] = cipher.seal({ token: 'abcdef' }, binding).split('.') as [string, string, string, string];
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    expect(() => cipher.open([version, iv, tag, flip(body)].join('.'), binding)).toThrow();
    expect(() => cipher.open([version, iv, flip(tag), body].join('.'), binding)).toThrow();
    expect(() => createCredentialsCipher(Buffer.alloc(32, 8)).open([version, iv, tag, body].join('.'), binding)).toThrow();
  });

  it('gives a stable keyed digest that depends on the key', () => {
    const digest = createCredentialsCipher(key).digest('ical-query', 'token=abc');
    expect(digest).toBe(createCredentialsCipher(key).digest('ical-query', 'token=abc'));
    expect(digest).not.toBe(createCredentialsCipher(Buffer.alloc(32, 9)).digest('ical-query', 'token=abc'));
  });
});

describe('the connector secret key', () => {
  const logger = createLogger('silent');

  it('reads CONNECTOR_SECRET_KEY as hex or base64', () => {
    expect(loadConnectorSecretKey({ CONNECTOR_SECRET_KEY: 'ab'.repeat(32), DATA_DIR: '/nonexistent' }, logger)).toEqual(Buffer.alloc(32, 0xab));
    const base64 = Buffer.alloc(32, 3).toString('base64');
    expect(loadConnectorSecretKey({ CONNECTOR_SECRET_KEY: base64, DATA_DIR: '/nonexistent' }, logger)).toEqual(Buffer.alloc(32, 3));
  });

  it('without one, generates a key once into DATA_DIR, readable only by its owner, and reuses it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'connector-key-'));
    dirs.push(dir);
    const first = loadConnectorSecretKey({ CONNECTOR_SECRET_KEY: undefined, DATA_DIR: dir }, logger);
    const second = loadConnectorSecretKey({ CONNECTOR_SECRET_KEY: undefined, DATA_DIR: dir }, logger);
    expect(first).toHaveLength(32);
    expect(second).toEqual(first);
    const file = join(dir, 'connector-secret-key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8')).toBe(first.toString('hex'));
  });
});
