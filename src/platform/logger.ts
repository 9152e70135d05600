import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** What standard output gathers before a write; a line waits at most `FLUSH_MS` for others to share it. */
const MIN_WRITE_BYTES = 4096;
const FLUSH_MS = 10;

/** A logger of the service's shape; its lines go to standard output (below) unless a bench or a test gives another destination. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const out = destination ?? stdout();
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', '*.password', '*.token', '*.refreshToken', '*.credentials', 'credentials'],
        censor: '[redacted]',
      },
      // A line written to standard output is flushed within FLUSH_MS, however few follow it.
      ...(destination === undefined ? { hooks: { streamWrite: flushSoon } } : {}),
    },
    out,
  );
}

/**
 * Standard output through pino's own destination (SonicBoom), written asynchronously once 4 KiB are
 * gathered (under load one write carries a dozen access lines); pino flushes the rest when the process
 * exits or crashes. One for the process, shared by every logger, so lines stay in order.
 */
let destination: ReturnType<typeof pino.destination> | undefined;
const stdout = () => (destination ??= pino.destination({ dest: 1, minLength: MIN_WRITE_BYTES, sync: false }));

let flushPending = false;
function flushSoon(line: string): string {
  if (!flushPending) {
    flushPending = true;
    // Unref'd: a process with nothing else to do exits, and pino flushes on exit.
    setTimeout(() => {
      flushPending = false;
      stdout().flush();
    }, FLUSH_MS).unref();
  }
  return line;
}
