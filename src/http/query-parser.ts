import { parse, type ParsedUrlQuery } from 'node:querystring';

/**
 * Express's `req.query`: Node's querystring.parse (Express's 'simple' parser), its answer built here
 * for a query it would hand back as it came (no `%` or `+` to decode, no name twice, fewer pairs than
 * its limit of 1000), and by it for any other. querystring.parse took 0.6 µs of an empty poll of the
 * change feed, `?cursor=...`, most of what that poll cost over `GET /me` (docs/benchmarks.md#change-feed).
 */
export function parseQuery(text: string | null | undefined): ParsedUrlQuery {
  if (typeof text !== 'string' || text.length >= PLAIN_QUERY_MAX_LENGTH || isEncoded(text)) return parse(text ?? '');
  const query = Object.create(null) as Record<string, string>;
  for (let start = 0; start < text.length; ) {
    const ampersand = text.indexOf('&', start);
    const end = ampersand < 0 ? text.length : ampersand;
    if (end > start) {
      const equals = text.indexOf('=', start);
      const hasValue = equals >= 0 && equals < end;
      const name = text.slice(start, hasValue ? equals : end);
      if (name in query) return parse(text);
      query[name] = hasValue ? text.slice(equals + 1, end) : '';
    }
    start = end + 1;
  }
  return query;
}

/** A query shorter than this has fewer pairs than querystring.parse's limit of 1000 (maxKeys). */
const PLAIN_QUERY_MAX_LENGTH = 1000;
// Two scans for one character each cost a third of one regular-expression scan for either (callgrind, an empty poll's query).
const isEncoded = (text: string) => text.includes('%') || text.includes('+');

