import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyTodos, startFakeIcalFeeds, vcalendar, type FakeIcalFeeds } from '../../contract-tests/support/fakes/ical.fake.js';
import { AppError } from '../platform/errors.js';
import { ProviderError, type ConnectorTools } from './connector-registry.js';
import { createCredentialsCipher } from './credentials-cipher.js';
import { feedIdentity, icalConnector, normaliseFeedUrl, toTask } from './ical.connector.js';
import { createSafeFetch } from './safe-fetch.js';

let feeds: FakeIcalFeeds;
let tools: ConnectorTools;
beforeAll(async () => {
  feeds = await startFakeIcalFeeds();
  tools = { fetch: createSafeFetch({ allowPrivateNetworks: true }), digest: createCredentialsCipher(Buffer.alloc(32, 1)).digest };
});
afterAll(async () => {
  await tools.fetch.close();
  await feeds.close();
});

const todosOf = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vtodo').flatMap(toTask);

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const err = await promise.then(() => undefined, (error: unknown) => error);
  expect(err).toBeInstanceOf(ProviderError);
  return err as ProviderError;
}

describe('the ical connector', () => {
  it('maps SUMMARY, DESCRIPTION, STATUS/COMPLETED, DUE, UID and URL, unescaping and unfolding the text', () => {
    const long = 'A rather long summary, with commas; semicolons and ünïcödé that will certainly be folded over lines';
    const [open, done, cancelled] = todosOf(
      vcalendar([
        { uid: 'a1', summary: long, description: 'line 1\nline 2', due: ':20240701T120000Z', url: 'https://example.com/a1' },
        { uid: 'a2', summary: 'Done', completed: '20240601T100000Z', due: ';VALUE=DATE:20240702' },
        { uid: 'a3', summary: 'Dropped', status: 'CANCELLED' },
      ]),
    );
    expect(open).toEqual({
      externalId: 'a1',
      title: long,
      notes: 'line 1\nline 2',
      status: 'open',
      completedAt: null,
      dueAt: Date.parse('2024-07-01T12:00:00Z'),
      url: 'https://example.com/a1',
    });
    expect(done).toMatchObject({ status: 'completed', completedAt: Date.parse('2024-06-01T10:00:00Z'), dueAt: Date.parse('2024-07-02T00:00:00Z'), notes: null, url: null });
    expect(cancelled).toMatchObject({ status: 'completed', completedAt: null });
  });

  it('converts a DUE in a time zone the feed defines, and leaves out occurrence overrides and items without UID', () => {
    const text = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//x//EN',
      'BEGIN:VTIMEZONE', 'TZID:Europe/Berlin',
      'BEGIN:DAYLIGHT', 'DTSTART:19700329T020000', 'TZOFFSETFROM:+0100', 'TZOFFSETTO:+0200', 'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU', 'END:DAYLIGHT',
      'BEGIN:STANDARD', 'DTSTART:19701025T030000', 'TZOFFSETFROM:+0200', 'TZOFFSETTO:+0100', 'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU', 'END:STANDARD',
      'END:VTIMEZONE',
      'BEGIN:VTODO', 'UID:tz', 'SUMMARY:Zoned', 'DUE;TZID=Europe/Berlin:20240701T120000', 'END:VTODO',
      'BEGIN:VTODO', 'UID:floating', 'SUMMARY:Floating', 'DUE:20240701T120000', 'END:VTODO',
      'BEGIN:VTODO', 'UID:tz', 'RECURRENCE-ID:20240708T120000Z', 'SUMMARY:One occurrence', 'END:VTODO',
      'BEGIN:VTODO', 'SUMMARY:No UID', 'END:VTODO',
      'END:VCALENDAR', '',
    ].join('\r\n');
    const tasks = todosOf(text);
    expect(tasks.map((task) => [task.externalId, task.dueAt])).toEqual([
      ['tz', Date.parse('2024-07-01T10:00:00Z')],
      ['floating', Date.parse('2024-07-01T12:00:00Z')],
    ]);
  });

  it('keeps an item whose DUE or COMPLETED cannot be read, without that date, and skips one it cannot read at all', () => {
    const text = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//x//EN',
      'BEGIN:VTODO', 'UID:bad-due', 'SUMMARY:Garbage due', 'DUE:garbage', 'END:VTODO',
      'BEGIN:VTODO', 'UID:year-only', 'SUMMARY:Year only', 'DUE:2024', 'END:VTODO',
      'BEGIN:VTODO', 'UID:bad-completed', 'SUMMARY:Garbage completed', 'COMPLETED:garbage', 'DUE:20240701T120000Z', 'END:VTODO',
      'BEGIN:VTODO', 'UID:bad-status', 'SUMMARY:Status as a date', 'STATUS;VALUE=DATE:x', 'END:VTODO',
      'BEGIN:VTODO', 'UID:fine', 'SUMMARY:Fine', 'DUE:20240702T120000Z', 'END:VTODO',
      'END:VCALENDAR', '',
    ].join('\r\n');
    expect(todosOf(text).map((task) => [task.externalId, task.status, task.completedAt, task.dueAt])).toEqual([
      ['bad-due', 'open', null, null],
      ['year-only', 'open', null, null],
      ['bad-completed', 'completed', null, Date.parse('2024-07-01T12:00:00Z')],
      ['fine', 'open', null, Date.parse('2024-07-02T12:00:00Z')],
    ]);
  });

  it('keeps years 0–99 as written, and leaves out dates the API cannot show (outside 0000–9999 UTC)', () => {
    const text = [
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//x//EN',
      'BEGIN:VTIMEZONE', 'TZID:Far/East', 'BEGIN:STANDARD', 'DTSTART:00000101T000000', 'TZOFFSETFROM:+1400', 'TZOFFSETTO:+1400', 'END:STANDARD', 'END:VTIMEZONE',
      'BEGIN:VTIMEZONE', 'TZID:Far/West', 'BEGIN:STANDARD', 'DTSTART:00000101T000000', 'TZOFFSETFROM:-1200', 'TZOFFSETTO:-1200', 'END:STANDARD', 'END:VTIMEZONE',
      'BEGIN:VTODO', 'UID:year-24', 'SUMMARY:Date', 'DUE;VALUE=DATE:00240301', 'END:VTODO',
      'BEGIN:VTODO', 'UID:year-50', 'SUMMARY:Time', 'DUE:00500101T120000Z', 'COMPLETED:00490101T000000Z', 'END:VTODO',
      'BEGIN:VTODO', 'UID:year-99-zoned', 'SUMMARY:Zoned', 'DUE;TZID=Far/East:00990101T200000', 'END:VTODO',
      'BEGIN:VTODO', 'UID:before-year-0', 'SUMMARY:Too early', 'DUE;TZID=Far/East:00000101T100000', 'END:VTODO',
      'BEGIN:VTODO', 'UID:after-9999', 'SUMMARY:Too late', 'DUE;TZID=Far/West:99991231T200000', 'END:VTODO',
      'BEGIN:VTODO', 'UID:last-shown', 'SUMMARY:Latest', 'DUE:99991231T235959Z', 'END:VTODO',
      'END:VCALENDAR', '',
    ].join('\r\n');
    const shown = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    expect(todosOf(text).map((task) => [task.externalId, shown(task.dueAt), shown(task.completedAt)])).toEqual([
      ['year-24', '0024-03-01T00:00:00.000Z', null],
      ['year-50', '0050-01-01T12:00:00.000Z', '0049-01-01T00:00:00.000Z'],
      ['year-99-zoned', '0099-01-01T06:00:00.000Z', null],
      ['before-year-0', null, null],
      ['after-9999', null, null],
      ['last-shown', '9999-12-31T23:59:59.000Z', null],
    ]);
  });

  it('syncs the rest of a feed when one item has an unreadable date', async () => {
    feeds.setFeed('/one-broken.ics', [{ uid: 'ok-1', summary: 'One' }, { uid: 'broken', summary: 'Broken', due: ':garbage' }, { uid: 'ok-2', summary: 'Two' }]);
    const connection = icalConnector.open({ url: feeds.url('/one-broken.ics') }, tools);
    const synced: string[] = [];
    for await (const page of connection.items(new AbortController().signal)) synced.push(...page.map((task) => task.externalId));
    expect(synced).toEqual(['ok-1', 'broken', 'ok-2']);
  });

  it('reads a feed over HTTP, with its calendar name, in pages of at most 500', async () => {
    feeds.setFeed('/big.ics', manyTodos(1200), { calendarName: 'Work' });
    const connection = icalConnector.open({ url: feeds.url('/big.ics') }, tools);
    expect(await connection.identify()).toEqual({ externalId: feeds.url('/big.ics'), displayName: 'Work' });
    const sizes: number[] = [];
    for await (const page of connection.items(new AbortController().signal)) sizes.push(page.length);
    expect(sizes).toEqual([500, 500, 200]);
    expect(feeds.requests.at(-1)!.headers.accept).toContain('text/calendar');
  });

  it('sends user info as Basic credentials and refuses wrong ones as refused', async () => {
    feeds.setFeed('/private.ics', manyTodos(1), { basicAuth: 'ada:s3cret' });
    const good = icalConnector.open({ url: feeds.url('/private.ics').replace('http://', 'http://ada:s3cret@') }, tools);
    expect((await good.identify()).externalId).toMatch(/\/private\.ics#access-\w{16}$/);
    const bad = icalConnector.open({ url: feeds.url('/private.ics').replace('http://', 'http://ada:wrong@') }, tools);
    const err = await providerError(bad.identify());
    expect(err.failure).toBe('refused');
    expect(err.message).toBe(`The feed refused access (${feeds.url('/private.ics')} answered 401).`);
    expect(err.message).not.toContain('wrong');
  });

  it('refuses what is not a calendar, and reports a server error as unavailable', async () => {
    feeds.setFeed('/page.html', [], { raw: { body: '<!doctype html><html><body>Log in</body></html>', contentType: 'text/html' } });
    feeds.setFeed('/card.vcf', [], { raw: { body: 'BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ada\r\nEND:VCARD\r\n', contentType: 'text/vcard' } });
    feeds.setFeed('/down.ics', [], { status: 503 });
    expect((await providerError(icalConnector.open({ url: feeds.url('/page.html') }, tools).identify())).message).toBe(
      `${feeds.url('/page.html')} did not serve an iCalendar feed.`,
    );
    expect((await providerError(icalConnector.open({ url: feeds.url('/card.vcf') }, tools).identify())).failure).toBe('refused');
    expect((await providerError(icalConnector.open({ url: feeds.url('/missing.ics') }, tools).identify())).failure).toBe('refused');
    expect((await providerError(icalConnector.open({ url: feeds.url('/down.ics') }, tools).identify())).failure).toBe('unavailable');
  });

  it('takes webcal:// as https, and names the feed without its secret', () => {
    const url = normaliseFeedUrl('WEBCAL://Calendar.Example.COM:443/Tasks.ics?token=s3cret#frag');
    expect(url.href).toBe('https://calendar.example.com/Tasks.ics?token=s3cret');
    const identity = feedIdentity(url, tools.digest);
    expect(identity).toMatch(/^https:\/\/calendar\.example\.com\/Tasks\.ics#access-\w{16}$/);
    expect(identity).not.toContain('s3cret');
    expect(feedIdentity(normaliseFeedUrl('https://calendar.example.com/Tasks.ics?token=other'), tools.digest)).not.toBe(identity);
    expect(() => normaliseFeedUrl('file:///etc/passwd')).toThrow(AppError);
    const longest = normaliseFeedUrl(`https://calendar.example.com/${'p'.repeat(2010)}?a=1`);
    expect(feedIdentity(longest, tools.digest)).toMatch(/^https:\/\/calendar\.example\.com\/#feed-[0-9a-f]{32}$/);
  });
});
