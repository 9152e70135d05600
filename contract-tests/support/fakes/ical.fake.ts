import { startHttpFake, type HttpFake } from './http-fake.js';

// A stand-in for an iCalendar feed server (RFC 5545 text/calendar): VCALENDAR with VTODOs, CRLF
// line ends, escaped TEXT values and lines folded at 75 octets, as CalDAV servers and exports write them.

export interface FakeTodo {
  uid: string;
  summary: string;
  description?: string;
  /** NEEDS-ACTION, IN-PROCESS, COMPLETED or CANCELLED. */
  status?: string;
  /** iCalendar UTC date-time, e.g. 20240601T100000Z. */
  completed?: string;
  /** A DUE line value with its parameters, e.g. `;VALUE=DATE:20240702` or `:20240701T120000Z`. */
  due?: string;
  url?: string;
}

export interface FeedOptions {
  calendarName?: string;
  /** Answer with this status and a short text body instead of the feed. */
  status?: number;
  /** Require HTTP Basic credentials `user:password`. */
  basicAuth?: string;
  /** Accept the request and never answer. */
  hang?: boolean;
  /** Serve this body as is (e.g. an HTML page) with this content type. */
  raw?: { body: string; contentType: string };
}

export interface FakeIcalFeeds extends HttpFake {
  /** The address of the feed at `path` on this server. */
  url: (path: string) => string;
  setFeed: (path: string, todos: FakeTodo[], options?: FeedOptions) => void;
}

export async function startFakeIcalFeeds(): Promise<FakeIcalFeeds> {
  const feeds = new Map<string, { todos: FakeTodo[]; options: FeedOptions }>();
  const fake = await startHttpFake((req, res, url) => {
    const feed = feeds.get(url.pathname);
    if (!feed) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found');
    const { todos, options } = feed;
    if (options.hang) return;
    if (options.basicAuth) {
      const expected = `Basic ${Buffer.from(options.basicAuth).toString('base64')}`;
      if (req.headers.authorization !== expected) {
        return void res.writeHead(401, { 'www-authenticate': 'Basic realm="calendar"', 'content-type': 'text/plain' }).end('Unauthorized');
      }
    }
    if (options.status) return void res.writeHead(options.status, { 'content-type': 'text/plain' }).end('Unavailable');
    if (options.raw) return void res.writeHead(200, { 'content-type': options.raw.contentType }).end(options.raw.body);
    res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(vcalendar(todos, options.calendarName));
  });
  return {
    ...fake,
    url: (path) => `${fake.origin}${path}`,
    setFeed: (path, todos, options = {}) => void feeds.set(new URL(path, 'http://x').pathname, { todos, options }),
  };
}

export function manyTodos(count: number, summaryPrefix = 'Todo'): FakeTodo[] {
  return Array.from({ length: count }, (_, i) => ({
    uid: `todo-${i + 1}@fake.example.com`,
    summary: `${summaryPrefix} ${i + 1}`,
    description: `Notes for todo ${i + 1}`,
    due: `:2030${String((i % 12) + 1).padStart(2, '0')}15T090000Z`,
  }));
}

export function vcalendar(todos: FakeTodo[], calendarName?: string): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Task Service//Fake Feed 1.0//EN', 'CALSCALE:GREGORIAN'];
  if (calendarName) lines.push(`X-WR-CALNAME:${escapeText(calendarName)}`);
  for (const todo of todos) {
    lines.push('BEGIN:VTODO', `UID:${todo.uid}`, 'DTSTAMP:20240101T000000Z', `SUMMARY:${escapeText(todo.summary)}`);
    if (todo.description !== undefined) lines.push(`DESCRIPTION:${escapeText(todo.description)}`);
    lines.push(`STATUS:${todo.status ?? (todo.completed ? 'COMPLETED' : 'NEEDS-ACTION')}`);
    if (todo.completed) lines.push(`COMPLETED:${todo.completed}`);
    if (todo.due) lines.push(`DUE${todo.due}`);
    if (todo.url) lines.push(`URL:${todo.url}`);
    lines.push('END:VTODO');
  }
  lines.push('END:VCALENDAR');
  return lines.map(fold).join('\r\n') + '\r\n';
}

function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** RFC 5545 §3.1: lines longer than 75 octets continue on the next line after a space. */
function fold(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    // Never split a UTF-8 sequence: step back over continuation bytes.
    while (end < bytes.length && (bytes[end]! & 0xc0) === 0x80) end--;
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74;
  }
  return parts.join('\r\n ');
}
