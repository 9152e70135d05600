import type { RedisConnection } from '../platform/redis.js';
import type { MemoryStore } from './memory.store.js';
import type { RateLimitStore, StoreDecision, WindowCharge } from './store.js';

/**
 * Redis while it answers in time, per-process counts (the insurance) while it does not: an outage
 * never turns into a 500, a hang or a crash, and the first successful call puts Redis back in
 * charge. The connection records each failure and logs the outage once.
 */
export class FallbackStore implements RateLimitStore {
  constructor(
    private readonly primary: RateLimitStore,
    private readonly insurance: MemoryStore,
    private readonly connection: RedisConnection,
  ) {}

  async spend(windows: readonly WindowCharge[], now: number): Promise<StoreDecision> {
    const decision = await this.connection.run(() => this.primary.spend(windows, now)).catch(() => undefined);
    return decision ?? this.insurance.spendNow(windows, now);
  }

  async peek(windows: readonly WindowCharge[], now: number): Promise<number[]> {
    const counts = await this.connection.run(() => this.primary.peek(windows, now)).catch(() => undefined);
    return counts ?? this.insurance.peek(windows, now);
  }

  async close(): Promise<void> {
    await this.insurance.close();
    await this.connection.close();
  }
}
