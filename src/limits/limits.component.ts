import type { RequestHandler } from 'express';
import type { components } from '../../generated/api.js';
import type { CoreDeps } from '../deps.js';
import type { Caller } from '../http/caller.js';

export type BudgetUsage = components['schemas']['BudgetUsage'];

export interface LimitsHooks {
  refreshTokenAccount: (refreshToken: string) => Promise<string | undefined>;
}

export interface LimitsComponent {
  /** Spends every window that applies, sets the X-RateLimit-* headers, or answers 429. */
  rateLimit: RequestHandler;
  /** The caller's account and client windows as they stand (nothing spent). */
  usage: (caller: Caller) => Promise<{ account: BudgetUsage; client: BudgetUsage }>;
  /** undefined when Redis is not configured. */
  redisUp?: () => boolean;
  close: () => Promise<void>;
}

// Stub until the rate-limit issue lands: nothing is counted.
export async function createLimitsComponent({ config }: CoreDeps, _hooks: LimitsHooks): Promise<LimitsComponent> {
  const full = (burst: number, sustained: number): BudgetUsage => ({
    burst: { limit: burst, remaining: burst, resetSeconds: 60 },
    sustained: { limit: sustained, remaining: sustained, resetSeconds: 3600 },
  });
  return {
    rateLimit: (_req, _res, next) => next(),
    usage: async () => ({
      account: full(config.RATE_LIMIT_BURST_PER_MINUTE, config.RATE_LIMIT_SUSTAINED_PER_HOUR),
      client: full(config.RATE_LIMIT_CLIENT_BURST_PER_MINUTE, config.RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR),
    }),
    close: async () => undefined,
  };
}
