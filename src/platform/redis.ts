import { createClient, createCluster } from 'redis';
import type { Logger } from './logger.js';

/**
 * The commands this service sends, as one Redis and a Redis Cluster both take them: a cluster
 * routes each call by its first key, so every key of one call must share a hash tag.
 */
export interface RedisCommands {
  evalSha(sha1: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  eval(script: string, options: { keys: string[]; arguments: string[] }): Promise<unknown>;
  mGet(keys: string[]): Promise<(string | null)[]>;
  scriptLoad(script: string): Promise<string>;
  ping(): Promise<string>;
}

/** One Redis (tests and benches use it directly too). */
export type RedisClient = ReturnType<typeof createClient>;
type NodeRedis = RedisClient | ReturnType<typeof createCluster>;

export interface RedisConnectionOptions {
  url: string;
  /** `url` names one node of a Redis Cluster (REDIS_CLUSTER): the client finds the others from it. */
  cluster?: boolean;
  logger: Logger;
  /** Longest wait for one command; a slower Redis counts as down (default 500 ms). */
  commandTimeoutMs?: number;
  /** How long start-up waits for a first connection before serving without it (default 2 s). */
  startupWaitMs?: number;
  /** After a failed command, how long to leave Redis alone before one request probes it again (default 1 s). */
  probeAfterMs?: number;
  /** Loads scripts on every (re)connection of one Redis before it is up; not for a cluster: callers fall back to EVAL on NOSCRIPT. */
  onConnect?: (client: RedisCommands) => Promise<unknown>;
}

interface Deadline {
  at: number;
  readonly fail: (err: Error) => void;
}

/** How often overdue calls are failed: the timeout is exact to within this. */
const WATCHDOG_INTERVAL_MS = 25;

export class RedisTimeoutError extends Error {
  constructor(ms: number) {
    super(`Redis did not answer within ${ms} ms`);
    this.name = 'RedisTimeoutError';
  }
}

/**
 * The official client, set up so that an outage costs nothing but per-process counting: commands fail fast rather than
 * queue (disableOfflineQueue) or hang (`run` bounds every call), and each outage is logged once as it starts and ends.
 */
export class RedisConnection {
  readonly client: RedisCommands;
  private readonly redis: NodeRedis;
  private prepared = false;
  private failedAt: number | undefined;
  private probing = false;
  private outageLogged = false;
  private closed = false;
  private readonly commandTimeoutMs: number;
  private readonly probeAfterMs: number;
  private readonly deadlines = new Set<Deadline>();
  private readonly watchdog: NodeJS.Timeout;
  private lastTick = Date.now();
  private markFirstPrepared!: () => void;
  private readonly firstPrepared = new Promise<void>((resolve) => {
    this.markFirstPrepared = resolve;
  });

  private constructor(private readonly options: RedisConnectionOptions) {
    this.commandTimeoutMs = options.commandTimeoutMs ?? 500;
    this.probeAfterMs = options.probeAfterMs ?? 1000;
    const clientOptions = {
      disableOfflineQueue: true,
      // 0: no per-command AbortSignal (costly on every call); `run` bounds each call instead.
      commandOptions: { timeout: 0 },
      socket: { connectTimeout: 1000, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
    };
    if (options.cluster) {
      this.redis = createCluster({ rootNodes: [{ url: options.url }], defaults: clientOptions, commandOptions: { timeout: 0 } });
      // The cluster as a whole is up or down for the fallback (docs/rate-limits.md): one node's errors count as a lost connection.
      this.redis.on('node-error', (err: unknown) => this.noteFailure(err));
    } else {
      this.redis = createClient({ url: options.url, ...clientOptions });
      this.redis.on('ready', () => void this.prepare());
    }
    this.client = this.redis as unknown as RedisCommands;
    this.watchdog = setInterval(() => this.failOverdue(), WATCHDOG_INTERVAL_MS).unref();
    this.redis.on('error', (err: unknown) => this.noteFailure(err));
  }

  /** Connects, waiting a little for Redis at start-up but starting without it rather than not at all. */
  static async open(options: RedisConnectionOptions): Promise<RedisConnection> {
    const connection = new RedisConnection(options);
    const connected = connection.redis.connect();
    if (options.cluster) {
      // The cluster client has no 'ready' per reconnection: prepared once it has the slot map, retried in the background.
      connected.then(() => connection.prepare(), () => connection.connectClusterLater());
    } else connected.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, options.startupWaitMs ?? 2000);
    });
    await Promise.race([connection.firstPrepared, gaveUp]);
    clearTimeout(timer);
    if (!connection.isUp()) connection.noteFailure(new Error('Redis is not reachable at start-up'));
    return connection;
  }

  /** Up: connected, prepared, and the last command did not fail. */
  isUp(): boolean {
    return this.prepared && this.redis.isReady && this.failedAt === undefined;
  }

  /**
   * Runs one call within the command timeout, rejecting when it fails or times out; while Redis is down, answers
   * undefined without trying (but for one probe at a time, after `probeAfterMs`).
   */
  async run<T>(call: (client: RedisCommands) => Promise<T>): Promise<T | undefined> {
    const attempt = this.mayTry();
    if (attempt === 'no') return undefined;
    try {
      const result = await this.withinTimeout(call);
      this.noteSuccess();
      return result;
    } catch (err) {
      this.noteFailure(err);
      throw err;
    } finally {
      if (attempt === 'probe') this.probing = false;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.watchdog);
    clearTimeout(this.clusterRetry);
    // destroy, not quit: quit would wait for a Redis that may be gone.
    if (this.redis.isOpen) this.redis.destroy();
  }

  private clusterRetry: NodeJS.Timeout | undefined;

  /** A cluster that could not be reached at start-up: asked for its slot map again every 2 s. */
  private connectClusterLater(): void {
    if (this.closed) return;
    this.clusterRetry = setTimeout(() => {
      this.redis.connect().then(
        () => this.prepare(),
        () => this.connectClusterLater(),
      );
    }, 2000);
    this.clusterRetry.unref();
  }

  private mayTry(): 'yes' | 'probe' | 'no' {
    if (!this.prepared || !this.redis.isReady) return 'no';
    if (this.failedAt === undefined) return 'yes';
    if (this.probing || Date.now() - this.failedAt < this.probeAfterMs) return 'no';
    this.probing = true;
    return 'probe';
  }

  /** On every (re)connection; a failed preparation is a failed command: Redis is probed again later. */
  private async prepare(): Promise<void> {
    this.prepared = false;
    try {
      const onConnect = this.options.cluster ? undefined : this.options.onConnect;
      if (onConnect) await this.withinTimeout(onConnect);
      this.noteSuccess();
    } catch (err) {
      this.noteFailure(err);
    } finally {
      this.prepared = true;
      this.markFirstPrepared();
    }
  }

  /** Bounds the wait for the answer with one watchdog timer for all calls: the client's own costs an AbortSignal per command. */
  private withinTimeout<T>(call: (client: RedisCommands) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const deadline: Deadline = { at: Date.now() + this.commandTimeoutMs, fail: reject };
      this.deadlines.add(deadline);
      const answered = (settle: () => void) => {
        if (this.deadlines.delete(deadline)) settle();
      };
      try {
        call(this.client).then(
          (result) => answered(() => resolve(result)),
          (err: unknown) => answered(() => reject(err)),
        );
      } catch (err) {
        answered(() => reject(err));
      }
    });
  }

  private failOverdue(): void {
    const now = Date.now();
    // A late tick means our event loop was busy, not Redis slow (the answers may wait in the socket): give that time back.
    const lag = now - this.lastTick - WATCHDOG_INTERVAL_MS;
    this.lastTick = now;
    for (const deadline of this.deadlines) {
      if (lag > WATCHDOG_INTERVAL_MS) deadline.at += lag;
      if (deadline.at > now) continue;
      this.deadlines.delete(deadline);
      deadline.fail(new RedisTimeoutError(this.commandTimeoutMs));
    }
  }

  private noteSuccess(): void {
    this.failedAt = undefined;
    if (!this.outageLogged) return;
    this.outageLogged = false;
    this.options.logger.info('Redis reachable again: rate limits are counted in Redis');
  }

  private noteFailure(err: unknown): void {
    this.failedAt = Date.now();
    if (this.outageLogged || this.closed) return;
    this.outageLogged = true;
    this.options.logger.error(
      { err: err instanceof Error ? err.message : String(err) },
      'Redis unreachable: counting rate limits per process until it returns',
    );
  }
}
