import { createClient } from 'redis';
import type { Logger } from './logger.js';

export type RedisClient = ReturnType<typeof createClient>;

export interface RedisConnectionOptions {
  url: string;
  logger: Logger;
  /** Longest wait for one command; a slower Redis counts as down (default 300 ms). */
  commandTimeoutMs?: number;
  /** How long start-up waits for a first connection before serving without it (default 2 s). */
  startupWaitMs?: number;
  /** After a failed command, how long to leave Redis alone before trying it again (default 1 s). */
  retryAfterFailureMs?: number;
  /** Called on every (re)connection, before Redis is reported up: load scripts here. */
  onConnect?: (client: RedisClient) => Promise<unknown>;
}

/**
 * The official client, set up so an outage costs nothing but per-process counting: commands fail
 * fast instead of queueing while disconnected (disableOfflineQueue) or hanging (command timeout),
 * the client reconnects by itself, and each outage is logged once when it starts and once when
 * it ends.
 */
export class RedisConnection {
  readonly client: RedisClient;
  private connected = false;
  private failedAt: number | undefined;
  private outageLogged = false;
  private closed = false;
  private readonly retryAfterFailureMs: number;

  private constructor(private readonly options: RedisConnectionOptions) {
    this.retryAfterFailureMs = options.retryAfterFailureMs ?? 1000;
    this.client = createClient({
      url: options.url,
      disableOfflineQueue: true,
      commandOptions: { timeout: options.commandTimeoutMs ?? 300 },
      socket: {
        connectTimeout: 1000,
        reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 2000),
      },
    });
    this.client.on('error', (err: unknown) => this.noteFailure(err));
    this.client.on('ready', () => void this.ready());
    this.client.on('end', () => {
      this.connected = false;
    });
  }

  static async open(options: RedisConnectionOptions): Promise<RedisConnection> {
    const connection = new RedisConnection(options);
    const connecting = connection.client.connect().then(
      () => undefined,
      () => undefined,
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise((resolve) => {
      timer = setTimeout(resolve, options.startupWaitMs ?? 2000);
    });
    // Serve without Redis rather than not start: the client keeps trying in the background.
    await Promise.race([connecting.then(() => connection.settled()), waited]);
    clearTimeout(timer);
    if (!connection.isUp()) connection.noteFailure(new Error('Redis is not reachable at start-up'));
    return connection;
  }

  /** Up: connected, and the last command did not fail. */
  isUp(): boolean {
    return this.connected && this.failedAt === undefined && this.client.isReady;
  }

  /** Whether a command is worth sending now: up, or a failure long enough ago to probe again. */
  usable(now = Date.now()): boolean {
    if (!this.connected || !this.client.isReady) return false;
    return this.failedAt === undefined || now - this.failedAt >= this.retryAfterFailureMs;
  }

  noteFailure(err: unknown): void {
    this.failedAt = Date.now();
    if (this.outageLogged || this.closed) return;
    this.outageLogged = true;
    this.options.logger.error(
      { err: err instanceof Error ? err.message : String(err) },
      'Redis unreachable: counting rate limits per process until it returns',
    );
  }

  noteSuccess(): void {
    if (this.failedAt === undefined) return;
    this.failedAt = undefined;
    this.logRecovery();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connected = false;
    // destroy, not quit: quit would wait for a Redis that may be gone.
    if (this.client.isOpen) this.client.destroy();
  }

  private settledPromise: Promise<void> | undefined;
  private settled(): Promise<void> {
    return this.settledPromise ?? Promise.resolve();
  }

  private async ready(): Promise<void> {
    const preparing = (async () => {
      try {
        await this.options.onConnect?.(this.client);
        this.connected = true;
        this.failedAt = undefined;
        this.logRecovery();
      } catch (err) {
        this.connected = true;
        this.noteFailure(err);
      }
    })();
    this.settledPromise = preparing;
    await preparing;
  }

  private logRecovery(): void {
    if (!this.outageLogged) return;
    this.outageLogged = false;
    this.options.logger.info('Redis reachable again: rate limits are counted in Redis');
  }
}
