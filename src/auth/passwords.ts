import argon2 from 'argon2';
import { randomSecret } from './secrets.js';

/** OWASP Password Storage Cheat Sheet, argon2id first option: 19 MiB, 2 passes, 1 lane. */
export const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface Passwords {
  hash: (password: string) => Promise<string>;
  /** Verifies against the stored hash, or against a dummy hash when there is none: the same work either way. */
  verify: (storedHash: string | undefined, password: string) => Promise<boolean>;
}

export function createPasswords(): Passwords {
  const hash = (password: string) => argon2.hash(password, ARGON2_OPTIONS);
  // Made at start-up, so even the first unknown email costs no more than a known one.
  const dummyHash = hash(randomSecret());
  dummyHash.catch(() => undefined);
  return {
    hash,
    verify: async (storedHash, password) => {
      if (storedHash === undefined) {
        await argon2.verify(await dummyHash, password);
        return false;
      }
      try {
        return await argon2.verify(storedHash, password);
      } catch {
        return false;
      }
    },
  };
}
