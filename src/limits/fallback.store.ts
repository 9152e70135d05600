import type { RedisConnection } from '../platform/redis.js';
import type { MemoryStore } from './memory.store.js';
import type { RateLimitStore, StoreDecision, WindowCharge } from './store.js';

/**
 * Redis while it answers, per-process counts (the insurance) while it does not: an outage never
 * turns into a 500, a hang or a crash, and the next successful command puts Redis back in charge.
 */
export class FallbackStore implements RateLimitStore {
  constructor(
    private readonly primary: RateLimitStore,
    private readonly insurance: MemoryStore,
    private readonly connection: RedisConnection,
  ) {}

  async spend(windows: readonly WindowCharge[], now: number): Promise<StoreDecision> {
    if (!this.connection.usable()) return this.insurance.spendNow(windows, now);
    try {
      const decision = await this.primary.spend(windows, now);
      this.connection.noteSuccess();
      return decision;
    } catch (err) {
      this.connection.noteFailure(err);
      return this.insurance.spendNow(windows, now);
    }
  }

  async peek(windows: readonly WindowCharge[], now: number): Promise<number[]> {
    if (!this.connection.usable()) return this.insurance.peek(windows, now);
    try {
      return await this.primary.peek(windows, now);
    } catch (err) {
      this.connection.noteFailure(err);
      return this.insurance.peek(windows, now);
    }
  }

  async close(): Promise<void> {
    await this.insurance.close();
    await this.connection.close();
  }
}
