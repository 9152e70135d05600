import { describe, expect, it } from 'vitest';
import { displayUserCode, newUserCode, normaliseUserCode } from './user-codes.js';

describe('user codes', () => {
  it('are 8 consonants, shown in two groups of four', () => {
    for (let i = 0; i < 50; i++) {
      const code = newUserCode();
      expect(code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      expect(displayUserCode(code)).toMatch(/^[A-Z]{4}-[A-Z]{4}$/);
    }
  });

  it('read back in any case, with or without the dash or spaces', () => {
    for (const typed of ['BCDF-GHJK', 'bcdf-ghjk', 'bcdfghjk', ' Bcdf ghjk ']) expect(normaliseUserCode(typed)).toBe('BCDFGHJK');
  });

  it('refuse what cannot be a code: wrong length, vowels, digits', () => {
    for (const typed of ['BCDF-GHJ', 'BCDF-GHJKL', 'ABCD-EFGH', 'BCDF-GHJ1', '', undefined]) expect(normaliseUserCode(typed)).toBeUndefined();
  });
});
