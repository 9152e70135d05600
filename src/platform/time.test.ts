import { describe, expect, it } from 'vitest';
import { isRfc3339DateTime, isRfc3339Instant, toIso, toIsoOrNull } from './time.js';

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

describe('isRfc3339DateTime', () => {
  it('accepts RFC 3339 times with real calendar dates, any offset and any fraction', () => {
    for (const value of ['2026-02-28T23:59:59Z', '2024-02-29T00:00:00Z', '2000-02-29T12:00:00.5+01:00', '2026-04-30T00:00:00.123456-05:30', '2026-12-31t23:59:59z', '0000-01-01T00:00:00Z']) {
      expect(isRfc3339DateTime(value), value).toBe(true);
    }
  });

  it('refuses impossible dates instead of letting them roll over into the next month', () => {
    for (const value of ['2026-02-31T00:00:00Z', '2026-04-31T00:00:00Z', '2026-06-31T00:00:00Z', '2026-09-31T00:00:00Z', '2026-11-31T00:00:00Z', '2026-02-29T00:00:00Z', '1900-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-00-10T00:00:00Z', '2026-01-00T00:00:00Z']) {
      expect(isRfc3339DateTime(value), value).toBe(false);
    }
  });

  it('refuses the leap second, impossible clock times and offsets, and other shapes', () => {
    for (const value of ['2016-12-31T23:59:60Z', '2026-01-01T24:00:00Z', '2026-01-01T00:60:00Z', '2026-01-01T00:00:00+24:00', '2026-01-01T00:00:00+01:60', '2026-01-01T00:00:00+0100', '2026-01-01 00:00:00Z', '2026-01-01T00:00:00', '2026-01-01', '']) {
      expect(isRfc3339DateTime(value), value).toBe(false);
    }
  });
});
