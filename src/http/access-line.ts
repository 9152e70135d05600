import { pino, type Logger } from 'pino';
import { lineBytesOf, type LineBytes } from '../platform/gathered-lines.js';

/** What the access line of a request says (src/http/request-log.ts): named fields only. */
export interface AccessLine {
  requestId: string;
  method: string;
  route: string | null;
  operationId: string | null;
  status: number;
  durationMs: number;
  accountId: string | null;
  clientId: string | null;
  /** True when the client went away before the response was written whole; else left out. */
  aborted?: true;
}

const { lsCacheSym, timeSym, chindingsSym, endSym, streamSym, messageKeySym, mixinSym, hooksSym, formattersSym, needsMetadataGsym } = pino.symbols;
// pino's types leave this one out; it is among pino.symbols all the same.
const msgPrefixSym = (pino.symbols as unknown as Record<string, symbol>).msgPrefixSym!;

/**
 * Writes access lines to the logger's destination in pino's own layout, built from pino's own pieces
 * (its level and time prefixes, the logger's bindings, its message key and end of line), so a line
 * reads as if `logger.info(line, 'request')` had written it. pino's general path (a loop over the
 * fields with a serializer and a stringifier looked up for each) was about half of what observability
 * cost a `GET /me` (bench/pipeline.bench.ts --profile, docs/benchmarks.md#pipeline); these fields are
 * named and ours, so nothing of that applies. `src/http/access-line.test.ts` holds the two to the same line.
 *
 * The line is written as bytes: its pieces are kept as bytes while they stay the same, and put into the
 * destination's gathered lines (src/platform/gathered-lines.ts) or, for any other destination, into a
 * buffer of its own whose text is written. Made as a string, its joins, the flattening of the gathered
 * lines and their UTF-8 encoding were most of the line's cost, and its pieces lived on until the write.
 */
export function accessLineWriter(logger: Logger): (level: 'info' | 'error', line: AccessLine) => void {
  const internals = logger as unknown as Record<symbol, unknown>;
  if (changesItsLines(internals)) return (level, line) => logger[level]({ ...line }, 'request');
  // Set when the logger is made and never changed: the message and the end of line.
  const tail = `,${JSON.stringify(internals[messageKeySym])}:"request"${internals[endSym] as string}`;
  const tailBytes = Buffer.byteLength(tail);
  const stream = internals[streamSym] as { write: (text: string) => void };
  const out = lineBytesOf(stream) ?? new TextLines(stream);
  const head = headOf(internals, logger);
  // The method, route template and operationId come from the operation table: one piece per
  // operation and status, made once (an operation answers a handful of statuses).
  const routeFields = new Map<string | null, { method: string; route: string | null; byStatus: Map<number, Buffer> }>();
  const routeFieldsOf = ({ method, route, operationId, status }: AccessLine) => {
    let fields = routeFields.get(operationId);
    if (fields?.route !== route || fields.method !== method) {
      fields = { method, route, byStatus: new Map() };
      routeFields.set(operationId, fields);
    }
    let bytes = fields.byStatus.get(status);
    if (bytes === undefined) {
      // A method is a token (RFC 9110 §9.1; Node's parser takes no other): nothing in it to escape.
      bytes = Buffer.from(`,"method":"${method}","route":${stringOrNull(route)},"operationId":${stringOrNull(operationId)},"status":${status},"durationMs":`);
      fields.byStatus.set(status, bytes);
    }
    return bytes;
  };
  // A client calls again and again with one token: its account and client ids, when they are the
  // last line's too, are one piece; other lines' are written as they come (lines of clients that take
  // turns would otherwise make a piece each).
  let lastCaller: { accountId: string | null; clientId: string | null; bytes: Buffer | undefined } = { accountId: null, clientId: null, bytes: undefined };
  const putCallerAndTail = (buffer: Buffer, at: number, { accountId, clientId, aborted }: AccessLine): number => {
    if (aborted) return at + buffer.write(`${callerText(accountId, clientId)},"aborted":true${tail}`, at);
    if (accountId !== lastCaller.accountId || clientId !== lastCaller.clientId) {
      lastCaller = { accountId, clientId, bytes: undefined };
      return at + buffer.write(callerText(accountId, clientId) + tail, at);
    }
    lastCaller.bytes ??= Buffer.from(callerText(accountId, clientId) + tail);
    return put(buffer, at, lastCaller.bytes);
  };
  const callerBytesAtMost = ({ accountId, clientId }: AccessLine) => CALLER_KEYS_AND_ABORTED + idBytesAtMost(accountId) + idBytesAtMost(clientId) + tailBytes;
  return (level, line) => {
    if (!logger.isLevelEnabled(level)) return;
    const route = routeFieldsOf(line);
    const buffer = out.reserve(head.read(level) + quotedBytesAtMost(line.requestId) + route.length + NUMBER_BYTES_AT_MOST + callerBytesAtMost(line));
    const atId = head.put(buffer, out.at);
    const atRoute = putQuoted(buffer, atId, line.requestId);
    const atDuration = put(buffer, atRoute, route);
    const atCaller = putMilliseconds(buffer, atDuration, line.durationMs);
    out.commit(putCallerAndTail(buffer, atCaller, line));
  };
}

const callerText = (accountId: string | null, clientId: string | null) => `,"accountId":${stringOrNull(accountId)},"clientId":${stringOrNull(clientId)}`;
/** What a caller's piece holds beside its two ids: their keys, and `,"aborted":true`. */
const CALLER_KEYS_AND_ABORTED = ',"accountId":,"clientId":,"aborted":true'.length;
const idBytesAtMost = (id: string | null) => (id === null ? 'null'.length : quotedBytesAtMost(id));

const TIME_KEY = ',"time":';
const REQUEST_ID_KEY = ',"requestId":';
/** `String()` of any double: at most 25 characters ("-0.0000012345678901234567"). */
const NUMBER_BYTES_AT_MOST = 25;

const put = (buffer: Buffer, at: number, bytes: Buffer): number => {
  buffer.set(bytes, at);
  return at + bytes.length;
};

/**
 * What pino writes before a line's own fields: its level's prefix, its time, the logger's bindings
 * (read per line: a child's may change), then the request id's key. With pino's epoch time (its
 * default) the time's digits are written from the clock's integer; any other time function is called
 * for every line, as pino does. `read(level)` takes a line's head and answers how many bytes it needs
 * at most; `put` writes it.
 */
function headOf(internals: Record<symbol, unknown>, logger: Logger) {
  const pinoTime = internals[timeSym] as () => string;
  const epochTime = pinoTime === pino.stdTimeFunctions.epochTime;
  const prefixOf = lastWritten((prefix: string) => Buffer.from(epochTime ? prefix + TIME_KEY : prefix));
  const chindingsOf = lastWritten((chindings: string) => Buffer.from(chindings + REQUEST_ID_KEY));
  let prefix = EMPTY;
  let chindings = EMPTY;
  let time = '';
  return {
    read(level: 'info' | 'error'): number {
      prefix = prefixOf((internals[lsCacheSym] as Record<number, string>)[logger.levels.values[level]!]!);
      chindings = chindingsOf(internals[chindingsSym] as string);
      if (epochTime) return prefix.length + NUMBER_BYTES_AT_MOST + chindings.length;
      time = pinoTime();
      return prefix.length + Buffer.byteLength(time) + chindings.length;
    },
    put(buffer: Buffer, at: number): number {
      const afterPrefix = put(buffer, at, prefix);
      const afterTime = epochTime ? putNumber(buffer, afterPrefix, Date.now()) : afterPrefix + buffer.write(time, afterPrefix);
      return put(buffer, afterTime, chindings);
    },
  };
}

const EMPTY = Buffer.alloc(0);

/**
 * Any other destination: each line made in a buffer of the writer's own and written as text, the
 * same line as gathered lines get.
 */
class TextLines implements LineBytes {
  private buffer = Buffer.allocUnsafe(1024);
  readonly at = 0;
  constructor(private readonly stream: { write: (text: string) => void }) {}
  reserve(maxBytes: number): Buffer {
    if (maxBytes > this.buffer.length) this.buffer = Buffer.allocUnsafe(maxBytes);
    return this.buffer;
  }
  commit(end: number): void {
    this.stream.write(this.buffer.toString('utf8', 0, end));
  }
}

/**
 * JSON escaping and number formatting were half of what the line cost (callgrind, bench/pipeline.bench.ts):
 * a string that needs no escaping (the ids: visible ASCII) is written as it is; anything else as
 * JSON.stringify has it.
 */
function putQuoted(buffer: Buffer, at: number, value: string): number {
  if (!NOTHING_TO_ESCAPE.test(value)) return at + buffer.write(JSON.stringify(value), at);
  buffer[at] = QUOTE;
  const end = at + 1 + buffer.write(value, at + 1, 'latin1');
  buffer[end] = QUOTE;
  return end + 1;
}

/** JSON.stringify writes at most six characters for a UTF-16 unit (`\uXXXX`), each one byte. */
const quotedBytesAtMost = (value: string) => 2 + 6 * value.length;
const QUOTE = 0x22;
const DIGIT_0 = 0x30;
const DOT = 0x2e;

/** What `String(value)` writes: a clock's milliseconds, most often a non-negative integer (a faked clock may hold any number). */
function putNumber(buffer: Buffer, at: number, value: number): number {
  return Number.isSafeInteger(value) && value >= 0 ? putInteger(buffer, at, value) : at + buffer.write(String(value), at, 'latin1');
}

/**
 * The digits of a non-negative safe integer. An epoch in milliseconds is above 2^31: it is written as
 * two parts of at most eight digits, each worked in 32-bit integers (division of a double was most of it).
 */
function putInteger(buffer: Buffer, at: number, value: number): number {
  if (value < SMALL_LIMIT) return putSmall(buffer, at, value, 1);
  const high = Math.floor(value / SMALL_LIMIT);
  // Below 2^53 / 10^8: one part of at most eight digits.
  return putSmall(buffer, putSmall(buffer, at, high, 1), value - high * SMALL_LIMIT, SMALL_DIGITS);
}

const SMALL_DIGITS = 8;
const SMALL_LIMIT = 10 ** SMALL_DIGITS;

/** The digits of `value` (below 10^8), at least `digits` of them (zeros before). */
function putSmall(buffer: Buffer, at: number, value: number, digits: number): number {
  let end = at + digits;
  for (let rest = value, count = 1; rest >= 10; rest = (rest / 10) | 0) if (++count > digits) end++;
  for (let to = end - 1, rest = value; to >= at; to--) {
    const next = (rest / 10) | 0;
    buffer[to] = DIGIT_0 + rest - next * 10;
    rest = next;
  }
  return end;
}

/**
 * What `String(ms)` writes for a duration in milliseconds to three decimals (request-log.ts rounds it
 * to whole microseconds), from integers: below 2^43 ms (278 years) doubles lie closer together than
 * 0.001, so the shortest decimal of such a double is its three decimals, trailing zeros left out
 * (`src/http/access-line.test.ts` compares the two over a range). Anything else as `String()` has it,
 * and a duration that is no number as pino writes one: null.
 */
function putMilliseconds(buffer: Buffer, at: number, ms: number): number {
  if (!Number.isFinite(ms)) return at + buffer.write('null', at, 'latin1');
  const microseconds = Math.round(ms * 1000);
  if (ms < 0 || ms >= 2 ** 43 || microseconds / 1000 !== ms) return at + buffer.write(String(ms), at, 'latin1');
  const whole = Math.floor(microseconds / 1000);
  let fraction = microseconds - whole * 1000;
  const to = putInteger(buffer, at, whole);
  if (fraction === 0) return to;
  let digits = 3;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  buffer[to] = DOT;
  return putSmall(buffer, to + 1, fraction, digits);
}

const scratch = Buffer.alloc(NUMBER_BYTES_AT_MOST);
/** The text `putMilliseconds` writes. */
export const millisecondsText = (ms: number): string => scratch.toString('latin1', 0, putMilliseconds(scratch, 0, ms));

/** `text(value)`, the last one's kept for the next line while the value stays the same (never undefined). */
function lastWritten<V, T>(text: (value: V) => T): (value: V) => T {
  let last: V | undefined;
  let lastText!: T;
  return (value) => {
    if (value !== last) {
      last = value;
      lastText = text(value);
    }
    return lastText;
  };
}

const quoted = (value: string) => (NOTHING_TO_ESCAPE.test(value) ? `"${value}"` : JSON.stringify(value));
const NOTHING_TO_ESCAPE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

const stringOrNull = (value: string | null) => (value === null ? 'null' : quoted(value));

/**
 * Options under which pino's own path makes a line this writer would not (none is set by
 * src/platform/logger.ts): a mixin, hooks, a log formatter, a message prefix, or a destination that
 * routes lines by level (multistream). The writer then leaves the line to pino.
 */
function changesItsLines(internals: Record<symbol, unknown>): boolean {
  const hooks = internals[hooksSym] as { logMethod?: unknown; streamWrite?: unknown } | undefined;
  const formatters = internals[formattersSym] as { log?: unknown } | undefined;
  const stream = internals[streamSym] as Record<symbol, unknown>;
  return (
    internals[mixinSym] !== undefined ||
    hooks?.logMethod !== undefined ||
    hooks?.streamWrite !== undefined ||
    formatters?.log !== undefined ||
    internals[msgPrefixSym] !== undefined ||
    stream[needsMetadataGsym] === true
  );
}
