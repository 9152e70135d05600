import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Logger } from '../platform/logger.js';
import { randomSecret } from './secrets.js';

const MIN_SECRET_LENGTH = 32;

/**
 * The HS256 key: JWT_SECRET when set (config refuses production without a strong one); otherwise a
 * secret generated once and kept in the data folder, so access tokens survive a restart in development.
 */
export function resolveJwtSecret(config: Pick<Config, 'JWT_SECRET' | 'DATA_DIR'>, logger?: Logger): string {
  if (config.JWT_SECRET) return config.JWT_SECRET;
  const path = join(config.DATA_DIR, 'jwt-secret');
  const stored = readIfPresent(path);
  if (stored !== undefined) return checked(stored, path);
  mkdirSync(config.DATA_DIR, { recursive: true });
  // Written aside and linked into place: the file appears whole, and when two processes start
  // together the second one's link fails and it reads the first one's secret.
  const draft = `${path}.${process.pid}.tmp`;
  writeFileSync(draft, `${randomSecret(48)}\n`, { mode: 0o600 });
  try {
    linkSync(draft, path);
    logger?.warn({ path }, 'JWT_SECRET is not set: generated a signing secret for this data folder');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(draft, { force: true });
  }
  return checked(readFileSync(path, 'utf8'), path);
}

function readIfPresent(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

function checked(contents: string, path: string): string {
  const secret = contents.trim();
  if (secret.length < MIN_SECRET_LENGTH) {
    throw new Error(`The JWT signing secret in ${path} is shorter than ${MIN_SECRET_LENGTH} characters; delete the file or set JWT_SECRET`);
  }
  return secret;
}
