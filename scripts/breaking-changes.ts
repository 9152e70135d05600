import { apiCompare } from 'api-smart-diff';
import { dereference, extraBreakingChanges, typeWidened, type BreakingChange } from './breaking-extra-rules.js';
import type { Json } from './breaking-fixtures.js';

export type { BreakingChange } from './breaking-extra-rules.js';

/**
 * The breaking changes from `before` to `after`: api-smart-diff's (docs/versioning.md says why that
 * library), on the documents with their `$ref`s resolved, read on the operations only (a component is judged where an operation uses it, as a
 * request or a response), less what it calls breaking but is not, plus the rules it misses
 * (scripts/breaking-extra-rules.ts).
 */
export function breakingChanges(before: Json, after: Json): BreakingChange[] {
  const fromLibrary = apiCompare(dereference(before), dereference(after)).diffs.filter((diff) => {
    if (diff.type !== 'breaking' || diff.path[0] !== 'paths') return false;
    const path = diff.path.map(String);
    // Security is judged by the extra rules as a whole: a scope taken away asks less of a caller.
    if (path.includes('security')) return false;
    // A request's type widened (integer to number, null allowed) still takes what it took.
    const inRequest = path.includes('requestBody') || path.includes('parameters');
    if (inRequest && path.at(-1) === 'type' && diff.action === 'replace') return !typeWidened({ type: diff.before }, { type: diff.after });
    return true;
  });
  const changes = fromLibrary.map((diff) => ({
    location: `/${diff.path.map((part) => String(part).replaceAll('~', '~0').replaceAll('/', '~1')).join('/')}`,
    message: diff.description ?? `${diff.action} at ${diff.path.join('.')}`,
  }));
  // A removed property the library named already is not listed twice.
  const named = (extra: BreakingChange) => {
    const property = /property `(?:[^`]*\.)?([^`.[\]]+)(?:\[\])?` removed/.exec(extra.message)?.[1];
    return property !== undefined && changes.some((change) => change.location.startsWith(extra.location) && change.location.endsWith(`/properties/${property}`));
  };
  return [...changes, ...extraBreakingChanges(before, after).filter((extra) => !named(extra))];
}

const majorOf = (version: unknown) => Number(String(version).split('.')[0]);

/** The gate: the new document may break the released one only with a higher major version. */
export function checkAgainstRelease(released: Json, current: Json): { ok: boolean; lines: string[] } {
  const changes = breakingChanges(released, current);
  const from = String(released.info?.version);
  const to = String(current.info?.version);
  const listed = changes.map((change) => `  ${change.location}: ${change.message}`);
  if (changes.length === 0) return { ok: true, lines: [`No breaking change since ${from}.`] };
  if (majorOf(to) > majorOf(from)) return { ok: true, lines: [`${changes.length} breaking change(s) since ${from}, allowed by the major version ${to}:`, ...listed] };
  return {
    ok: false,
    lines: [`${changes.length} breaking change(s) since the released ${from} (info.version is ${to}; a breaking change needs the next major version):`, ...listed],
  };
}
