// Times are stored as epoch milliseconds in both databases and rendered as RFC 3339 UTC. A page of 100
// tasks renders up to 400 of them, so toIso computes Date#toISOString's text with integer arithmetic.

const DAY_MS = 86_400_000;
const FIRST_FOUR_DIGIT_YEAR_MS = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
const AFTER_LAST_FOUR_DIGIT_YEAR_MS = 253_402_300_800_000; // 10000-01-01T00:00:00.000Z

/**
 * Whether an instant has an RFC 3339 form: four-digit years only. toISOString writes others with a
 * sign and six digits, which no client of the contract can read; nothing else may be stored.
 */
export const isRfc3339Instant = (epochMs: number): boolean => epochMs >= FIRST_FOUR_DIGIT_YEAR_MS && epochMs < AFTER_LAST_FOUR_DIGIT_YEAR_MS;

/** Same result as `new Date(epochMs).toISOString()` for integer milliseconds (a RangeError for NaN). */
export function toIso(epochMs: number): string {
  if (!isRfc3339Instant(epochMs)) return new Date(epochMs).toISOString();
  const days = Math.floor(epochMs / DAY_MS);
  let rest = epochMs - days * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${civilDate(days)}T${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

export const toIsoOrNull = (epochMs: number | null | undefined): string | null =>
  epochMs === null || epochMs === undefined ? null : toIso(Number(epochMs));

/** YYYY-MM-DD of a day counted from 1970-01-01: H. Hinnant's civil_from_days (proleptic Gregorian). */
function civilDate(daysSinceEpoch: number): string {
  const z = daysSinceEpoch + 719_468; // days since 0000-03-01
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${year < 10 ? '000' : year < 100 ? '00' : year < 1000 ? '0' : ''}${year}-${pad2(month)}-${pad2(day)}`;
}

const pad2 = (value: number) => (value < 10 ? `0${value}` : `${value}`);

const RFC3339_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/**
 * RFC 3339 §5.6 `date-time` with a real calendar date: 2026-02-31 and 2026-02-29 are not times, where
 * Date.parse would silently roll them into March. A leap second (`23:59:60`) is refused as well: stored
 * times are POSIX instants, which have no leap seconds, and a time is never changed silently.
 */
export function isRfc3339DateTime(value: string): boolean {
  const match = RFC3339_DATE_TIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = match.slice(1).map((part) => Number(part ?? 0)) as number[];
  return (
    month! >= 1 && month! <= 12 &&
    day! >= 1 && day! <= daysInMonth(year!, month!) &&
    hour! <= 23 && minute! <= 59 && second! <= 59 &&
    offsetHour! <= 23 && offsetMinute! <= 59
  );
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
