import type { Caller } from '../http/caller.js';
import type { OperationBudget } from '../http/operation-budgets.js';
import type { Budgets, Plan } from './budgets.js';

/** What the limiter needs to know about a request to decide which budgets it spends. */
export interface RequestFacts {
  /** What the route's operation declares; undefined for a request no operation serves (a 404 or 405). */
  readonly budget: OperationBudget | undefined;
  /** Asked only by the budgets keyed by IP: authenticated requests never need it. */
  clientIp(): string;
  readonly caller?: Caller;
  /** The parsed JSON body, when there is one (the refresh budget is keyed by its refresh token). */
  readonly body?: unknown;
  /** The token of the request's refresh cookie (a cookie session), asked only when the body has none. */
  refreshCookie?(): string | undefined;
  /** X-Request-Id, for the lines logged while planning. */
  readonly requestId?: string;
}

/** Longer than any refresh token we issue: not worth a database look-up. */
const MAX_REFRESH_TOKEN_LENGTH = 1024;

export type RefreshTokenAccount = (refreshToken: string) => Promise<string | undefined>;

/**
 * Decides which budgets a request spends (docs/rate-limits.md), keyed by whom, from what its operation
 * declares (`x-rate-limit-budget`, read once into the operation table). A request no operation
 * serves, and an operation declared account or public, spends the caller's account budget, or the
 * anonymous one by IP without a caller. Routes of operations declared none (the probes, /metrics)
 * have no count step; were one to reach it, it would count like a request no operation serves.
 */
export function createPlanner(
  budgets: Budgets,
  refreshTokenAccount: RefreshTokenAccount,
  onLookupError: (err: unknown, requestId: string | undefined) => void,
) {
  const accountOfRefreshToken = async (facts: RequestFacts): Promise<string | undefined> => {
    const token = (facts.body as { refreshToken?: unknown } | undefined)?.refreshToken ?? facts.refreshCookie?.();
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_REFRESH_TOKEN_LENGTH) return undefined;
    try {
      return await refreshTokenAccount(token);
    } catch (err) {
      // The database being down must not make the limiter fail the request: count by IP instead.
      onLookupError(err, facts.requestId);
      return undefined;
    }
  };

  const authenticatedPlan = authenticatedPlans(budgets);
  return async function planFor(facts: RequestFacts): Promise<Plan> {
    const declaration = facts.budget;
    if (declaration?.budget === 'strict') {
      return { governing: { budget: budgets.strict, subject: `${declaration.group}:${facts.clientIp()}` } };
    }
    if (declaration?.budget === 'refresh') {
      const accountId = await accountOfRefreshToken(facts);
      const subject = accountId === undefined ? `ip:${facts.clientIp()}` : `account:${accountId}`;
      return { governing: { budget: budgets.refresh, subject } };
    }
    if (facts.caller) return authenticatedPlan(facts.caller);
    return { governing: { budget: budgets.anonymous, subject: facts.clientIp() } };
  };
}

/**
 * The account budget and the caller's client fence inside it. One plan per caller, made the first
 * time: the identify step keeps a verified token's caller (src/auth/identify-caller.ts), and the
 * limiter keeps a plan's windows and their keys (src/limits/limiter.ts).
 */
export function authenticatedPlans(budgets: Budgets): (caller: Caller) => Plan {
  const plans = new WeakMap<Caller, Plan>();
  return (caller) => {
    let plan = plans.get(caller);
    if (plan === undefined) {
      plan = {
        governing: { budget: budgets.account, subject: caller.accountId },
        client: { budget: budgets.client, subject: `${caller.accountId}:${caller.clientId}` },
      };
      plans.set(caller, plan);
    }
    return plan;
  };
}
