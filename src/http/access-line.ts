import { pino, type Logger } from 'pino';

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
 */
export function accessLineWriter(logger: Logger): (level: 'info' | 'error', line: AccessLine) => void {
  const internals = logger as unknown as Record<symbol, unknown>;
  if (changesItsLines(internals)) return (level, line) => logger[level]({ ...line }, 'request');
  // Set when the logger is made and never changed: the message and the end of line are one piece.
  const tail = `,${JSON.stringify(internals[messageKeySym])}:"request"${internals[endSym] as string}`;
  const stream = internals[streamSym] as { write: (text: string) => void };
  const head = headOf(internals, logger);
  // The line is a few pieces, each written once and reused while it stays the same (a line of many
  // small pieces cost a join each, and again when the gathered lines were made one text to write).
  // The method, route template and operationId come from the operation table: one piece per operation.
  const routeFields = new Map<string | null, { method: string; route: string | null; text: string }>();
  const routeFieldsOf = ({ method, route, operationId }: AccessLine) => {
    let fields = routeFields.get(operationId);
    if (fields?.route !== route || fields.method !== method) {
      // A method is a token (RFC 9110 §9.1; Node's parser takes no other): nothing in it to escape.
      fields = { method, route, text: `,"method":"${method}","route":${stringOrNull(route)},"operationId":${stringOrNull(operationId)}` };
      routeFields.set(operationId, fields);
    }
    return fields.text;
  };
  const statusText = lastWritten((status: number) => `,"status":${status},"durationMs":`);
  // A client calls again and again with one token: its account and client ids repeat line after line.
  let lastCaller: { accountId: string | null; clientId: string | null; text: string } = { accountId: null, clientId: null, text: ',"accountId":null,"clientId":null' };
  const callerText = ({ accountId, clientId }: AccessLine) => {
    if (accountId !== lastCaller.accountId || clientId !== lastCaller.clientId) {
      lastCaller = { accountId, clientId, text: `,"accountId":${stringOrNull(accountId)},"clientId":${stringOrNull(clientId)}` };
    }
    return lastCaller.text;
  };
  return (level, line) => {
    if (!logger.isLevelEnabled(level)) return;
    const text =
      head(level) +
      ',"requestId":' +
      quoted(line.requestId) +
      routeFieldsOf(line) +
      statusText(line.status) +
      millisecondsText(line.durationMs) +
      callerText(line) +
      (line.aborted ? ',"aborted":true' : '') +
      tail;
    stream.write(text);
  };
}

/**
 * What pino writes before a line's own fields: its level's prefix, its time, the logger's bindings
 * (read per line: a child's may change). With pino's epoch time (its default), made once per
 * millisecond and level; any other time function is called for every line, as pino does.
 */
function headOf(internals: Record<symbol, unknown>, logger: Logger): (level: 'info' | 'error') => string {
  const pinoTime = internals[timeSym] as () => string;
  const prefixOf = (level: 'info' | 'error') => (internals[lsCacheSym] as Record<number, string>)[logger.levels.values[level]!]!;
  if (pinoTime !== pino.stdTimeFunctions.epochTime) return (level) => prefixOf(level) + pinoTime() + (internals[chindingsSym] as string);
  // The level's prefix holds its number: a line at another level has another prefix.
  let last = { ms: -1, prefix: '', chindings: '', text: '' };
  return (level) => {
    const ms = Date.now();
    const prefix = prefixOf(level);
    const chindings = internals[chindingsSym] as string;
    if (ms !== last.ms || prefix !== last.prefix || chindings !== last.chindings) {
      last = { ms, prefix, chindings, text: `${prefix},"time":${ms}${chindings}` };
    }
    return last.text;
  };
}

/**
 * JSON escaping and number formatting were half of what the line cost (callgrind, bench/pipeline.bench.ts):
 * a string that needs no escaping (the ids: visible ASCII) is quoted as it is, the last account and
 * client written are reused, pino's epoch time is formatted once per millisecond, and a duration in
 * whole microseconds is written from its integer parts.
 */
const NOTHING_TO_ESCAPE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const quoted = (value: string) => (NOTHING_TO_ESCAPE.test(value) ? `"${value}"` : JSON.stringify(value));

/** `text(value)`, the last one's kept for the next line while the value stays the same (never undefined). */
function lastWritten<V>(text: (value: V) => string): (value: V) => string {
  let last: V | undefined;
  let lastText = '';
  return (value) => {
    if (value !== last) {
      last = value;
      lastText = text(value);
    }
    return lastText;
  };
}

/**
 * What `String(ms)` writes for a duration in milliseconds to three decimals (request-log.ts rounds it
 * to whole microseconds), from integers: below 2^43 ms (278 years) doubles lie closer together than
 * 0.001, so the shortest decimal of such a double is its three decimals, trailing zeros left out
 * (`src/http/access-line.test.ts` compares the two over a range). Anything else as `String()` has it,
 * and a duration that is no number as pino writes one: null.
 */
export function millisecondsText(ms: number): string {
  if (!Number.isFinite(ms)) return 'null';
  const microseconds = Math.round(ms * 1000);
  if (ms < 0 || ms >= 2 ** 43 || microseconds / 1000 !== ms) return String(ms);
  const whole = Math.floor(microseconds / 1000);
  let fraction = microseconds - whole * 1000;
  if (fraction === 0) return `${whole}`;
  let digits = 3;
  while (fraction % 10 === 0) {
    fraction /= 10;
    digits--;
  }
  return `${whole}.${String(fraction).padStart(digits, '0')}`;
}

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
