import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      redact: {
        paths: ['req.headers.authorization', '*.password', '*.token', '*.refreshToken', '*.credentials', 'credentials'],
        censor: '[redacted]',
      },
    },
    stdoutByLoopTurn(),
  );
}

/**
 * Standard output, the lines of one turn of the event loop gathered into one write(2), in order.
 * With an access line per request and several requests a turn under load (about 10 lines a write),
 * that saves 1-3% of a GET /tasks's CPU against a write per line (built app, two alternating
 * runs, user and system time from /proc; bench/operations.bench.ts for the whole cost). A line waits at
 * most for the turn to end (setImmediate) or for 64 KiB to gather, and what is pending is written
 * when the process exits, a crash included; only a kill that gives no exit (SIGKILL) loses that turn.
 * Writes are synchronous (SonicBoom, which also retries a full pipe): pino's default destination
 * hands every line to libuv's thread pool instead, at twice the CPU of the write itself.
 * One for the process: every logger shares it, so lines stay in order.
 */
const stdoutByLoopTurn = once((): DestinationStream => {
  const stdout = pino.destination({ dest: 1, sync: true });
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const lines = pending;
    pending = '';
    stdout.write(lines);
  };
  process.on('exit', flush);
  return {
    write(line: string) {
      if (pending === '') setImmediate(flush);
      pending += line;
      if (pending.length >= 64 * 1024) flush();
    },
  };
});

function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}
