import type { Logger } from '../platform/logger.js';

const PROBE_INTERVAL_MS = 1000;

/**
 * Logs a database outage once when the first 503 is answered and once when a probe finds the
 * database again, with how many requests were refused in between, instead of a stack per 503.
 */
export function createDatabaseOutageLog(logger: Logger, databaseReachable: () => Promise<boolean>) {
  let startedAt: number | undefined;
  let refused = 0;
  const probe = () => {
    const timer = setTimeout(() => {
      void databaseReachable()
        .catch(() => false)
        .then((reachable) => {
          if (!reachable) return probe();
          logger.warn({ refused, outageMs: Date.now() - startedAt! }, 'database reachable again');
          startedAt = undefined;
          refused = 0;
        });
    }, PROBE_INTERVAL_MS);
    timer.unref();
  };
  return {
    /** A request answered 503 because the database could not be reached. */
    refusal: (err: unknown) => {
      refused++;
      if (startedAt !== undefined) return;
      startedAt = Date.now();
      logger.error({ err }, 'database unreachable: answering 503 SERVICE_UNAVAILABLE until it is back');
      probe();
    },
  };
}
