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
  const message = `,${JSON.stringify(internals[messageKeySym])}:"request"`;
  // A route's template and operationId come from the operation table: written once each, then reused.
  const routeFields = new Map<string | null, { route: string | null; text: string }>();
  const routeFieldsOf = ({ route, operationId }: AccessLine) => {
    let fields = routeFields.get(operationId);
    if (fields?.route !== route) {
      fields = { route, text: `,"route":${stringOrNull(route)},"operationId":${stringOrNull(operationId)}` };
      routeFields.set(operationId, fields);
    }
    return fields.text;
  };
  return (level, line) => {
    if (!logger.isLevelEnabled(level)) return;
    const prefixes = internals[lsCacheSym] as Record<number, string>;
    const time = (internals[timeSym] as () => string)();
    const text =
      prefixes[logger.levels.values[level]!] +
      time +
      (internals[chindingsSym] as string) +
      // A method is a token (RFC 9110 §9.1; Node's parser takes no other): nothing in it to escape.
      `,"requestId":${JSON.stringify(line.requestId)},"method":"${line.method}"` +
      routeFieldsOf(line) +
      `,"status":${line.status},"durationMs":${line.durationMs}` +
      `,"accountId":${stringOrNull(line.accountId)},"clientId":${stringOrNull(line.clientId)}` +
      (line.aborted ? ',"aborted":true' : '') +
      message +
      (internals[endSym] as string);
    (internals[streamSym] as { write: (text: string) => void }).write(text);
  };
}

const stringOrNull = (value: string | null) => (value === null ? 'null' : JSON.stringify(value));

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
