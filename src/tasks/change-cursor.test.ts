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
    const text = createChangeCursors(key).encode(ACCOUNT, { after: 10_000, issuedAt: 1_764_115_200_123 });
    expect(createChangeCursors(key).decode(ACCOUNT, text)).toEqual({ after: 10_000, issuedAt: 1_764_115_200_123 });
    expect(createChangeCursors(key).decode(ACCOUNT, text)).toEqual({ after: 10_000, issuedAt: 1_764_115_200_123 });
  });

  it('keeps the format cursors had: base64url of the JSON [after, issuedAt], a dot, and a 16-byte HMAC-SHA256 over the account and that', () => {
    const key = randomBytes(32);
    const payload = Buffer.from(JSON.stringify([0, 42])).toString('base64url');
    const mac = createHmac('sha256', key).update(`${ACCOUNT}.${payload}`).digest().subarray(0, 16).toString('base64url');
    expect(createChangeCursors(key).encode(ACCOUNT, { after: 0, issuedAt: 42 })).toBe(`${payload}.${mac}`);
  });

  it("another account's cursor is refused, also on the instance that issued it", () => {
    const cursors = createChangeCursors(randomBytes(32));
    const text = cursors.encode(ACCOUNT, { after: 3, issuedAt: Date.now() });
    expect(refusal(() => cursors.decode(OTHER_ACCOUNT, text))).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
    expect(refusal(() => createChangeCursors(randomBytes(32)).decode(ACCOUNT, text))).toMatchObject({ details: [{ path: '/query/cursor' }] });
  });

  it('a made-up or altered cursor is refused at /query/cursor', () => {
    const cursors = createChangeCursors(randomBytes(32));
    const text = cursors.encode(ACCOUNT, { after: 3, issuedAt: Date.now() });
    const [payload, mac] = text.split('.') as [string, string];
    const forgedPayload = Buffer.from(JSON.stringify([0, Date.now()])).toString('base64url');
    const alteredMac = `${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`;
    for (const forged of ['garbage', `${forgedPayload}.${mac}`, `${payload}.${alteredMac}`, `${payload}.${mac}x`, `${payload}.${mac}.${mac}`, `${payload}`]) {
      expect(refusal(() => cursors.decode(ACCOUNT, forged))).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
    }
  });

  it('cursors issued longer ago than the instance keeps them still decode, by their MAC', () => {
    const cursors = createChangeCursors(randomBytes(32), 2);
    const texts = [1, 2, 3, 4].map((after) => cursors.encode(ACCOUNT, { after, issuedAt: 1000 + after }));
    expect(texts.map((text) => cursors.decode(ACCOUNT, text))).toEqual([1, 2, 3, 4].map((after) => ({ after, issuedAt: 1000 + after })));
  });
});
