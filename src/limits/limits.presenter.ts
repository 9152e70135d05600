import type { components } from '../../generated/api.js';
import type { BudgetState } from './limiter.js';

type BudgetUsage = components['schemas']['BudgetUsage'];

/** A budget's windows as GET /me/usage shows them. */
export const toUsage = ({ burst, sustained }: BudgetState): BudgetUsage => ({
  burst: { limit: burst.limit, remaining: burst.remaining, resetSeconds: burst.resetSeconds },
  sustained: { limit: sustained.limit, remaining: sustained.remaining, resetSeconds: sustained.resetSeconds },
});
