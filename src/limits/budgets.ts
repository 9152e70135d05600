import type { components } from '../../generated/api.js';
import type { Config } from '../config.js';

export type WindowName = NonNullable<components['schemas']['Error']['window']>;
export type BudgetName = 'account' | 'client' | 'strict' | 'refresh' | 'anonymous';
export type WindowKind = 'burst' | 'sustained';

export interface Budget {
  readonly name: BudgetName;
  readonly burst: number;
  readonly sustained: number;
}

export type Budgets = Readonly<Record<BudgetName, Budget>>;

/** The policy table of docs/rate-limits.md, from the settings. */
export function budgetsFrom(config: Config): Budgets {
  const budget = (name: BudgetName, burst: number, sustained: number): Budget => Object.freeze({ name, burst, sustained });
  return Object.freeze({
    account: budget('account', config.RATE_LIMIT_BURST_PER_MINUTE, config.RATE_LIMIT_SUSTAINED_PER_HOUR),
    client: budget('client', config.RATE_LIMIT_CLIENT_BURST_PER_MINUTE, config.RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR),
    strict: budget('strict', config.RATE_LIMIT_STRICT_BURST_PER_MINUTE, config.RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR),
    refresh: budget('refresh', config.RATE_LIMIT_REFRESH_BURST_PER_MINUTE, config.RATE_LIMIT_REFRESH_SUSTAINED_PER_HOUR),
    // Anonymous callers get the account budget's numbers, per client IP.
    anonymous: budget('anonymous', config.RATE_LIMIT_BURST_PER_MINUTE, config.RATE_LIMIT_SUSTAINED_PER_HOUR),
  });
}

/** A budget charged for one subject (an account, an account + client, an endpoint + IP, ...). */
export interface Charge {
  readonly budget: Budget;
  readonly subject: string;
}

/**
 * What one request spends: the governing budget (whose burst window fills X-RateLimit-*) and, for
 * authenticated requests, the caller's client fence inside the account budget.
 */
export interface Plan {
  readonly governing: Charge;
  readonly client?: Charge;
}

export const windowName = (budget: BudgetName, kind: WindowKind): WindowName => `${budget}-${kind}`;
