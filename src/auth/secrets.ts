import { createHash, randomBytes } from 'node:crypto';

/** A fresh random secret of `bytes` bytes (256 bits by default), base64url without padding. */
export const randomSecret = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Secrets are stored only as this digest: a leaked table gives nothing to sign in with. */
export const sha256Hex = (value: string): string => createHash('sha256').update(value).digest('hex');
