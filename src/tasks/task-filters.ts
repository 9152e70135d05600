import { labelKey, searchWords } from '../../sdk/src/task-query.js';
import { errors } from '../platform/errors.js';
import { isRfc3339Instant } from '../platform/time.js';
import { MAX_INDEXED_WORD } from './task-index.repository.js';
import type { TaskFilters } from './task-search.repository.js';
import type { ListQuery } from './tasks.service.js';

/** The filters of a list request as the index compares them; times checked as for a write. */
export function taskFilters(query: ListQuery): TaskFilters {
  const optionalTime = (value: string | undefined, path: string) => (value === undefined ? undefined : toEpoch(value, path));
  return {
    status: query.status ?? 'all',
    wordRanges: withoutImplied(searchWords(query.q).map((word) => word.slice(0, MAX_INDEXED_WORD))).map((word) => [word, word + LAST_CODE_POINT]),
    labelKeys: [...new Set((query.label ?? []).map(labelKey))],
    priorities: [...new Set(query.priority ?? [])],
    dueAfter: optionalTime(query.dueAfter, '/query/dueAfter'),
    dueBefore: optionalTime(query.dueBefore, '/query/dueBefore'),
    hasDue: query.hasDue,
    updatedSince: optionalTime(query.updatedSince, '/query/updatedSince'),
  };
}

/** Query words less those another starts with: a word that starts with `report` starts with `rep` too. */
function withoutImplied(words: string[]): string[] {
  return words.filter((word, i) => !words.some((other, j) => j !== i && other.startsWith(word) && (other !== word || j < i)));
}

/** Sorts after every word that starts with the same letters: no word holds it (it is not a letter). */
const LAST_CODE_POINT = String.fromCodePoint(0x10ffff);

/** The document has checked the RFC 3339 shape; a few valid ones (a leap second, a year outside 0000–9999 in UTC) still have no instant here. */
export function toEpoch(value: string, path: string): number {
  const epochMs = Date.parse(value.toUpperCase());
  // An offset can carry a valid RFC 3339 time past year 0000 or 9999 once it is in UTC.
  if (!isRfc3339Instant(epochMs)) {
    throw errors.validation([{ path, message: 'is not a time this service can store' }]);
  }
  return epochMs;
}
