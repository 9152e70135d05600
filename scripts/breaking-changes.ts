import { apiCompare } from 'api-smart-diff';
import { dereference, extraBreakingChanges, typeWidened, type BreakingChange } from './breaking-extra-rules.js';
import type { Json } from './breaking-fixtures.js';
import { describeLibraryDiff } from './breaking-words.js';

export type { BreakingChange } from './breaking-extra-rules.js';

/**
 * The breaking changes from `before` to `after`: api-smart-diff's (docs/versioning.md says why that
 * library) on what a client sends (request bodies, parameters) and on operations removed, read on the
 * documents with their `$ref`s resolved, in the gate's own words (scripts/breaking-words.ts), less what
 * it calls breaking but is not; then the rules it misses (scripts/breaking-extra-rules.ts), which
 * judge everything a client receives: responses and webhook payloads, open enums among them.
 */
export function breakingChanges(before: Json, after: Json): BreakingChange[] {
  const [was, now] = [dereference(before), dereference(after)];
  const fromLibrary = apiCompare(was, now).diffs.filter((diff) => {
    if (diff.type !== 'breaking' || diff.path[0] !== 'paths') return false;
    const path = diff.path.map(String);
    // What a client receives is judged by the extra rules (oneOf/allOf, open enums, webhooks alike).
    if (path[3] === 'responses') return false;
    // Security is judged by the extra rules as a whole: a scope taken away asks less of a caller.
    if (path.includes('security')) return false;
    // A request's type widened (integer to number, null allowed) still takes what it took.
    const inRequest = path.includes('requestBody') || path.includes('parameters');
    if (inRequest && path.at(-1) === 'type' && diff.action === 'replace') return !typeWidened({ type: diff.before }, { type: diff.after });
    return true;
  });
  return [...fromLibrary.map((diff) => describeLibraryDiff(diff, was, now)), ...extraBreakingChanges(before, after)];
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
