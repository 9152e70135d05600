import { pino, type Logger } from 'pino';

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
    // One write(2) per line, in order, and none lost to a crash. pino's default asynchronous
    // destination hands each line to libuv's thread pool instead: with one access line per request
    // that cost twice the CPU of the write itself (about 17 µs against 8 µs a line, measured here).
    pino.destination({ dest: 1, sync: true }),
  );
}
