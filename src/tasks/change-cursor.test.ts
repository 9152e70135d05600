import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppError } from '../platform/errors.js';
import { createChangeCursors } from './change-cursor.js';

const ACCOUNT = 'b5e1c9a0-1234-4abc-9def-0123456789ab';
const OTHER_ACCOUNT = '0f1e2d3c-4b5a-4697-8877-665544332211';

const refusal = (decode: () => unknown) => {
  try {
    decode();
  } catch (error) {
    if (error instanceof AppError) return error.toBody();
    throw error;
  }
  throw new Error('the cursor was accepted');
};

describe('change cursors', () => {
  it('a cursor decodes to the position and time it was issued with, on the instance that issued it and on another with the same key', () => {
    const key = randomBytes(32);
    const cursors = createChangeCursors(key);
    const text = cursors.encode(ACCOUNT, { after: 10_000, issuedAt: 1_764_115_200_123 });
    expect(cursors.decode(ACCOUNT, text)).toEqual({ after: 10_000, issuedAt: 1_764_115_200_123 });
    expect(createChangeCursors(key).decode(ACCOUNT, text)).toEqual({ after: 10_000, issuedAt: 1_764_115_200_123 });
  });

  it('is 26 characters for a young account: base64url of the number in 7-bit groups, 6 bytes of time and a 12-byte HMAC-SHA256 over the account and those', () => {
    const key = randomBytes(32);
    const payload = Buffer.from([0x2a, 0x01, 0x9a, 0xbd, 0x75, 0xbb, 0x5b]);
    expect(payload.readUIntBE(1, 6)).toBe(1_764_115_200_859);
    const mac = createHmac('sha256', key).update(`${ACCOUNT}/2/`).update(payload).digest().subarray(0, 12);
    const text = createChangeCursors(key).encode(ACCOUNT, { after: 42, issuedAt: 1_764_115_200_859 });
    expect(text).toBe(Buffer.concat([payload, mac]).toString('base64url'));
    expect(text).toHaveLength(26);
  });

  it('every change number up to the largest safe integer goes and comes back, at any time up to 2^48 ms', () => {
    const key = randomBytes(32);
    const afters = [0, 1, 127, 128, 16_383, 16_384, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 2 ** 49 + 3, Number.MAX_SAFE_INTEGER];
    for (const after of afters) {
      for (const issuedAt of [0, 1, 1_764_115_200_859, 2 ** 48 - 1]) {
        const text = createChangeCursors(key).encode(ACCOUNT, { after, issuedAt });
        expect(createChangeCursors(key).decode(ACCOUNT, text)).toEqual({ after, issuedAt });
      }
    }
  });

  it('a cursor of the first format (base64url of the JSON [after, issuedAt], a dot, a 16-byte HMAC) still decodes; altered, it is refused', () => {
    const key = randomBytes(32);
    const payload = Buffer.from(JSON.stringify([17, 1_795_466_000_000])).toString('base64url');
    const mac = createHmac('sha256', key).update(`${ACCOUNT}.${payload}`).digest().subarray(0, 16).toString('base64url');
    expect(createChangeCursors(key).decode(ACCOUNT, `${payload}.${mac}`)).toEqual({ after: 17, issuedAt: 1_795_466_000_000 });
    const forgedPayload = Buffer.from(JSON.stringify([0, Date.now()])).toString('base64url');
    const alteredMac = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    // The same MAC written otherwise: padded, with characters Buffer.from skips, or other unused bits in its last character.
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const lastBitsChanged = `${mac.slice(0, -1)}${alphabet[alphabet.indexOf(mac.at(-1)!) ^ 1]}`;
    const beyondAnyClock = Buffer.from(JSON.stringify([17, 2 ** 48])).toString('base64url');
    const beyondAnyClockMac = createHmac('sha256', key).update(`${ACCOUNT}.${beyondAnyClock}`).digest().subarray(0, 16).toString('base64url');
    for (const forged of [
      `${forgedPayload}.${mac}`,
      `${payload}.${alteredMac}`,
      `${payload}.${mac}x`,
      `${payload}.${mac}.${mac}`,
      `${payload}.`,
      `${payload}.${mac}==`,
      `${payload}.${mac}!!`,
      `${payload}.${mac.slice(0, 5)} ${mac.slice(5)}`,
      `${payload}.${lastBitsChanged}`,
      `${beyondAnyClock}.${beyondAnyClockMac}`,
    ]) {
      expect(refusal(() => createChangeCursors(key).decode(ACCOUNT, forged))).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
    }
    expect(refusal(() => createChangeCursors(key).decode(OTHER_ACCOUNT, `${payload}.${mac}`))).toMatchObject({ details: [{ path: '/query/cursor' }] });
  });

  it('a change number or time a cursor cannot hold is a programming error, not a cursor', () => {
    const cursors = createChangeCursors(randomBytes(32));
    for (const after of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1]) expect(() => cursors.encode(ACCOUNT, { after, issuedAt: 0 })).toThrow(RangeError);
    for (const issuedAt of [-1, 1.5, 2 ** 48]) expect(() => cursors.encode(ACCOUNT, { after: 0, issuedAt })).toThrow(RangeError);
  });

  it("another account's cursor is refused, also on the instance that issued it", () => {
    const cursors = createChangeCursors(randomBytes(32));
    const text = cursors.encode(ACCOUNT, { after: 3, issuedAt: Date.now() });
    expect(refusal(() => cursors.decode(OTHER_ACCOUNT, text))).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
    expect(refusal(() => createChangeCursors(randomBytes(32)).decode(ACCOUNT, text))).toMatchObject({ details: [{ path: '/query/cursor' }] });
  });

  it('a made-up, altered, cut or lengthened cursor is refused at /query/cursor', () => {
    const key = randomBytes(32);
    const cursors = createChangeCursors(key);
    const text = cursors.encode(ACCOUNT, { after: 3, issuedAt: Date.now() });
    const bytes = Buffer.from(text, 'base64url');
    const flipped = (at: number) => Buffer.from(bytes.map((byte, i) => (i === at ? byte ^ 1 : byte))).toString('base64url');
    // Bytes no encode wrote, with a good MAC: only a key holder could make them.
    const unsigned = (payload: number[]) => {
      const mac = createHmac('sha256', key).update(`${ACCOUNT}/2/`).update(Buffer.from(payload)).digest().subarray(0, 12);
      return Buffer.concat([Buffer.from(payload), mac]).toString('base64url');
    };
    const lastBitsChanged = `${text.slice(0, -1)}${String.fromCharCode(text.charCodeAt(text.length - 1) + 1)}`;
    for (const forged of [
      'garbage',
      '',
      flipped(0),
      flipped(3),
      flipped(bytes.length - 1),
      text.slice(0, -2),
      `${text}AA`,
      `${text}.`,
      `${text}=`,
      lastBitsChanged,
      unsigned([0x80, 0, 0, 0, 0, 0, 0]),
      unsigned([1, 0, 0, 0, 0, 0]),
      unsigned([0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10, 0, 0, 0, 0, 0, 0]),
    ]) {
      expect(refusal(() => createChangeCursors(key).decode(ACCOUNT, forged)), forged).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
    }
  });

  it('cursors issued longer ago than the instance keeps them still decode, by their MAC', () => {
    const cursors = createChangeCursors(randomBytes(32), 2);
    const texts = [1, 2, 3, 4].map((after) => cursors.encode(ACCOUNT, { after, issuedAt: 1000 + after }));
    expect(texts.map((text) => cursors.decode(ACCOUNT, text))).toEqual([1, 2, 3, 4].map((after) => ({ after, issuedAt: 1000 + after })));
  });

  it('the newest cursors of an account and older ones decode alike; a remembered cursor changed by one character is refused', () => {
    const cursors = createChangeCursors(randomBytes(32));
    const texts = Array.from({ length: 9 }, (_, after) => cursors.encode(ACCOUNT, { after, issuedAt: 1000 + after }));
    expect(texts.map((text) => cursors.decode(ACCOUNT, text))).toEqual(Array.from({ length: 9 }, (_, after) => ({ after, issuedAt: 1000 + after })));
    const newest = texts.at(-1)!;
    const changed = `${newest.slice(0, 20)}${newest[20] === 'A' ? 'B' : 'A'}${newest.slice(21)}`;
    expect(refusal(() => cursors.decode(ACCOUNT, changed))).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('a cursor of an account whose cursors the instance forgot still decodes by its MAC, and only for that account', () => {
    const cursors = createChangeCursors(randomBytes(32), 4);
    const [a1, a2] = [1, 2].map((after) => cursors.encode(ACCOUNT, { after, issuedAt: 1000 }));
    for (let i = 0; i < 6; i++) cursors.encode(`${OTHER_ACCOUNT.slice(0, -1)}${i}`, { after: i, issuedAt: 1000 });
    expect([a1, a2].map((text) => cursors.decode(ACCOUNT, text!))).toEqual([1, 2].map((after) => ({ after, issuedAt: 1000 })));
    expect(refusal(() => cursors.decode(OTHER_ACCOUNT, a1!))).toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
