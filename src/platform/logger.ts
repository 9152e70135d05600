import { pino, type DestinationStream, type Logger } from 'pino';
import { gatheredLinesTo } from './gathered-lines.js';

export type { Logger };

/** A logger of the service's shape; its lines go to standard output gathered (below) unless a bench gives another destination. */
export function createLogger(level: string, destination: DestinationStream = stdoutGathered()): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', '*.password', '*.token', '*.refreshToken', '*.credentials', 'credentials'],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/**
 * Standard output, the lines of up to 10 ms gathered into one write(2), in order
 * (src/platform/gathered-lines.ts). Under load that is a write per few dozen access lines instead of
 * one per turn of the event loop (a few lines): the write was 1.8% of a GET /me's CPU gathered per
 * turn (bench/pipeline.bench.ts --profile), and per line it had cost 1-3% more of a GET /tasks
 * (bench/operations.bench.ts). A line waits at most 10 ms or for 64 KiB to gather, and what is
 * gathered is written when the process exits, a crash included; only a kill that gives no exit
 * (SIGKILL) loses those 10 ms.
 * Writes are synchronous (SonicBoom, which also retries a full pipe): pino's default destination
 * hands every line to libuv's thread pool instead, at twice the CPU of the write itself.
 * One for the process: every logger shares it, so lines stay in order.
 */
const stdoutGathered = once((): DestinationStream => {
  const lines = gatheredLinesTo(1);
  process.on('exit', lines.flush);
  return lines;
});

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
