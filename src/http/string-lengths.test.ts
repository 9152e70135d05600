import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';

// The validator (src/http/openapi-validator.ts) and the MCP tools check every title, note and cursor
// with ajv's minLength and maxLength, which count code points as JSON Schema says.

/** What JSON Schema counts: code points, a surrogate pair as one, a lone surrogate as one. */
const codePoints = (text: string) => [...text].length;

const PIECES = ['a', 'é', '\u{1F600}', '\ud83d', '\ude00', '\u{10FFFF}'];

/** Every string of up to `n` pieces: pairs, lone surrogates and pairs made of two lone halves at every position. */
function stringsUpTo(n: number): string[] {
  let level = [''];
  const all = [''];
  for (let i = 0; i < n; i++) {
    level = level.flatMap((prefix) => PIECES.map((piece) => prefix + piece));
    all.push(...level);
  }
  return all;
}

describe('string length limits (ajv)', () => {
  const ajv = new Ajv({ allErrors: true, $data: true });
  const strings = stringsUpTo(4);

  it.each([
    [0, 0],
    [1, 1],
    [1, 3],
    [2, 5],
    [3, 3],
    [4, 8],
  ])('minLength %i, maxLength %i: the answer of counting code points for every string of up to four pieces', (min, max) => {
    const fixed = ajv.compile({ type: 'string', minLength: min, maxLength: max });
    const fromData = ajv.compile({
      type: 'object',
      properties: { text: { type: 'string', minLength: { $data: '1/min' }, maxLength: { $data: '1/max' } } },
    });
    const wrong = strings.filter((text) => {
      const expected = codePoints(text) >= min && codePoints(text) <= max;
      return fixed(text) !== expected || fromData({ text, min, max }) !== expected;
    });
    expect(wrong).toEqual([]);
  });

  it('names the limit a string breaks, as before', () => {
    const validate = ajv.compile({ type: 'string', minLength: 2, maxLength: 3 });
    validate('\u{1F600}\u{1F600}\u{1F600}\u{1F600}');
    expect(validate.errors).toMatchObject([{ keyword: 'maxLength', params: { limit: 3 }, message: 'must NOT have more than 3 characters' }]);
    validate('\u{1F600}');
    expect(validate.errors).toMatchObject([{ keyword: 'minLength', params: { limit: 2 }, message: 'must NOT have fewer than 2 characters' }]);
  });
});
