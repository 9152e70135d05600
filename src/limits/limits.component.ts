import type { Request, RequestHandler } from 'express';
import type { Metric } from 'prom-client';
import type { components } from '../../generated/api.js';
import type { Config } from '../config.js';
import type { CoreDeps } from '../deps.js';
import type { Caller } from '../http/caller.js';
import type { Logger } from '../platform/logger.js';
import { RedisConnection } from '../platform/redis.js';
import { budgetsFrom } from './budgets.js';
import { FallbackStore } from './fallback.store.js';
import { Limiter } from './limiter.js';
import { toUsage } from './limits.presenter.js';
import { MemoryStore } from './memory.store.js';
import { createLimitsMetrics } from './limits.metrics.js';
import { createRateLimitMiddleware } from './rate-limit.middleware.js';
import { RedisStore } from './redis.store.js';
import { authenticatedPlans, createPlanner } from './request-plan.js';
import type { RateLimitStore } from './store.js';

export type BudgetUsage = components['schemas']['BudgetUsage'];

export interface LimitsHooks {
  refreshTokenAccount: (refreshToken: string) => Promise<string | undefined>;
  /** The token of a request's refresh cookie (a cookie session): the refresh budget keys on it when the body has none. */
  refreshCookieOf?: (req: Request) => string | undefined;
}

export interface LimitsComponent {
  /** Spends every window that applies, sets the X-RateLimit-* headers, or answers 429. */
  rateLimit: RequestHandler;
  /** The caller's account and client windows as they stand (nothing spent). */
  usage: (caller: Caller) => Promise<{ account: BudgetUsage; client: BudgetUsage }>;
  /** undefined when Redis is not configured. */
  redisUp?: () => boolean;
  /** Decisions by budget, window and outcome; where counting happens now (redis, fallback, memory). */
  metrics: Metric[];
  close: () => Promise<void>;
}

export interface LimitsOptions {
  /** Injected by tests to move through windows without waiting. */
  clock?: () => number;
}

/** Every budget of docs/rate-limits.md, atomic across its windows. */
export async function createLimitsComponent(
  { config, logger }: CoreDeps,
  hooks: LimitsHooks,
  options: LimitsOptions = {},
): Promise<LimitsComponent> {
  const budgets = budgetsFrom(config);
  const { store, redisUp } = await openStore(config, logger);
  const limiter = new Limiter(store, options.clock);
  const planFor = createPlanner(
    budgets,
    hooks.refreshTokenAccount,
    (err, requestId) => logger.warn({ err, requestId }, 'refresh-token look-up failed: counting this refresh by client IP'),
  );
  const usagePlan = authenticatedPlans(budgets);
  const metrics = createLimitsMetrics(() => (redisUp === undefined ? 'memory' : redisUp() ? 'redis' : 'fallback'));
  const passThrough: RequestHandler = (_req, _res, next) => next();
  return {
    rateLimit: config.RATE_LIMITS_ENABLED ? createRateLimitMiddleware(limiter, planFor, metrics.recordDecision, hooks.refreshCookieOf) : passThrough,
    usage: async (caller) => {
      const { governing, client } = await limiter.peek(usagePlan(caller));
      return { account: toUsage(governing), client: toUsage(client!) };
    },
    redisUp,
    metrics: metrics.collectors,
    close: () => store.close(),
  };
}

async function openStore(config: Config, logger: Logger): Promise<{ store: RateLimitStore; redisUp?: () => boolean }> {
  const memory = new MemoryStore();
  if (!config.REDIS_URL || !config.RATE_LIMITS_ENABLED) return { store: memory };
  const connection = await RedisConnection.open({ url: config.REDIS_URL, cluster: config.REDIS_CLUSTER, logger, onConnect: RedisStore.loadScript });
  const store = new FallbackStore(new RedisStore(connection.client, `${config.REDIS_KEY_PREFIX}rl:`), memory, connection);
  return { store, redisUp: () => connection.isUp() };
}
