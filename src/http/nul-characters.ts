import type { RequestHandler } from 'express';
import { errors } from '../platform/errors.js';

// PostgreSQL cannot store U+0000 in text (it fails the statement, error 22021) and no field of the
// document needs it: a request carrying one anywhere is refused up front, on both databases alike.

const NUL = '\u0000';

/** Held back like a body-parse error, so the request is counted by the rate limiter first. */
export const refuseNulCharacters: RequestHandler = (req, _res, next) => {
  if (req.deferredError === undefined) {
    const path = /%00/.test(req.path) ? '/path' : (findNul(req.query, '/query') ?? findNul(req.body, '/body'));
    if (path) req.deferredError = errors.validation([{ path, message: 'must not contain the NUL character (U+0000)' }]);
  }
  next();
};

/**
 * The JSON pointer of the first string (or key) holding U+0000, if any. A loop over a stack, not
 * recursion: a 1 MiB body can nest half a million arrays deep, far past the call stack.
 */
function findNul(root: unknown, rootPointer: string): string | undefined {
  const pending: [unknown, string][] = [[root, rootPointer]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [value, pointer] = next;
    if (typeof value === 'string') {
      if (value.includes(NUL)) return pointer;
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const itemPointer = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if (key.includes(NUL)) return itemPointer;
        pending.push([item, itemPointer]);
      }
    }
  }
  return undefined;
}
