import { errors } from './errors.js';

/** Where a page of rows ordered by (createdAt, id) ends: the next page goes on from just past it. */
export interface PagePosition {
  createdAt: number;
  id: string;
}

// Opaque to clients: base64url of the last row's sort key. Decoding checks every part, so a cursor
// that is not one of ours is a 400 rather than a query on garbage. The task list and the webhook
// delivery log page alike.

export function encodeCursor(position: PagePosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): PagePosition {
  const parsed = parseJson(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    Number.isSafeInteger(parsed[0]) &&
    (parsed[0] as number) >= 0 &&
    typeof parsed[1] === 'string' &&
    UUID.test(parsed[1]) &&
    encodeCursor({ createdAt: parsed[0] as number, id: parsed[1] }) === cursor
  ) {
    return { createdAt: parsed[0] as number, id: parsed[1] };
  }
  throw errors.validation([{ path: '/query/cursor', message: 'is not a cursor from a previous page' }]);
}

/** An id as the service makes them (randomUUID): lower-case. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A cursor's JSON, or undefined when it is none. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
