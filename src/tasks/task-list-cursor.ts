import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { TaskSort } from '../../sdk/src/task-query.js';
import { errors } from '../platform/errors.js';
import { parseJson, UUID } from '../platform/page-cursor.js';
import type { Drive } from './task-search-plan.js';
import { sortKeyLength, type SortPosition, type TaskFilters } from './task-search.repository.js';

// A page cursor of `listTasks`: a digest of the filters and sort that made the page, the last row's sort
// key, and for a query with words or labels how its pages are read (src/tasks/task-search-plan.ts,
// planAs). Opaque to clients (base64url of JSON); decoding checks every part, so a cursor that is not
// one of ours, or one replayed with other filters or another sort, is a 400 rather than a wrong page.

export interface TaskCursor {
  position: SortPosition;
  /** Absent in a cursor of a query without words or labels, and in one issued before cursors named it. */
  drive?: Drive;
}

export function encodeTaskCursor(view: string, { position, drive }: TaskCursor): string {
  return Buffer.from(JSON.stringify(drive === undefined ? [view, ...position] : [view, ...position, drive])).toString('base64url');
}

/** A digest of what a page is of: the same filters (as the index compares them) and sort give the same. */
export function viewDigest(filters: TaskFilters, sort: TaskSort): string {
  const canonical = JSON.stringify([
    sort,
    filters.status,
    [...new Set(filters.wordRanges.map(([from]) => from))].sort(),
    [...new Set(filters.labelKeys)].sort(),
    [...new Set(filters.priorities)].sort(),
    filters.dueAfter ?? null,
    filters.dueBefore ?? null,
    filters.hasDue ?? null,
    filters.updatedSince ?? null,
  ]);
  let digest = digests.get(canonical);
  if (digest === undefined) {
    digest = createHash('sha256').update(canonical).digest('base64url').slice(0, 12);
    digests.set(canonical, digest);
  }
  return digest;
}
/** Most pages are of a few views (the plain list above all): each digested once. */
const digests = new LRUCache<string, string>({ max: 1_000 });

/** What a cursor must have been made for: its view, sort, and the drives that view's pages can be read by. */
export interface CursorView {
  view: string;
  sort: TaskSort;
  drives: readonly Drive[];
  /** The view of the plain list, the only one a cursor from before filters existed can continue. */
  legacyView: string;
}

export function decodeTaskCursor(cursor: string, { view, sort, drives, legacyView }: CursorView): TaskCursor {
  const parsed = parseJson(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Array.isArray(parsed) || Buffer.from(JSON.stringify(parsed)).toString('base64url') !== cursor) throw notOurs();
  // A cursor from before filters existed: a plain list's [createdAt, id].
  if (parsed.length === 2 && typeof parsed[0] === 'number') {
    if (view !== legacyView) throw otherView();
    return { position: checkedPosition(parsed, 'created') };
  }
  const [digest, ...rest] = parsed as unknown[];
  if (typeof digest !== 'string') throw notOurs();
  if (digest !== view) throw otherView();
  if (rest.length !== sortKeyLength(sort) + 1) return { position: checkedPosition(rest, sort) };
  const drive = rest.pop();
  if (!drives.includes(drive as Drive)) throw notOurs();
  return { position: checkedPosition(rest, sort), drive: drive as Drive };
}

function checkedPosition(position: unknown[], sort: TaskSort): SortPosition {
  const id = position.at(-1);
  const numbers = position.slice(0, -1);
  if (position.length !== sortKeyLength(sort) || typeof id !== 'string' || !UUID.test(id) || !numbers.every((n) => Number.isSafeInteger(n))) throw notOurs();
  return position as SortPosition;
}

const notOurs = () => errors.validation([{ path: '/query/cursor', message: 'is not a cursor from a previous page' }]);
const otherView = () =>
  errors.validation([{ path: '/query/cursor', message: 'was made for other filters or another sort: send the same ones as for its page, or start without a cursor' }]);
