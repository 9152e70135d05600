import type { Request, RequestHandler, Response } from 'express';
import type { Caller } from '../http/caller.js';
import type { OperationBudget } from '../http/operation-budgets.js';
import { requestIdOf } from '../http/request-log.js';
import { callerIn } from '../http/request-state.js';
import { errors } from '../platform/errors.js';
import type { Plan, WindowName } from './budgets.js';
import { clientIpOf } from './client-ip.js';
import type { BudgetState, Decision, Limiter, WindowState } from './limiter.js';
import type { RequestFacts } from './request-plan.js';

export const LIMIT_EXCEEDED_MESSAGE = 'Rate limit exceeded. Slow down and retry later.';
export const CLIENT_LIMIT_EXCEEDED_MESSAGE = 'This client is sending too many requests. Slow down and retry later.';

/**
 * The count step of a route's chain (http/routes.ts): spends every window that applies to the request
 * in one decision, from the route's declared budget and the identify step's caller, sets the
 * X-RateLimit-* headers and the standard RateLimit-Policy and RateLimit (also on the 429, which the
 * route's error renderer then writes), or passes on a 429.
 */
export function createRateLimitMiddleware(
  limiter: Limiter,
  planFor: (facts: RequestFacts) => Promise<Plan>,
  onDecision?: (plan: Plan, decision: Decision) => void,
  refreshCookieOf?: (req: Request) => string | undefined,
): RequestHandler {
  return async function count(req, res, next) {
    try {
      const plan = await planFor(new ExpressRequestFacts(req, res, refreshCookieOf));
      const decision = await limiter.spend(plan);
      onDecision?.(plan, decision);
      setRateLimitHeaders(res, decision);
      next(decision.allowed ? undefined : rateLimitExceeded(decision.rejectedBy, decision.retryAfterSeconds));
    } catch (err) {
      next(err);
    }
  };
}

/** A class, so no closure is made per request for the IP that most requests never need. */
class ExpressRequestFacts implements RequestFacts {
  readonly budget: OperationBudget | undefined;
  readonly caller: Caller | undefined;
  readonly body: unknown;
  readonly requestId: string | undefined;
  constructor(
    private readonly req: Request,
    res: Response,
    private readonly refreshCookieOf: ((req: Request) => string | undefined) | undefined,
  ) {
    this.budget = res.locals.route?.budget;
    this.caller = callerIn(res.locals.identity);
    this.body = req.body;
    this.requestId = requestIdOf(req);
  }

  clientIp(): string {
    return clientIpOf(this.req);
  }

  refreshCookie(): string | undefined {
    return this.refreshCookieOf?.(this.req);
  }
}

export function setRateLimitHeaders(res: Response, decision: Pick<Decision, 'governing' | 'client'>): void {
  const { burst, sustained } = decision.governing;
  res.setHeader('X-RateLimit-Limit', String(burst.limit));
  res.setHeader('X-RateLimit-Remaining', String(burst.remaining));
  res.setHeader('X-RateLimit-Reset', String(burst.resetSeconds));
  res.setHeader('X-RateLimit-Limit-sustained', String(sustained.limit));
  res.setHeader('X-RateLimit-Remaining-sustained', String(sustained.remaining));
  res.setHeader('X-RateLimit-Reset-sustained', String(sustained.resetSeconds));
  // The description puts the client headers on every response. Sign-in, refresh and anonymous calls
  // have no client fence: the allowance of their caller is the governing budget itself.
  const client: BudgetState = decision.client ?? decision.governing;
  res.setHeader('X-RateLimit-Limit-client', String(client.burst.limit));
  res.setHeader('X-RateLimit-Remaining-client', String(client.burst.remaining));
  res.setHeader('X-RateLimit-Reset-client', String(client.burst.resetSeconds));
  setStandardHeaders(res, decision);
}

/**
 * Decisions §17: the IETF httpapi fields (draft-ietf-httpapi-ratelimit-headers), one list member per
 * window that applies (the governing budget's, then the client fence's), named as the 429 body's
 * `window`. Unlike the client X-RateLimit-* headers, nothing is repeated where there is no fence.
 * Written by concatenation, not by a Structured Fields serializer: every name is a fixed sf-string of
 * lower-case letters and a dash, every number a non-negative integer, so the result is a valid
 * RFC 9651 List (the tests parse it with the structured-headers package). This runs on every request.
 */
function setStandardHeaders(res: Response, { governing, client }: Pick<Decision, 'governing' | 'client'>): void {
  let policy = policyItem(governing.burst) + ', ' + policyItem(governing.sustained);
  let state = stateItem(governing.burst) + ', ' + stateItem(governing.sustained);
  if (client) {
    policy += ', ' + policyItem(client.burst) + ', ' + policyItem(client.sustained);
    state += ', ' + stateItem(client.burst) + ', ' + stateItem(client.sustained);
  }
  res.setHeader('RateLimit-Policy', policy);
  res.setHeader('RateLimit', state);
}

/** q: the window's quota, w: its length in seconds. */
const policyItem = (window: WindowState) => `"${window.name}";q=${window.limit};w=${window.windowSeconds}`;
/** r: what is left after this request (as it stands, on a 429), t: seconds until the window rolls over. */
const stateItem = (window: WindowState) => `"${window.name}";r=${window.remaining};t=${window.resetSeconds}`;

export function rateLimitExceeded(window: WindowName, retryAfterSeconds: number) {
  const message = window.startsWith('client-') ? CLIENT_LIMIT_EXCEEDED_MESSAGE : LIMIT_EXCEEDED_MESSAGE;
  return errors.rateLimitExceeded(message, window, retryAfterSeconds);
}
