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
 * Opaque to clients: base64url of [after, issuedAt] and a MAC over it and the account, so a cursor
 * no page issued (made up, altered, or another account's) is told apart from a real one (docs/change-feed.md).
 *
 * An app polls with the cursor its last answer gave it, so the texts this process issued lately are
 * kept with what they stand for: such a text is decoded without its MAC computed again. The MAC is
 * the same every time, so the answer is the same; the two MACs were most of an empty poll's own work
 * (bench/change-feed.bench.ts --profile). A text another instance issued is checked as always.
 */
export function createChangeCursors(key: Buffer, issuedKept = ISSUED_KEPT): ChangeCursors {
  const mac = (accountId: string, payload: string) => createHmac('sha256', key).update(`${accountId}.${payload}`).digest().subarray(0, MAC_BYTES);
  const issued = new Map<string, { accountId: string; after: number; issuedAt: number }>();

  return {
    encode(accountId, { after, issuedAt }) {
      // What JSON.stringify([after, issuedAt]) writes, for the non-negative integers a cursor holds.
      const payload = Buffer.from(`[${after},${issuedAt}]`, 'latin1').toString('base64url');
      const text = `${payload}.${mac(accountId, payload).toString('base64url')}`;
      if (issued.size >= issuedKept) issued.delete(issued.keys().next().value!);
      issued.set(text, { accountId, after, issuedAt });
      return text;
    },

    decode(accountId, text) {
      const known = issued.get(text);
      if (known !== undefined && known.accountId === accountId) return { after: known.after, issuedAt: known.issuedAt };
      const [payload, signature, ...rest] = text.split('.');
      if (payload === undefined || signature === undefined || rest.length > 0) throw notACursor();
      const given = Buffer.from(signature, 'base64url');
      const expected = mac(accountId, payload);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw notACursor();
      const parsed = parseJson(Buffer.from(payload, 'base64url').toString('utf8'));
      if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((part) => Number.isSafeInteger(part) && (part as number) >= 0)) {
        throw notACursor();
      }
      return { after: parsed[0] as number, issuedAt: parsed[1] as number };
    },
  };
}

const MAC_BYTES = 16;
/** About a megabyte of recent cursors: enough for the apps polling one instance between two of their polls. */
const ISSUED_KEPT = 10_000;

const notACursor = () => errors.validation([{ path: '/query/cursor', message: 'is not a cursor a page of this feed issued' }]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
