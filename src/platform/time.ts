// Times are stored as epoch milliseconds in both databases and rendered as RFC 3339 UTC.
// A page of 100 tasks renders 300 times; Date#toISOString costs about 1 µs each, a third of the page's
// database read. This formats the time of day by hand and the date once per day seen: same output.

const DAY_MS = 86_400_000;
let cachedDay = Number.NaN;
let cachedDatePrefix = '';

/** Same result as `new Date(epochMs).toISOString()` for integer milliseconds. */
export function toIso(epochMs: number): string {
  const day = Math.floor(epochMs / DAY_MS);
  if (day !== cachedDay) {
    const midnight = new Date(day * DAY_MS).toISOString();
    cachedDatePrefix = midnight.slice(0, midnight.indexOf('T') + 1);
    cachedDay = day;
  }
  let rest = epochMs - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${cachedDatePrefix}${pad2(hours)}:${pad2(minutes)}:${pad2(seconds)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

export const toIsoOrNull = (epochMs: number | null | undefined): string | null =>
  epochMs === null || epochMs === undefined ? null : toIso(Number(epochMs));

const pad2 = (value: number) => (value < 10 ? `0${value}` : `${value}`);
