import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../platform/logger.js';

/** Which stored row a ciphertext belongs to: a sealed blob copied to another row does not open there. */
export interface CipherBinding {
  connectorAccountId: string;
  type: string;
}

export interface CredentialsCipher {
  seal: (credentials: object, binding: CipherBinding) => string;
  open: (sealed: string, binding: CipherBinding) => unknown;
  /** A keyed digest: lets a secret take part in an identity without showing it. */
  digest: (purpose: string, value: string) => string;
}

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** AES-256-GCM, a fresh random 12-byte IV per sealing, the row as additional authenticated data. */
export function createCredentialsCipher(key: Buffer): CredentialsCipher {
  if (key.length !== 32) throw new Error('the connector secret key must be 32 bytes');
  // Never the same key for two algorithms: the digest gets its own, derived one.
  const digestKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'task-service connector identity digest', 32));
  const aad = (binding: CipherBinding) => Buffer.from(`${binding.connectorAccountId}:${binding.type}`, 'utf8');
  return {
    seal(credentials, binding) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(aad(binding));
      const ciphertext = Buffer.concat([cipher.update(JSON.stringify(credentials), 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ciphertext.toString('base64url')].join('.');
    },
    open(sealed, binding) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
        throw new Error('stored connector credentials are not in a format this server reads');
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'), { authTagLength: TAG_BYTES });
      decipher.setAAD(aad(binding));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]);
      return JSON.parse(plain.toString('utf8')) as unknown;
    },
    digest(purpose, value) {
      return createHmac('sha256', digestKey).update(`${purpose}\0${value}`).digest('hex');
    },
  };
}

/**
 * CONNECTOR_SECRET_KEY when set (64 hex characters or base64 of 32 bytes); otherwise (development,
 * tests: config.ts refuses production without one) a key generated once and kept beside the data.
 */
export function loadConnectorSecretKey(config: Pick<Config, 'CONNECTOR_SECRET_KEY' | 'DATA_DIR'>, logger: Logger): Buffer {
  if (config.CONNECTOR_SECRET_KEY) return decodeKey(config.CONNECTOR_SECRET_KEY);
  const file = join(config.DATA_DIR, 'connector-secret-key');
  mkdirSync(config.DATA_DIR, { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    logger.warn({ file }, 'CONNECTOR_SECRET_KEY is not set: generated a connector key; set one before going to production');
  } catch (err) {
    // Another process (or an earlier start) made it first: use that one, so every instance agrees.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return decodeKey(readFileSync(file, 'utf8').trim());
}

function decodeKey(text: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('the connector secret key must be 32 bytes (64 hex characters or base64)');
  return key;
}
