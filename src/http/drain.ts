import type { Server } from 'node:http';

/** How often connections that went idle during a drain are closed. */
const IDLE_SWEEP_MS = 100;

/**
 * Graceful shutdown for a server behind a balancer. Node's `close()` alone waits for keep-alive
 * connections to time out (65 s here): so once draining, every answer says `Connection: close`,
 * and connections whose answer was already on its way are closed as soon as they go idle. A
 * client that had just picked such a connection sees it closed before any answer: safe to retry.
 * `drain` refuses new connections at once and resolves when the last one is gone.
 */
export function createDrain(server: Server): { drain: () => Promise<void> } {
  let draining = false;
  server.prependListener('request', (_req, res) => {
    if (draining) res.setHeader('Connection', 'close');
  });
  return {
    drain: () => {
      draining = true;
      return new Promise<void>((resolve) => {
        const sweeper = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
        server.close(() => {
          clearInterval(sweeper);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
