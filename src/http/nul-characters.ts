import type { RequestHandler } from 'express';
import { errors } from '../platform/errors.js';

// PostgreSQL cannot store U+0000 in text (it fails the statement, error 22021) and no field of the
// document needs it: a request carrying one anywhere is refused up front, on both databases alike.

const NUL = '\u0000';

/**
 * A step of every counted route, after the body is read. The query and body are searched only when
 * their raw text holds `%00` or `\u0000` (body parsing notes that), so the usual request pays one
 * scan of its raw bytes and nothing more.
 */
export const refuseNulCharacters: RequestHandler = function refuseNulCharacters(req, res, next) {
  const queryMayHoldNul = req.url.includes('%00');
  const path = queryMayHoldNul && /%00/.test(req.path)
    ? '/path'
    : ((queryMayHoldNul ? findNul(req.query, '/query') : undefined) ?? (res.locals.bodyMayHoldNul ? findNul(req.body, '/body') : undefined));
  next(path ? errors.validation([{ path, message: 'must not contain the NUL character (U+0000)' }]) : undefined);
};

/**
 * The JSON pointer of the first string (or key) holding U+0000, if any. Breadth first over a flat
 * list of the containers (a 1 MiB body can nest half a million arrays deep, far past the call stack);
 * a pointer is built only for the one found, so a large body costs about what parsing it did.
 */
export function findNul(root: unknown, rootPointer: string): string | undefined {
  if (typeof root === 'string') return root.includes(NUL) ? rootPointer : undefined;
  const containers: unknown[] = [root];
  const keys: string[] = [rootPointer];
  const parents: number[] = [-1];
  const pointerOf = (index: number, key: string): string => {
    const segments = [escapeKey(key)];
    for (let at = index; at > 0; at = parents[at]!) segments.push(escapeKey(keys[at]!));
    return [rootPointer, ...segments.reverse()].join('/');
  };
  /** Whether `item` is a string holding U+0000; a container is queued to be searched in its turn. */
  const holdsNul = (item: unknown, parent: number, key: string | number): boolean => {
    if (typeof item === 'string') return item.includes(NUL);
    if (item !== null && typeof item === 'object') {
      containers.push(item);
      keys.push(String(key));
      parents.push(parent);
    }
    return false;
  };
  for (let index = 0; index < containers.length; index++) {
    const container = containers[index];
    if (container === null || typeof container !== 'object') continue;
    if (Array.isArray(container)) {
      for (let position = 0; position < container.length; position++) if (holdsNul(container[position], index, position)) return pointerOf(index, String(position));
    } else {
      for (const key of Object.keys(container)) if (key.includes(NUL) || holdsNul((container as Record<string, unknown>)[key], index, key)) return pointerOf(index, key);
    }
  }
  return undefined;
}

const escapeKey = (key: string) => key.replaceAll('~', '~0').replaceAll('/', '~1');
