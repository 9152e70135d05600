import { randomInt } from 'node:crypto';

/**
 * RFC 8628 §6.1: user codes of 8 characters from 20 consonants (no vowels, so no words; no 0/O or
 * 1/I to confuse), about 34.5 bits, shown as BCDF-GHJK. People may type them in any case, with or
 * without the dash or spaces.
 */
const ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const LENGTH = 8;

export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** The code as stored and compared: upper case, separators dropped; undefined when it cannot be one of ours. */
export function normaliseUserCode(input: string | undefined): string | undefined {
  if (input === undefined) return undefined;
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== LENGTH || [...code].some((char) => !ALPHABET.includes(char))) return undefined;
  return code;
}

/** The code as people read it: two groups of four. */
export function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}
