import { parse } from 'node:querystring';
import { describe, expect, it } from 'vitest';
import { parseQuery } from './query-parser.js';

/** What a caller of `req.query` can tell apart: the names in order, their values, and what is inherited. */
const observed = (query: Record<string, unknown>) => ({
  entries: Object.entries(query),
  inherited: ['toString', 'constructor', 'hasOwnProperty', '__proto__'].filter((name) => name in query && !Object.hasOwn(query, name)),
});

describe('parseQuery', () => {
  const queries = [
    '',
    'cursor=WzAsMTc5NTY3NDk0Nzc3NV0.q6kgMkPfaIE9ydYoyTotyA',
    'limit=100&cursor=abc',
    'a=1&&b=2',
    '&',
    '&&',
    'a',
    'a&b=',
    '=',
    '=x',
    'a=1=2',
    '&a=1&',
    'a=1&a=2',
    'a=1&b=2&a=3',
    '__proto__=1',
    'constructor=2&toString=3&hasOwnProperty=4',
    'a=%zz',
    'a=%41',
    'a+b=c+d',
    'status=open;x=1',
    'title=caf\u00e9&emoji=\u{1F600}',
    'updatedSince=2020-01-01T00:00:00Z',
    'a=?/:@!$\'()*,',
    Array.from({ length: 600 }, (_, i) => `k${i}=${i}`).join('&'),
    Array.from({ length: 1200 }, () => 'a').join('&'),
    Array.from({ length: 1200 }, (_, i) => `k${i}`).join('&'),
  ];

  it.each(queries.map((query) => [query.length > 60 ? `${query.slice(0, 60)}... (${query.length} characters)` : query, query]))(
    'answers what querystring.parse answers for %j',
    (_name, query) => {
      expect(observed(parseQuery(query))).toEqual(observed(parse(query)));
    },
  );

  it('answers what querystring.parse answers for random queries of the characters that matter', () => {
    const alphabet = ['a', 'b', '_', '&', '&', '=', '=', '%', '+', '2', '0', 'F', '\u00e9', '.'];
    let seed = 22;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let i = 0; i < 5000; i++) {
      const query = Array.from({ length: Math.floor(random() * 24) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      expect(observed(parseQuery(query)), query).toEqual(observed(parse(query)));
    }
  });

  it('answers an empty query for no query at all, as Express asks for a URL without one', () => {
    expect(observed(parseQuery(null))).toEqual(observed(parse('')));
    expect(observed(parseQuery(undefined))).toEqual(observed(parse('')));
  });
});
