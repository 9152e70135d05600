import { describe, expect, it } from 'vitest';
import { isRfc3339Instant, toIso, toIsoOrNull } from './time.js';

describe('toIso', () => {
  it('renders exactly what Date#toISOString renders, across days, years and the epoch', () => {
    const samples = [0, -1, 1, 999, 86_399_999, 86_400_000, 951_782_400_000, 1_700_000_000_123, 4_102_444_799_999, 253_402_300_800_000, -62_198_755_200_000];
    for (let i = 0; i < 20_000; i++) samples.push(Math.floor(1_600_000_000_000 + i * 7_919_357.3));
    // Days from year 0 to past 9999 (leap days, century and 400-year rules), and the six-digit years beyond.
    for (let epochMs = -62_167_219_200_000 - 86_400_000; epochMs < 253_402_300_800_000 + 86_400_000; epochMs += 5 * 86_400_000 - 1) samples.push(epochMs);
    const mismatches = samples.filter((epochMs) => toIso(epochMs) !== new Date(epochMs).toISOString());
    expect(mismatches.map((epochMs) => [toIso(epochMs), new Date(epochMs).toISOString()])).toEqual([]);
    expect(samples.length).toBeGreaterThan(700_000);
  });

  it('keeps null as null', () => {
    expect(toIsoOrNull(null)).toBeNull();
    expect(toIsoOrNull(undefined)).toBeNull();
    expect(toIsoOrNull(0)).toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('isRfc3339Instant', () => {
  it('holds for years 0000 to 9999 only, and never for NaN (which toIso refuses like toISOString)', () => {
    expect(isRfc3339Instant(Date.parse('0000-01-01T00:00:00.000Z'))).toBe(true);
    expect(isRfc3339Instant(Date.parse('9999-12-31T23:59:59.999Z'))).toBe(true);
    expect(isRfc3339Instant(Date.parse('0000-01-01T00:00:00.000Z') - 1)).toBe(false);
    expect(isRfc3339Instant(Date.parse('9999-12-31T23:59:59.999Z') + 1)).toBe(false);
    expect(isRfc3339Instant(Number.NaN)).toBe(false);
    expect(() => toIso(Number.NaN)).toThrow(RangeError);
  });
});
