import { errors } from '../platform/errors.js';

/** Where a page of the delivery log ends: the next page starts just before this (createdAt, id). */
export interface LogPosition {
  createdAt: number;
  id: string;
}

// Opaque to clients, as the task list's (src/tasks/task-cursor.ts): a cursor that is not one of ours is a 400.
export function encodeLogCursor(position: LogPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

export function decodeLogCursor(cursor: string): LogPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    Number.isSafeInteger(parsed[0]) &&
    (parsed[0] as number) >= 0 &&
    typeof parsed[1] === 'string' &&
    UUID.test(parsed[1]) &&
    encodeLogCursor({ createdAt: parsed[0] as number, id: parsed[1] }) === cursor
  ) {
    return { createdAt: parsed[0] as number, id: parsed[1] };
  }
  throw errors.validation([{ path: '/query/cursor', message: 'is not a cursor from a previous page' }]);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
