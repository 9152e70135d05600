import { createHmac, timingSafeEqual } from 'node:crypto';
import { errors } from '../platform/errors.js';

/** Where a feed reader stands: after this change number, as of this time (epoch ms). */
export interface ChangeCursor {
  after: number;
  issuedAt: number;
}

export interface ChangeCursors {
  encode(accountId: string, cursor: ChangeCursor): string;
  /** The cursor a page of this account issued, or 400 VALIDATION_FAILED at /query/cursor. */
  decode(accountId: string, text: string): ChangeCursor;
}

/**
 * Opaque to clients: base64url of the change number (7 bits a byte, lowest first), the time (6 bytes)
 * and a MAC over them and the account, so a cursor no page issued (made up, altered, or another
 * account's) is told apart from a real one (docs/change-feed.md). 26 characters for a young account:
 * every character of a poll's URL is read by the HTTP parser, the dispatch, the query and the cache
 * below, and written back in its answer, about 50 instructions each (docs/benchmarks.md#change-feed).
 * Cursors of the first format (JSON, a dot, a longer MAC) still decode.
 *
 * An app polls with the cursor its last answer gave it, so the texts this process issued lately are
 * kept with what they stand for: such a text is decoded without its MAC computed again. The MAC is
 * the same every time, so the answer is the same; the two MACs were most of an empty poll's own work
 * (bench/change-feed.bench.ts --profile). A text another instance issued is checked as always.
 * They are kept by account, the newest few of each, and compared with `===`: the caller's account id
 * is one string for as long as its token is remembered (src/auth/identify-caller.ts), so its hash is
 * computed once, where a map by text hashed and compared every poll's cursor (docs/benchmarks.md#change-feed).
 */
export function createChangeCursors(key: Buffer, issuedKept = ISSUED_KEPT): ChangeCursors {
  const mac = (accountId: string, payload: Buffer) => createHmac('sha256', key).update(`${accountId}/2/`).update(payload).digest().subarray(0, MAC_BYTES);
  const firstFormatMac = (accountId: string, payload: string) =>
    createHmac('sha256', key).update(`${accountId}.${payload}`).digest().subarray(0, FIRST_FORMAT_MAC_BYTES);
  const issued = createIssuedCursors(issuedKept);

  function decodeFirstFormat(accountId: string, text: string): ChangeCursor {
    const [payload, signature, ...rest] = text.split('.');
    if (payload === undefined || signature === undefined || rest.length > 0) throw notACursor();
    const given = Buffer.from(signature, 'base64url');
    // As below: only the text Buffer.from writes back is the MAC that was issued.
    if (given.toString('base64url') !== signature || !sameBytes(given, firstFormatMac(accountId, payload))) throw notACursor();
    const parsed = parseJson(Buffer.from(payload, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((part) => Number.isSafeInteger(part) && (part as number) >= 0)) {
      throw notACursor();
    }
    const [after, issuedAt] = parsed as [number, number];
    // A time no clock gave (past 2^48 ms, the year 10889) is no cursor a page issued, and could not be issued again in the new format.
    if (issuedAt >= MAX_TIME) throw notACursor();
    return { after, issuedAt };
  }

  return {
    encode(accountId, cursor) {
      const payload = payloadOf(cursor);
      const text = Buffer.concat([payload, mac(accountId, payload)]).toString('base64url');
      issued.add(accountId, { text, after: cursor.after, issuedAt: cursor.issuedAt });
      return text;
    },

    decode(accountId, text) {
      const known = issued.find(accountId, text);
      if (known !== undefined) return { after: known.after, issuedAt: known.issuedAt };
      if (text.includes('.')) return decodeFirstFormat(accountId, text);
      const bytes = Buffer.from(text, 'base64url');
      // Buffer.from skips what is not base64url and the unused bits of the last character: only the text it writes back is the cursor.
      if (bytes.length <= MAC_BYTES || bytes.toString('base64url') !== text) throw notACursor();
      const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
      if (!sameBytes(bytes.subarray(payload.length), mac(accountId, payload))) throw notACursor();
      const cursor = cursorOf(payload);
      if (cursor === undefined) throw notACursor();
      return cursor;
    },
  };
}

interface IssuedCursor extends ChangeCursor {
  text: string;
}

/**
 * The cursors this process issued lately, the newest `PER_ACCOUNT` of each account (the apps polling
 * it, each with its own cursor), at most `kept` in all: the accounts that were issued one longest ago go first.
 */
function createIssuedCursors(kept: number) {
  const byAccount = new Map<string, IssuedCursor[]>();
  let count = 0;
  return {
    add(accountId: string, cursor: IssuedCursor): void {
      const list = byAccount.get(accountId) ?? [];
      // Taken out and put back: the map's order is the order accounts were last issued a cursor.
      byAccount.delete(accountId);
      byAccount.set(accountId, list);
      list.push(cursor);
      count++;
      if (list.length > PER_ACCOUNT) {
        list.shift();
        count--;
      }
      for (const [oldest, cursors] of byAccount) {
        if (count <= kept) break;
        byAccount.delete(oldest);
        count -= cursors.length;
      }
    },

    find(accountId: string, text: string): IssuedCursor | undefined {
      const list = byAccount.get(accountId);
      if (list === undefined) return undefined;
      // Newest first: an app polls with the cursor its last answer gave it.
      for (let i = list.length - 1; i >= 0; i--) if (list[i]!.text === text) return list[i];
      return undefined;
    },
  };
}

const PER_ACCOUNT = 8;
const MAC_BYTES = 12;
const FIRST_FORMAT_MAC_BYTES = 16;
const TIME_BYTES = 6;
const MAX_TIME = 2 ** (8 * TIME_BYTES);
/** About a megabyte of recent cursors: enough for the apps polling one instance between two of their polls. */
const ISSUED_KEPT = 10_000;

/** The change number in 7-bit groups, lowest first, the high bit set on all but the last; then the time. */
function payloadOf({ after, issuedAt }: ChangeCursor): Buffer {
  if (!Number.isSafeInteger(after) || after < 0) throw new RangeError(`A change cursor's number is a safe non-negative integer, not ${after}`);
  if (!Number.isSafeInteger(issuedAt) || issuedAt < 0 || issuedAt >= MAX_TIME) throw new RangeError(`A change cursor's time is whole milliseconds from 1970 below 2^48, not ${issuedAt}`);
  const groups: number[] = [];
  let rest = after;
  while (rest >= 0x80) {
    groups.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  groups.push(rest);
  const payload = Buffer.allocUnsafe(groups.length + TIME_BYTES);
  payload.set(groups);
  payload.writeUIntBE(issuedAt, groups.length, TIME_BYTES);
  return payload;
}

/** What payloadOf wrote, or undefined for bytes it cannot have written (signed, so only a key holder's mistake). */
function cursorOf(payload: Buffer): ChangeCursor | undefined {
  let after = 0;
  let scale = 1;
  let at = 0;
  for (; at < payload.length - TIME_BYTES; at++) {
    const group = payload[at]!;
    after += (group & 0x7f) * scale;
    scale *= 0x80;
    if (group < 0x80) break;
  }
  if (at !== payload.length - TIME_BYTES - 1 || !Number.isSafeInteger(after)) return undefined;
  return { after, issuedAt: payload.readUIntBE(at + 1, TIME_BYTES) };
}

function sameBytes(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const notACursor = () => errors.validation([{ path: '/query/cursor', message: 'is not a cursor a page of this feed issued' }]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
